/**
 * A logical assignment that keeps its value charges what the write it did not make would have
 * (attack round r13): a write that would have thrown (a string's key, a Map's, an array's named
 * key) joins where the run may end and, inside a try, the pending throw; the reference's label
 * joins where the run may end whatever the base; a write that would have stopped raises no
 * floor and upgrades nothing, as no run that goes on made it. The corpus keeps each program the
 * round found (test/soundness/corpus/r13-logical); the property makes more of their kind.
 */
import { describe, expect, it } from "vitest";
import { cleanFor, logicalStatementArb, planArb, runPair, soundnessTools, type PairKind } from "../../src/testing/index.js";
import { RUNTIME, checkPlans, input, runs, timeout } from "./support.js";

const pairOf = (program: string, kind: PairKind, inputs: [Record<string, unknown>, Record<string, unknown>]) =>
  runPair(program, [input(inputs[0]), input(inputs[1])], { tools: (i) => soundnessTools(i, { guard: kind }), observe: ["send"], clean: cleanFor(kind === "integrity" ? "untrusted" : "secret"), runtime: RUNTIME, feedback: true });

describe("the write a logical assignment did not make", () => {
  it("one that would have thrown on a string hides the place of a later failure, as the throw did", async () => {
    const program = "const u = read_untrusted();\nconst s0 = u.b;\ns0.length &&= 0;\nnull.x;";
    const pair = await pairOf(program, "integrity", [{ u: { b: "abc" } }, { u: { b: "" } }]);
    expect(pair.results.map((r) => r.status)).toEqual(["failed", "failed"]);
    expect(pair.feedback?.[0]).toBe(pair.feedback?.[1]);
  });

  it("one on a Map inside a try decides the catch as the write made does", async () => {
    const program = "const u = read_untrusted();\nconst m0 = new Map([[1, 1]]);\nm0.delete(u.a);\nlet r = 0;\ntry { m0.size &&= 0; } catch (e) { r = 1; }\nsend({ value: r });";
    const pair = await pairOf(program, "integrity", [{ u: { a: 1 } }, { u: { a: 2 } }]);
    expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
  });

  it("one that would have stopped raises no floor: a later trusted send is allowed in both runs", async () => {
    const program = "const u = read_untrusted();\nconst t = read_trusted();\nconst b = { x: 0 };\nconst o = u.c ? { x: 1 } : b;\no.x &&= 0;\nsend({ value: t.a });";
    const pair = await pairOf(program, "integrity", [{ u: { c: true } }, { u: { c: false } }]);
    expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
    expect(pair.traces).toEqual([['send({"value":0})'], ['send({"value":0})']]);
  });

  it("a base that is an object in one run and a string in the other joins where the run may end in both", async () => {
    const program = "const u = read_untrusted();\nconst o = u.c ? { length: 1 } : \"\";\no.length &&= 5;\nnull.x;";
    const pair = await pairOf(program, "integrity", [{ u: { c: true } }, { u: { c: false } }]);
    expect(pair.results.map((r) => r.status)).toEqual(["failed", "failed"]);
    expect(pair.feedback?.[0]).toBe(pair.feedback?.[1]);
  });

  it.each<PairKind>(["integrity", "confidentiality"])("%s over generated plans of the shape, the planner's feedback compared", async (kind) => {
    const report = await checkPlans(kind, planArb({ focus: logicalStatementArb }), { numRuns: runs(150), feedback: true });
    expect(report.counterexample).toBeUndefined();
  }, timeout(120_000));
});
