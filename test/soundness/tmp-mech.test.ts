import fc from "fast-check";
import { it } from "vitest";
import { compareWithNative, inputPairArb, planArb } from "../../src/testing/index.js";
it("tmp", async () => {
  const progs = fc.sample(fc.tuple(planArb(), inputPairArb("integrity")), { numRuns: 3000, seed: 12 });
  const bad = new Map<string, string>();
  for (const [p, [i]] of progs) {
    const r = await compareWithNative(p, i);
    if (r !== undefined) {
      const body = p.split("\n").filter((l) => !/^(const|let|function|send|publish)/.test(l) && !/^\[v0/.test(l)).join("\n");
      bad.set(body.slice(0, 300), r.slice(0, 300));
    }
  }
  for (const [k, v] of bad) console.log("PROG:", k, "\nDIFF:", v, "\n");
  console.log("bad", bad.size);
}, 600000);
