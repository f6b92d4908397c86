/**
 * The static plan check must not cry wolf: every call it predicts to be refused must be refused
 * in every run that reaches it, whatever the tools return. Generated plans (reads, finds,
 * filters, the reader, branches, loops, callbacks, functions with early returns) each call
 * sinks from distinct call sites (one tool per site), and run against several random data sets;
 * every call the check flagged is then looked up in the run's record.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPlan } from "../../src/plancheck/index.js";
import { createRuntime, defineTool, emailPolicy, paymentPolicy, type Tool } from "../../src/index.js";

type Kind = "mails" | "mail" | "contacts" | "contact" | "ledger" | "tx" | "text" | "answer";

const ANSWER = `{ type: "object", properties: { address: { type: "string" }, ok: { type: "boolean" } }, required: ["address", "ok"] }`;

interface Gen {
  lines: string[];
  vars: Array<{ name: string; kind: Kind }>;
  sinks: number;
}

const pick = <T>(items: readonly T[]) => fc.constantFrom(...items);

/** One step of a plan, as a function of the variables made so far. */
function stepArb(g: Gen): fc.Arbitrary<(g: Gen) => void> {
  const of = (kinds: Kind[]) => g.vars.filter((v) => kinds.includes(v.kind));
  const def = (kind: Kind, expr: string) => (s: Gen) => {
    const name = `v${s.vars.length}`;
    s.lines.push(`const ${name} = ${expr};`);
    s.vars.push({ name, kind });
  };
  const options: Array<fc.Arbitrary<(g: Gen) => void>> = [
    fc.constant(def("mails", `get_mail()`)),
    fc.constant(def("contacts", `get_contacts()`)),
    fc.constant(def("ledger", `get_ledger()`)),
    fc.constant(def("text", `get_notes()`)),
  ];
  const mails = of(["mails"]);
  const mail = of(["mail"]);
  const contacts = of(["contacts"]);
  const ledger = of(["ledger"]);
  const txs = of(["tx"]);
  const texts = of(["text"]);
  const answers = of(["answer"]);
  if (mails.length) {
    options.push(pick(mails).chain((m) => pick([`${m.name}[0]`, `${m.name}.find((x) => x.subject.includes("a"))`, `${m.name}.filter((x) => x.from.length > 3)[0]`]).map((e) => def("mail", e))));
    options.push(pick(mails).map((m) => def("answer", `query_ai_assistant("Read: " + JSON.stringify(${m.name}), ${ANSWER})`)));
    options.push(pick(mails).map((m) => def("text", `String(${m.name}.length)`)));
  }
  if (mail.length) options.push(pick(mail).chain((m) => pick(["from", "subject", "body"]).map((f) => def("text", `${m.name}.${f}`))));
  if (contacts.length) options.push(pick(contacts).chain((c) => pick([`${c.name}[0]`, `${c.name}.find((x) => x.name === "Jonas")`]).map((e) => def("contact", e))));
  if (ledger.length) {
    options.push(pick(ledger).chain((l) => pick([`${l.name}[0]`, `${l.name}.find((t) => t.amount > 10)`, `${l.name}.find((t) => t.subject.includes("r"))`]).map((e) => def("tx", e))));
  }
  if (txs.length) options.push(pick(txs).chain((t) => pick(["sender", "subject", "amount"]).map((f) => def("text", `String(${t.name}.${f})`))));
  if (texts.length) {
    options.push(pick(texts).map((t) => def("answer", `query_ai_assistant("About: " + ${t.name}, ${ANSWER})`)));
    options.push(fc.tuple(pick(texts), pick(texts)).map(([a, b]) => def("text", `\`\${${a.name}} / \${${b.name}}\``)));
    options.push(pick(texts).map((t) => def("text", `${t.name}.length > 4 ? "long" : "short"`)));
  }
  if (answers.length) options.push(pick(answers).chain((a) => pick(["address", "ok ? \"a@x.example\" : \"b@x.example\""]).map((f) => def("text", f.startsWith("ok") ? `${a.name}.${f}` : `${a.name}.${f}`))));
  options.push(sinkArb(g));
  return fc.oneof(...options);
}

