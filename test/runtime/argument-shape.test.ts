/**
 * Which keys an argument object has is data too: a key that untrusted (or secret) data wrote,
 * deleted or skipped must be checked by the rules that guard it when it is missing, exactly as
 * when it is there. Per-argument policies see that through `call.shape(path)`, the label of the
 * object's own part (which keys it has), from the conversion at the host boundary.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Label,
  all,
  askInstead,
  createRuntime,
  defineTool,
  requirePublic,
  requireReadableBy,
  requireTrusted,
  requireTrustedIfPrivate,
  type Policy,
} from "../../src/index.js";
import { recordSource } from "../../src/testing/kit-tools.js";
import { runPair } from "../../src/testing/noninterference.js";

const EVE = Label.untrusted("email:eve");
const DIARY = Label.of({ trusted: true, readers: ["me"], sources: ["file:diary"] });

function tools(policy: Policy | undefined, data: Label, c: boolean) {
  return [
    recordSource("read_data", { c }, data),
    defineTool({ name: "send_mail", description: "Sends mail.", parameters: { type: "object" }, sideEffect: true, ...(policy ? { policy } : {}), run: () => ({ ok: true }) }),
  ];
}

async function pair(program: string, policy: Policy | undefined, data: Label) {
  const clean = data.trusted ? (l: Label) => l.isPublic : (l: Label) => l.trusted;
  return runPair(program, [true, false], { tools: (c) => tools(policy, data, c), observe: ["send_mail"], clean });
}

describe("a missing argument carries the label of what decided it is missing", () => {
  const wrote = `const u = read_data();\nconst m = { to: "bob@corp.example", body: "minutes" };\nif (u.c) m.cc = "carol@corp.example";\nsend_mail(m);`;
  const deleted = `const u = read_data();\nconst m = { to: "bob@corp.example", cc: "carol@corp.example", body: "minutes" };\nif (u.c) delete m.cc;\nsend_mail(m);`;

  it.each([
    ["a key written under an untrusted branch, requireTrusted", wrote, askInstead(requireTrusted("cc")), EVE],
    ["a key deleted under an untrusted branch, requireTrusted", deleted, askInstead(requireTrusted("cc")), EVE],
    ["a key written under a secret branch, requirePublic", wrote, askInstead(all(requirePublic("to"), requirePublic("cc"), requirePublic("body"))), DIARY],
    ["a key written under a secret branch, requireReadableBy", wrote, askInstead(requireReadableBy("cc", { principals: ["bob@corp.example"] })), DIARY],
    ["a key written under an untrusted branch over secret data, requireTrustedIfPrivate", wrote, askInstead(requireTrustedIfPrivate("cc")), EVE.join(DIARY)],
    ["a key written under an untrusted branch, the default policy", wrote, undefined, EVE],
    ["a key deleted under an untrusted branch, the default policy", deleted, undefined, EVE],
  ])("%s: both runs ask (or neither is allowed)", async (_what, program, policy, data) => {
    const r = await pair(program, policy, data);
    expect(r.results.map((x) => x.status)).not.toContain("failed");
    expect(r.traces[0]).toEqual(r.traces[1]);
    expect(r.results.every((x) => x.calls[1]?.decision !== "allow")).toBe(true);
  });

  it("a nested key: its object's shape decides, not the whole call", async () => {
    const program = `const u = read_data();\nconst m = { to: "bob@corp.example", opts: { prio: 1 } };\nif (u.c) m.opts.cc = "carol@corp.example";\nsend_mail(m);`;
    const r = await pair(program, askInstead(requireTrusted("opts.cc")), EVE);
    expect(r.traces[0]).toEqual(r.traces[1]);
    expect(r.results[1].calls[1].decision).toBe("ask");
    expect(r.results[1].calls[1].reason).toContain("`opts.cc` is missing, and untrusted data decided that");
  });

  it("the order of the keys, which untrusted data decided, does not reach the tool (found by the property below, seed 1424616832)", async () => {
    // Deleting `cc` under the branch and writing it again moves it last in JavaScript's order.
    const program = `const u = read_data();\nlet m = { to: "a@corp.example", cc: "a@corp.example" };\nm.body = "x@corp.example";\nif (u.c) { delete m.cc; }\nm.cc = "x@corp.example";\nsend_mail(m);`;
    const r = await pair(program, all(requireTrusted("to"), requireTrusted("cc"), requireTrusted("body")), EVE);
    expect(r.results.map((x) => x.calls[1]?.decision)).toEqual(["allow", "allow"]);
    expect(r.traces[0]).toEqual(r.traces[1]);
    expect(Object.keys(r.results[0].calls[1].args)).toEqual(["body", "cc", "to"]);
  });

  it("the reader's schema keeps the order the program wrote it in (models answer in that order)", async () => {
    const schemas: unknown[] = [];
    const quarantined = { query: async (q: { prompt: string; schema: unknown }) => (schemas.push(q.schema), { reasoning: "r", answer: "a" }) };
    const r = await createRuntime({ tools: [], quarantined }).run(`query_ai_assistant("Which?", { type: "object", properties: { reasoning: { type: "string" }, answer: { type: "string" } }, required: ["reasoning", "answer"] }).answer`);
    expect(r.value).toBe("a");
    expect(Object.keys((schemas[0] as { properties: object }).properties)).toEqual(["reasoning", "answer"]);
  });

  it("stays precise: a key the program never wrote, in an object built at a trusted point, is simply absent", async () => {
    const runtime = createRuntime({ tools: tools(all(requireTrusted("cc"), requirePublic("cc")), EVE, true) });
    const r = await runtime.run(`const u = read_data();\nsend_mail({ to: "bob@corp.example", body: u.c ? "yes" : "no" });`);
    expect(r.calls[1]).toMatchObject({ tool: "send_mail", decision: "allow" });
    // An untrusted value elsewhere does not make the missing key untrusted.
    const d = await createRuntime({ tools: tools(askInstead(requireTrusted("cc")), EVE, true) }).run(`const u = read_data();\nsend_mail({ to: "bob@corp.example", body: u });`);
    expect(d.calls[1]).toMatchObject({ decision: "allow" });
  });

  it("a readers rule does not count a key missing for no more secret a reason than the call happens", async () => {
    const program = `const u = read_data();
if (u.c) { send_mail({ to: "bob@corp.example", body: "minutes" }); }`;
    const runtime = createRuntime({ tools: tools(requireReadableBy("cc", { principals: ["bob@corp.example"] }), DIARY, true) });
    const r = await runtime.run(program);
    expect(r.calls[1]).toMatchObject({ tool: "send_mail", decision: "allow" });
  });
});

/** One operation on the argument object, at the top level or under a branch on the data. */
const KEYS = ["to", "cc", "body"] as const;
const opArb = fc.record({
  key: fc.constantFrom(...KEYS),
  what: fc.constantFrom("set", "delete", "undefined", "spread"),
  guard: fc.constantFrom("", "u.c", "!u.c"),
});

