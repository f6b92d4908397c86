/**
 * Planted leaks, found from scratch: with each mutant switch on, the integrity and
 * confidentiality properties over generated plans must find a counterexample within a budget
 * (so the properties are strong enough to trust). `npm run mutants` measures how fast, over
 * several seeds; mutant-witnesses.test.ts shows what each switch breaks.
 */
import { describe, expect, it } from "vitest";
import { MUTANTS, huntMutant } from "../../src/testing/mutants.js";
import { runs } from "./support.js";

/** Mutants a sink can tell apart from the correct rule (see MutantInfo.equivalent for the others). */
const LIVE = MUTANTS.filter((m) => m.equivalent === undefined);

describe("planted leaks: the generated-plan properties find each one", () => {
  it.each(LIVE.map((m) => [m.name]))("the generated-plan properties catch %s", async (name) => {
    const result = await huntMutant(name, { seed: 1, maxRuns: runs(2500) });
    if (!result.caught) console.error(`${name}: not caught in ${result.runs} plans (${result.ms} ms)`);
    expect(result.caught).toBe(true);
  }, 120_000);
});
