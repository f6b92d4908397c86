/**
 * Data that chooses what runs (attack rounds r10-stops, r11-bind, r11-calls): a method by a key
 * or between two methods of a receiver whose label covers the choice, a callback against a value
 * the builtin does not call, a builtin that labels its own throws passed as a callback, a
 * closure called with an argument count data decided. Where one choice writes, throws or stops
 * and the other does not, the two runs' allowed sink calls, and what the planner is told when
 * both fail alike, must agree. The corpus keeps each program found; this property makes more.
 */
import { describe, expect, it } from "vitest";
import { calleeStatementArb, cleanFor, planArb, runPair, soundnessTools, type PairKind } from "../../src/testing/index.js";
import { RUNTIME, checkPlans, input, runs, timeout } from "./support.js";

describe("a choice of what runs whose quiet side does nothing", () => {
  it("a method data chose on an untrusted list, one that writes and one that does not, leaves later trusted sends alone", async () => {
    const program = "const u = read_untrusted();\nconst t = read_trusted();\nu.list[u.c ? \"push\" : \"at\"](1);\nsend({ value: t.a });";
    const pair = await runPair(program, [input({ u: { c: true } }), input({ u: { c: false } })], { tools: (i) => soundnessTools(i, { guard: "integrity" }), observe: ["send"], clean: cleanFor("untrusted"), runtime: RUNTIME });
    expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
    // Both runs complete, and the trusted send is allowed in both: no floor raised by the writer alone.
    expect(pair.traces).toEqual([['send({"value":0})'], ['send({"value":0})']]);
  });

  it.each<PairKind>(["integrity", "confidentiality"])("%s over generated plans of the shape, the planner's feedback compared", async (kind) => {
    const report = await checkPlans(kind, planArb({ focus: calleeStatementArb }), { numRuns: runs(150), feedback: true });
    expect(report.counterexample).toBeUndefined();
  }, timeout(120_000));
});