/** A recipient and a body from what exists, or literals. */
function argsArb(g: Gen): fc.Arbitrary<{ to: string; body: string }> {
  const texts = g.vars.filter((v) => v.kind === "text").map((v) => v.name);
  const contacts = g.vars.filter((v) => v.kind === "contact").map((v) => `${v.name}.email`);
  const mails = g.vars.filter((v) => v.kind === "mail").map((v) => `${v.name}.from`);
  const answers = g.vars.filter((v) => v.kind === "answer").map((v) => `${v.name}.address`);
  const to = pick(['"boss@corp.example"', '"maya"', ...texts, ...contacts, ...mails, ...answers]);
  const body = pick(['"Hello"', ...texts, ...texts.map((t) => `"Note: " + ${t}`)]);
  return fc.record({ to, body });
}

/** Ways a plan corrects a message object before sending it (`#` is the sink's number). */
const FIXUPS = [
  "",
  `d#.to = ["boss@corp.example"];`,
  `const a# = d#; a#.to = ["maya"];`,
  `function fix#(x) { x.to = ["maya"]; return x; } fix#(d#);`,
  `d#.to.length = 0; d#.to.push("boss@corp.example");`,
  `[d#].forEach((x) => { x.to = ["maya"]; });`,
  `const box# = { m: d# }; box#.m.to = ["maya"];`,
];

function sinkArb(g: Gen): fc.Arbitrary<(g: Gen) => void> {
  const deciders = g.vars.filter((v) => ["mails", "ledger", "text", "contacts"].includes(v.kind));
  const wrap = deciders.length === 0 ? fc.constant("plain") : pick(["plain", "if", "for", "forEach", "fn", "ternary"] as const);
  return fc.tuple(argsArb(g), wrap, deciders.length ? pick(deciders) : fc.constant(undefined), pick(["send", "pay", "post", "draft"] as const), pick(FIXUPS)).map(([args, how, d, kind, fixup]) => (s: Gen) => {
    const k = ++s.sinks;
    if (kind === "draft") {
      // A message built as an object, then maybe corrected through its name, an alias, a
      // helper or a nested path before it is sent.
      s.lines.push(`const d${k} = { to: [${args.to}], subject: "S", body: ${args.body} };`);
      if (fixup !== "") s.lines.push(fixup.replaceAll("#", String(k)));
    }
    const call =
      kind === "send" ? `send_${k}({ to: [${args.to}], subject: "S", body: ${args.body} })`
      : kind === "draft" ? `send_${k}(d${k})`
      : kind === "pay" ? `pay_${k}({ recipient: ${args.to}, amount: 5, subject: ${args.body} })` : `post_${k}({ text: ${args.body} })`;
    const on = d === undefined ? "" : d.kind === "text" ? `${d.name}.length` : `${d.name}.length`;
    switch (how) {
      case "plain":
        s.lines.push(`${call};`);
        break;
      case "if":
        s.lines.push(`if (${on} > 0) { ${call}; }`);
        break;
      case "for":
        s.lines.push(d!.kind === "text" ? `for (const ch of ${d!.name}.slice(0, 1)) { ${call}; }` : `for (const item of ${d!.name}) { ${call}; }`);
        break;
      case "forEach":
        s.lines.push(d!.kind === "text" ? `[${d!.name}].forEach((x) => { ${call}; });` : `${d!.name}.forEach((x) => { ${call}; });`);
        break;
      case "fn":
        s.lines.push(`function f${k}(v) { if (v.length === 0) return 0; ${call}; return 1; }`, `f${k}(${d!.name});`);
        break;
      case "ternary":
        s.lines.push(`${on} > 1 ? ${call} : 0;`);
        break;
    }
  });
}

const planArb: fc.Arbitrary<{ source: string; sinks: number }> = fc
  .array(fc.nat(), { minLength: 3, maxLength: 9 })
  .chain((seeds) => {
    // Each step sees the variables made before it: build the plan one step at a time.
    let acc: fc.Arbitrary<Gen> = fc.constant({ lines: [], vars: [], sinks: 0 });
    for (const _ of seeds) {
      acc = acc.chain((g) => stepArb(g).map((apply) => {
        const next: Gen = { lines: [...g.lines], vars: [...g.vars], sinks: g.sinks };
        apply(next);
        return next;
      }));
    }
    return acc.chain((g) => sinkArb(g).map((apply) => {
      const next: Gen = { lines: [...g.lines], vars: [...g.vars], sinks: g.sinks };
      apply(next);
      return next;
    }));
  })
  .map((g) => ({ source: g.lines.join("\n"), sinks: g.sinks }));

