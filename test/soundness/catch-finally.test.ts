/**
 * A catch block whose try has a finally (attack round 5, r5-guards): what may throw in a function
 * the catch block calls, and whether the catch block ran at all, decide the pc of the finally and
 * of what follows a finally that breaks, continues or returns. The entries of the attack stay
 * fixed here; the property tries the shape with every decision, throw and write of the guard
 * generator (src/testing/gen-guards.ts, catchFinallyStatementArb).
 */
import { describe, expect, it } from "vitest";
import { catchFinallyStatementArb, cleanFor, planArb, runPair, soundnessTools, type PairKind } from "../../src/testing/index.js";
import { RUNTIME, checkPlans, input, runs, timeout } from "./support.js";

const read = (v: "u" | "s") => `const ${v} = read_${v === "u" ? "untrusted" : "secret"}();`;
const SHAPES: Array<[string, (v: "u" | "s") => string]> = [
  ["a finally that calls a sink after a catch block's callee threw", (v) => `${read(v)}\nfunction check() { if (${v}.c) throw new Error("stop"); }\ntry { throw 0 } catch { check() } finally { send({ value: 2 }) }`],
  ["a finally that breaks after a catch block's callee threw", (v) => `${read(v)}\nlet flag = 0;\nfunction check() { if (${v}.c) throw new Error("stop"); flag = 1; }\nout: try { throw 0 } catch { check() } finally { break out }\nsend({ value: flag });`],
  ["a finally that returns after a catch block's callee threw", (v) => `${read(v)}\nconst check = () => { if (${v}.c) throw 1; };\nfunction h() { try { throw 0 } catch { check() } finally { return "done" } }\nh();\nsend({ value: "after" });`],
  ["a finally that continues after a callback threw in the catch block", (v) => `${read(v)}\nlet n = 0;\nfor (const i of [0]) { try { throw 0 } catch { [1].forEach((x) => { if (${v}.c) throw 1; n = x; }) } finally { continue } }\nsend({ value: n });`],
  ["a method calling a method that threw", (v) => `${read(v)}\nconst o = { inner() { if (${v}.c) throw 1; }, outer() { o.inner(); } };\nlet done = 0;\nfor (const i of [0]) { try { throw 0 } catch { o.outer(); done = 1 } finally { continue } }\nsend({ value: done });`],
  ["a callee whose own try/finally let the throw through", (v) => `${read(v)}\nfunction check() { try { if (${v}.c) throw 1; } finally { } }\nlet done = 0;\nfunction h() { try { throw 0 } catch { check(); done = 1 } finally { return } }\nh();\nsend({ value: done });`],
  ["a catch block that ran in one run only, and may throw", (v) => `${read(v)}\nfunction chk() { if (${v}.c) throw 1; }\nfor (const i of [0]) { try { chk(); } catch { if (${v}.c) throw 2; } finally { continue; } }\nsend({ value: 1 });`],
  ["a catch block that ran in one run only, calling what threw", (v) => `${read(v)}\nfunction chk() { if (${v}.c) throw 1; }\nfor (const i of [0]) { try { chk(); } catch { chk(); } finally { continue; } }\nsend({ value: 1 });`],
];

const KINDS: Array<[PairKind, "u" | "s"]> = [
  ["integrity", "u"],
  ["confidentiality", "s"],
];

describe("a catch block whose try has a finally", () => {
  const cases = SHAPES.flatMap(([name, program]) => KINDS.map(([kind, v]) => [`${name} (${kind})`, program(v), kind, v] as const));
  it.each(cases)("%s: the allowed sink calls agree", async (_name, program, kind, v) => {
    const pair = await runPair(program, [input({ [v]: { c: true } }), input({ [v]: { c: false } })], { tools: (i) => soundnessTools(i, { guard: kind }), observe: ["send", "publish"], clean: cleanFor(kind === "integrity" ? "untrusted" : "secret"), runtime: RUNTIME });
    expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
  });

  it("a try with a finally in a branch decided by data leaves no pending-throw label after it where no try is open", async () => {
    // Found by the error-place property: raising the region's label as inside a try (for the
    // finally) outlived the statement, in the run that took the branch only.
    const program = `const u = read_untrusted();\nconst m = read_list();\nlet v0 = 0;\nif ("b" in u && u.b.startsWith("y")) { try { console.log(m[1].tag); } catch (err1) { v0 = 0; } finally { v0 = 0; } } else { v0 = 0; }\nsend({ value: v0 });`;
    const pair = await runPair(program, [input({ u: { b: "" } }), input({ u: { b: "yes" } })], { tools: (i) => soundnessTools(i, { guard: "integrity" }), observe: ["send"], clean: cleanFor("untrusted"), runtime: RUNTIME });
    expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
  });

  it("a trusted tool's call in such a try still lets the finally's and the later sends through", async () => {
    const program = `const t = read_trusted();\ntry { read_trusted(); } catch (e) { send({ value: 2 }); } finally { send({ value: 3 }); }\nsend({ value: 1 });`;
    const pair = await runPair(program, [input(), input()], { tools: (i) => soundnessTools(i, { guard: "integrity" }), observe: ["send"], clean: cleanFor("untrusted"), runtime: RUNTIME });
    expect(pair.traces[0]).toEqual(['send({"value":3})', 'send({"value":1})']);
  });

  it.each<PairKind>(["integrity", "confidentiality"])("%s over generated plans of the shape", async (kind) => {
    const report = await checkPlans(kind, planArb({ focus: catchFinallyStatementArb }), { numRuns: runs(150) });
    expect(report.counterexample).toBeUndefined();
  }, timeout(120_000));
});