function statement(op: { key: string; what: string; guard: string }): string {
  const body =
    op.what === "set" ? `m.${op.key} = "x@corp.example";` : op.what === "delete" ? `delete m.${op.key};` : op.what === "undefined" ? `m.${op.key} = undefined;` : `m = { ...m, ${op.key}: "y@corp.example" };`;
  return op.guard === "" ? body : `if (${op.guard}) { ${body} }`;
}

describe("property: per-argument rules agree on pairs of runs that differ in what decided the keys", () => {
  it("requireTrusted / requirePublic over every key, and the default policy, on generated programs", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...KEYS]),
        fc.array(opArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("untrusted", "secret", "default"),
        async (initial, ops, kind) => {
          const start = initial.map((k) => `${k}: "a@corp.example"`).join(", ");
          const program = [`const u = read_data();`, `let m = { ${start} };`, ...ops.map(statement), `send_mail(m);`].join("\n");
          const policy = kind === "untrusted" ? askInstead(all(...KEYS.map((k) => requireTrusted(k)))) : kind === "secret" ? askInstead(all(...KEYS.map((k) => requirePublic(k)))) : undefined;
          const r = await pair(program, policy, kind === "secret" ? DIARY : EVE);
          if (!r.ok) throw new Error(`${program}\n${kind}: ${JSON.stringify(r.traces)}`);
        },
      ),
      { numRuns: 150 },
    );
  });
});