interface World {
  mail: Array<{ from: string; to: string[]; subject: string; body: string }>;
  contacts: Array<{ name: string; email: string }>;
  ledger: Array<{ sender: string; amount: number; subject: string }>;
  notes: string;
  answer: { address: string; ok: boolean };
}

const worldArb: fc.Arbitrary<World> = fc.record({
  mail: fc.array(fc.record({ from: pick(["eve@evil.example", "maya", "boss@corp.example"]), to: fc.constant(["maya"]), subject: pick(["a", "hello", "rent"]), body: pick(["", "hi", "send it"]) }), { maxLength: 3 }),
  contacts: fc.array(fc.record({ name: pick(["Jonas", "Sofia"]), email: pick(["jonas@quill.example", "maya"]) }), { minLength: 1, maxLength: 2 }),
  ledger: fc.array(fc.record({ sender: pick(["DE89", "NL91"]), amount: fc.integer({ min: 1, max: 40 }), subject: pick(["rent", "dinner", "x"]) }), { maxLength: 3 }),
  notes: pick(["", "Q3 plan", "roadmap v2"]),
  answer: fc.record({ address: pick(["maya", "eve@evil.example", "boss@corp.example"]), ok: fc.boolean() }),
});

function tools(world: World, sinks: number): Tool<any, any>[] {
  const sources: Tool<any, any>[] = [
    defineTool({ name: "get_mail", description: "", returns: { type: "array" }, output: { trusted: false, sources: ["mail"], parts: { "*": { readers: ["{from}", "{to}"] }, "*.body": { trusted: false } } }, run: () => structuredClone(world.mail) }),
    defineTool({ name: "get_contacts", description: "", returns: { type: "array" }, output: { trusted: true, sources: ["contacts"] }, run: () => structuredClone(world.contacts) }),
    defineTool({ name: "get_ledger", description: "", returns: { type: "array" }, output: { trusted: true, readers: ["maya", "bank"], parts: { "*.subject": { trusted: false, sources: ["transfer:{sender}"] } } }, run: () => structuredClone(world.ledger) }),
    defineTool({ name: "get_notes", description: "", returns: { type: "string" }, output: { trusted: true, readers: ["maya"], sources: ["notes"] }, run: () => world.notes }),
  ];
  const strings = { type: "string" };
  for (let k = 1; k <= sinks; k++) {
    sources.push(defineTool({ name: `send_${k}`, description: "", parameters: { type: "object", properties: { to: { type: "array", items: strings }, subject: strings, body: strings } }, sideEffect: true, policy: emailPolicy(), run: () => ({ ok: true }) }));
    sources.push(defineTool({ name: `pay_${k}`, description: "", parameters: { type: "object", properties: { recipient: strings, amount: { type: "number" }, subject: strings } }, sideEffect: true, policy: paymentPolicy(), run: () => ({ ok: true }) }));
    sources.push(defineTool({ name: `post_${k}`, description: "", parameters: { type: "object", properties: { text: strings } }, sideEffect: true, run: () => ({ ok: true }) }));
  }
  return sources;
}

describe("the static plan check never predicts a refusal the runtime does not make", () => {
  it("holds on generated plans over random data", async () => {
    let flagged = 0;
    let reached = 0;
    await fc.assert(
      fc.asyncProperty(planArb, fc.array(worldArb, { minLength: 3, maxLength: 3 }), async (plan, worlds) => {
        const { findings, error } = checkPlan(plan.source, tools(worlds[0], plan.sinks));
        expect(error).toBeUndefined();
        flagged += findings.length;
        for (const world of worlds) {
          const reader = { query: async () => structuredClone(world.answer) };
          const result = await createRuntime({ tools: tools(world, plan.sinks), quarantined: reader, approve: () => false }).run(plan.source);
          for (const f of findings) {
            for (const call of result.calls.filter((c) => c.tool === f.tool)) {
              reached++;
              if (f.decision === "deny") expect(call.decision, `${f.message}\n\n${plan.source}`).toBe("deny");
              else expect(call.decision, `${f.message}\n\n${plan.source}`).not.toBe("allow");
            }
          }
        }
      }),
      { numRuns: Number(process.env.SLUICE_PLANCHECK_RUNS ?? 150), seed: Number(process.env.SLUICE_SEED ?? 7) },
    );
    // The property says something only if the check flags calls that the runs then reach.
    if (process.env.SLUICE_PLANCHECK_STATS) console.log({ flagged, reached });
    expect(flagged).toBeGreaterThan(50);
    expect(reached).toBeGreaterThan(20);
  }, 120_000);
});
