/** Shared settings of the soundness suite: limits, runtime options, run counts and hand-written inputs. */
import type fc from "fast-check";
import { expect } from "vitest";
import type { RunResult } from "../../src/index.js";
import { checkNoninterference, cleanFor, inputPairArb, obedientReader, runPair, soundnessTools, type InputRecord, type NoninterferenceReport, type PairKind, type SoundnessInput } from "../../src/testing/index.js";

/** Generated plans can loop over arrays they grow; small limits end those quickly. */
export const LIMITS = { steps: 50_000, timeMs: 2_000, arrayLength: 10_000 };

/** Every ask approved, so runs go to the end and every sink is observed. */
export const RUNTIME = { approve: () => true, quarantined: obedientReader(), limits: LIMITS };

/**
 * Constructs whose known, not yet fixed leaks (see known-leaks.test.ts) would fail the generic
 * properties; left out of them until fixed, so the properties keep looking for new ones.
 * Empty: every leak found so far is fixed.
 */
export const KNOWN_LEAK_FEATURES: string[] = [];

/** Number of generated cases: `fallback` in CI, scaled by SLUICE_SOUNDNESS_SCALE for longer hunts. */
export function runs(fallback: number): number {
  return Math.max(1, Math.round(fallback * Number(process.env.SLUICE_SOUNDNESS_SCALE ?? 1)));
}

/** A test's timeout: `base` ms in CI, scaled with the number of runs under SLUICE_SOUNDNESS_SCALE. */
export function timeout(base: number): number {
  return Math.round(base * Math.max(1, Number(process.env.SLUICE_SOUNDNESS_SCALE ?? 1)));
}

/** The fast-check seed: SLUICE_SEED to reproduce a run, else a new one each time (printed on failure). */
export function seed(): number {
  return process.env.SLUICE_SEED !== undefined ? Number(process.env.SLUICE_SEED) : (Date.now() ^ 0x5eed) >>> 0;
}

const RECORD: InputRecord = { a: 0, b: "", c: false, list: [], n: { x: 0, tag: "" } };

/** A soundness input with the given parts changed. */
export function input(parts: { u?: Partial<InputRecord>; s?: Partial<InputRecord>; t?: Partial<InputRecord> } = {}): SoundnessInput {
  return {
    u: { ...RECORD, ...parts.u },
    s: { ...RECORD, ...parts.s },
    t: { ...RECORD, ...parts.t },
    list: [{ n: 0, tag: "" }, { n: 0, tag: "" }, { n: 0, tag: "" }],
  };
}

/**
 * A run may stop (a limit, a policy, an unsupported construct) but never crash: two runs that
 * crash alike would agree at the sinks and hide the bug from a noninterference check.
 */
export function expectNoCrash(results: readonly RunResult[], program: string): void {
  for (const r of results) expect(r.error?.message ?? "", program).not.toMatch(/^internal error/);
}

/**
 * Runs `program` on two inputs that differ in the untrusted record and checks that the `send`
 * sink saw the same in both (the integrity property on one hand-written plan). The runs may stop
 * but neither may reject the plan as unsupported or crash.
 */
export async function expectIntegrity(program: string, inputs: [SoundnessInput, SoundnessInput]): Promise<void> {
  const pair = await runPair(program, inputs, {
    tools: (i) => soundnessTools(i, { guard: "integrity" }),
    observe: ["send"],
    clean: cleanFor("untrusted"),
    runtime: RUNTIME,
  });
  expect(pair.results.map((r) => r.error?.kind ?? r.status), program).not.toContain("unsupported");
  expectNoCrash(pair.results, program);
  expect(pair.traces[0], program).toEqual(pair.traces[1]);
}

/**
 * The integrity or confidentiality property over generated `programs`: pairs of inputs that
 * differ in the untrusted (or the secret) record, the soundness tools guarding that kind, both
 * sinks observed; with `feedback`, the planner is a sink too. A counterexample is printed with
 * its seed, so `SLUICE_SEED` reproduces it.
 */
export async function checkPlans(kind: PairKind, programs: fc.Arbitrary<string>, options: { numRuns: number; feedback?: boolean }): Promise<NoninterferenceReport<SoundnessInput>> {
  const report = await checkNoninterference({
    programs,
    inputs: inputPairArb(kind),
    tools: (i) => soundnessTools(i, { guard: kind }),
    observe: ["send", "publish"],
    varying: kind === "integrity" ? "untrusted" : "secret",
    feedback: options.feedback === true,
    numRuns: options.numRuns,
    seed: seed(),
    runtime: RUNTIME,
  });
  const c = report.counterexample;
  if (report.failed) console.error(`${kind} counterexample (seed ${report.seed}):\n${c?.program}\n`, JSON.stringify(c?.inputs), ...(c?.feedback !== undefined ? [c.feedback] : []), c?.traces);
  return report;
}
