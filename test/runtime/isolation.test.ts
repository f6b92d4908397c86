/**
 * No shared mutable state on the host side: nothing a program does (to a tool's result, a
 * reader's answer, a schema, a cached compiled program, the interpreter's state when it fails
 * or is stopped) changes what another run of the same runtime, or any other runtime, sees.
 * Checked as a differential: an observer program's whole result (value, labels, calls and their
 * decisions) after hostile runs must equal its result in a runtime that never saw them.
 */
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool, labeled, type RunResult } from "../../src/index.js";

/** The same objects are handed out on every call, as a tool backed by a module-level cache would. */
const SHARED_RESULT = { a: 1, list: [1, 2], inner: { tag: "t" }, mixed: labeled("from eve", Label.untrusted("email:eve@evil.com")) };
const SHARED_ANSWER = { k: [1, 2], note: "n" };

const tools = [
  defineTool({ name: "get", description: "Reads a record.", label: () => Label.trusted(), run: () => SHARED_RESULT }),
  defineTool({ name: "read_untrusted", description: "Reads a stranger's record.", label: () => Label.untrusted("email:eve@evil.com"), run: () => ({ c: true, n: 3 }) }),
  defineTool({
    name: "send",
    description: "Sends a value.",
    sideEffect: true,
    parameters: { type: "object", properties: { value: {} } },
    policy: (call) => (call.label().trusted && call.context.trusted ? { kind: "allow" } : { kind: "deny", reason: "untrusted" }),
    run: async (args) => (await new Promise((r) => setTimeout(r, 1)), { got: args.value }),
  }),
];
const reader = { query: async () => SHARED_ANSWER };
const make = () => createRuntime({ tools, quarantined: reader, approve: () => true, limits: { steps: 50_000 } });

const OBSERVER = `const o = get();
const ans = query_ai_assistant("q", { type: "object", properties: { k: { type: "array" } } });
const r = /a/g;
let v;
try { v = query_ai_assistant("q2", { $ref: "https://ids.test/planted" }); } catch (e) { v = e.message; }
const sent = send({ value: [o.a, o.list, o.inner, ans, r.lastIndex, Math.random(), v] });
[o, ans, r.lastIndex, v, sent, typeof planted]`;

const HOSTILE = [
  // Change what a tool and the reader returned, and what was sent.
  `const o = get(); o.a = 2; o.list.push(9); o.inner.tag = "planted"; o.mixed = "trusted now"; delete o.a;
const ans = query_ai_assistant("q", { type: "object" }); ans.k.push(3); ans.note = "planted";
const arg = { list: [1] }; send({ value: arg }); arg.list.push(2);`,
  // Register an id in the schema the observer refers to, under untrusted control.
  `const u = read_untrusted(); query_ai_assistant("x", { $id: "https://ids.test/planted", type: u.c ? "object" : "string" });`,
  // Move a regex's lastIndex and the random seed.
  `const r = /a/g; r.test("aaa"); r.test("aaa"); Math.random(); Math.random();`,
  // End inside an untrusted branch: by a throw from a callback, a step limit, a denial.
  `const u = read_untrusted(); if (u.c) { [1, 2].map((x) => { if (x > 1) throw new Error("x"); return x; }); }`,
  `const u = read_untrusted(); if (u.c) { let i = 0; while (true) i++; }`,
  `const u = read_untrusted(); if (u.c) { Promise.all([send({ value: 1 }), send({ value: 2 })]); }`,
  // A global of its own, and the observer's own source (run from the cache).
  `var planted = "by an earlier run";`,
  OBSERVER,
];

/** Everything a run's result says, labels included, as comparable data. */
function view(r: RunResult): unknown {
  return JSON.parse(
    JSON.stringify({
      status: r.status,
      value: r.value,
      label: r.label,
      error: r.error && { kind: r.error.kind, message: r.error.message, label: r.error.label },
      calls: r.calls.map((c) => ({ tool: c.tool, args: c.args, decision: c.decision, result: c.result, argsLabel: c.argsLabel, context: c.context })),
      queries: r.queries.map((q) => ({ prompt: q.prompt, answer: q.answer, error: q.error, label: q.label })),
    }),
  );
}

describe("no program changes what another run or runtime sees", () => {
  it("an observer sees the same after hostile runs, in the same runtime and in another one, as in a fresh runtime", async () => {
    const baseline = view(await make().run(OBSERVER));
    expect(baseline).toMatchObject({ status: "completed", calls: [{ tool: "get" }, { tool: "send", decision: "allow" }] });
    const a = make();
    const b = make();
    for (const program of HOSTILE) await a.run(program);
    expect(view(await a.run(OBSERVER))).toEqual(baseline);
    expect(view(await b.run(OBSERVER))).toEqual(baseline);
    expect(SHARED_RESULT.list).toEqual([1, 2]);
    expect(SHARED_ANSWER.k).toEqual([1, 2]);
  });

  it("runs of different runtimes interleaved at every tool call see what they would see alone", async () => {
    const baseline = view(await make().run(OBSERVER));
    const alone = await Promise.all(HOSTILE.map(async (p) => view(await make().run(p))));
    const a = make();
    const b = make();
    const together = await Promise.all([...HOSTILE.map((p) => a.run(p)), ...HOSTILE.map(() => b.run(OBSERVER))]);
    expect(together.slice(0, HOSTILE.length).map(view)).toEqual(alone);
    for (const r of together.slice(HOSTILE.length)) expect(view(r)).toEqual(baseline);
  });
});

describe("interpreter state shared across runtimes (the core's part of issue 14)", () => {
  // The TDZ marker was one module-level object that `var x; [x][0].note = ...` wrote into; it is
  // now a symbol, so nothing of one run reaches another.
  it("an unassigned var's marker written by one runtime is not read by another", async () => {
    await createRuntime({}).run(`var x;\nObject.assign([x][0], { planted: "by run 1" });`);
    const r = await createRuntime({}).run(`var y;\n[typeof y, y === undefined]`);
    expect(r.value).toEqual(["undefined", true]);
  });
});
