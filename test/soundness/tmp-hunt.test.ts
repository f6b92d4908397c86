import { it } from "vitest";
import { huntMutant } from "../../src/testing/mutants.js";
it("hunt", async () => {
  for (const name of (process.env.MUT ?? "finallyDropsPc").split(",")) for (const seed of [1, 2, 3, 4, 5]) { const r = await huntMutant(name, { seed, maxRuns: 2500 }); console.log(name, seed, r.caught, r.runs, r.ms); }
}, 900000);
