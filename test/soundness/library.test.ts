/**
 * The guarantee over plans made of the builtins of issue 15 phase 2 (Array(n), toSorted and the
 * other copies, Object.groupBy, structuredClone, String.raw, named groups, matchAll, Intl, the
 * clock, Map and Set), each reading untrusted or secret data, under decisions on it and inside try blocks:
 * two runs whose untrusted (or secret) inputs differ make the same allowed sink calls.
 */
import { describe, expect, it } from "vitest";
import { checkNoninterference, inputPairArb, libraryStatementArb, planArb, soundnessTools, type PairKind } from "../../src/testing/index.js";
import { RUNTIME, runs, seed, timeout } from "./support.js";

async function check(kind: PairKind) {
  const report = await checkNoninterference({
    programs: planArb({ focus: libraryStatementArb }),
    inputs: inputPairArb(kind),
    tools: (i) => soundnessTools(i, { guard: kind }),
    observe: ["send", "publish"],
    varying: kind === "integrity" ? "untrusted" : "secret",
    numRuns: runs(120),
    seed: seed(),
    runtime: RUNTIME,
  });
  if (report.failed) console.error(`${kind} counterexample (seed ${report.seed}):\n${report.counterexample?.program}\n`, JSON.stringify(report.counterexample?.inputs), report.counterexample?.traces);
  return report;
}

describe("noninterference over plans of the phase-2 builtins", () => {
  it("integrity", async () => {
    const report = await check("integrity");
    expect(report.counterexample).toBeUndefined();
    expect(report.sinkUnderTaint / report.runs).toBeGreaterThan(0.2);
  }, timeout(240_000));
  it("confidentiality", async () => {
    const report = await check("confidentiality");
    expect(report.counterexample).toBeUndefined();
    expect(report.sinkUnderTaint / report.runs).toBeGreaterThan(0.2);
  }, timeout(240_000));
});
