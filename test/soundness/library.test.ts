/**
 * The guarantee over plans made of the builtins of issue 15 phase 2 (Array(n), toSorted and the
 * other copies, Object.groupBy, structuredClone, String.raw, named groups, matchAll, Intl, the
 * clock, Map and Set), each reading untrusted or secret data, under decisions on it and inside try blocks:
 * two runs whose untrusted (or secret) inputs differ make the same allowed sink calls.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { libraryStatementArb, planArb, type PairKind } from "../../src/testing/index.js";
import { checkPlans, runs, timeout } from "./support.js";

const check = (kind: PairKind) => checkPlans(kind, planArb({ focus: libraryStatementArb }), { numRuns: runs(120) });

/** Round 4's shapes (each a leak of the attack corpus before its fix), each a pattern of the generated source. */
const ROUND4: Record<string, RegExp> = {
  "collection from a nullish or string source": /new Set\(\S+ \? "" : |new Map\(\S+ \? \[\[1, /,
  "method read beside a data-chosen entry": /c0\.set\("get", /,
  "forEach given a callback data chose, or none": /c0\.forEach\(\S+ \? (Math\.random|f0) : Math\.abs\)|c0\.forEach\(undefined\)/,
  "optional callback data made absent": /\? \(p0\) => p0 \* 2 : undefined\)|\? \(p, q\) => p - q : undefined\)|: val\) : "none"\)/,
};

describe("noninterference over plans of the phase-2 builtins", () => {
  it("reaches round 4's shapes in a few hundred plans", () => {
    const text = fc.sample(planArb({ focus: libraryStatementArb }), { numRuns: 400, seed: 7 }).join("\n");
    expect(Object.entries(ROUND4).filter(([, re]) => !re.test(text)).map(([name]) => name)).toEqual([]);
  });
  it("integrity", async () => {
    const report = await check("integrity");
    expect(report.counterexample).toBeUndefined();
    expect(report.sinkUnderTaint / report.runs, `plans with a sink under taint (SLUICE_SEED=${report.seed})`).toBeGreaterThan(0.2);
  }, timeout(240_000));
  it("confidentiality", async () => {
    const report = await check("confidentiality");
    expect(report.counterexample).toBeUndefined();
    expect(report.sinkUnderTaint / report.runs, `plans with a sink under taint (SLUICE_SEED=${report.seed})`).toBeGreaterThan(0.2);
  }, timeout(240_000));
});
