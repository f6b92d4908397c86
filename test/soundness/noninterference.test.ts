/**
 * The guarantee, tested on generated plans over the whole language: two runs whose untrusted
 * inputs differ (integrity), or whose secret inputs differ (confidentiality), make the same
 * allowed sink calls with the same arguments, and ask a person at the same points the attacker
 * cannot steer to (see src/testing/noninterference.ts for what is compared and why).
 *
 * Sinks guard only what the property varies (integrity: untrusted flows; confidentiality:
 * private ones), so a leak is not hidden behind an ask that the other kind of data caused.
 * SLUICE_SOUNDNESS_SCALE=10 runs ten times as many plans; SLUICE_SEED reproduces a run.
 */
import { describe, expect, it } from "vitest";
import { planArb, type NoninterferenceReport, type PairKind, type SoundnessInput } from "../../src/testing/index.js";
import { KNOWN_LEAK_FEATURES, checkPlans, runs, timeout } from "./support.js";

async function check(kind: PairKind): Promise<NoninterferenceReport<SoundnessInput>> {
  const report = await checkPlans(kind, planArb({ avoid: KNOWN_LEAK_FEATURES }), { numRuns: runs(400) });
  const pct = ((100 * report.sinkUnderTaint) / report.runs).toFixed(0);
  console.log(`${kind}: ${report.runs} plan pairs in ${report.ms} ms; ${pct}% reached a sink under an untrusted or secret context`);
  return report;
}

describe("noninterference over generated plans", () => {
  it("integrity: untrusted inputs never change the allowed sink calls or where a person is asked", async () => {
    const report = await check("integrity");
    expect(report.counterexample).toBeUndefined();
    // The generator must exercise the guarantee: a good share of plans reach a sink under taint.
    // About 30%; the seed is new each run and one deviation over 400 pairs is ~2.3 points, so the
    // bar sits 4 deviations below (a shrinking generator fails it, an unlucky seed does not).
    expect(report.sinkUnderTaint / report.runs, `plans with a sink under taint (SLUICE_SEED=${report.seed})`).toBeGreaterThan(0.2);
  }, timeout(60_000));

  it("confidentiality: secret inputs never change the allowed calls to public sinks", async () => {
    const report = await check("confidentiality");
    expect(report.counterexample).toBeUndefined();
    expect(report.sinkUnderTaint / report.runs, `plans with a sink under taint (SLUICE_SEED=${report.seed})`).toBeGreaterThan(0.2);
  }, timeout(60_000));
});
