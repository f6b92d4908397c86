/**
 * Semantics: a generated plan computes under sluice what it computes under V8 (node:vm, with the
 * same tool data), and labels never change a value: with real labels (every ask approved) a
 * plan makes the same calls and ends with the same value as with every source trusted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareLabelsInert, compareWithNative, inputPairArb, runNative, soundnessProgramArb } from "../../src/testing/index.js";
import { input, runs, seed } from "./support.js";

describe("differential semantics over generated plans", () => {
  it("a plan's calls, queries and value under sluice equal V8's", async () => {
    await fc.assert(
      fc.asyncProperty(soundnessProgramArb, inputPairArb("integrity"), async (program, [input]) => {
        expect(await compareWithNative(program, input)).toBeUndefined();
      }),
      { numRuns: runs(200), seed: seed() },
    );
  });

  it("labels never change a value: real labels and all-trusted sources compute the same", async () => {
    await fc.assert(
      fc.asyncProperty(soundnessProgramArb, inputPairArb("confidentiality"), async (program, [input]) => {
        expect(await compareLabelsInert(program, input)).toBeUndefined();
      }),
      { numRuns: runs(200), seed: seed() },
    );
  });

  it("notices a difference (arrays have no holes in sluice)", async () => {
    expect(await compareWithNative("const a = [];\na[2] = 1;\n[1 in a];", input())).toMatch(/values differ/);
  });

  it("Math.random gives V8 the same numbers as sluice (the harness seeds it alike)", async () => {
    expect(await compareWithNative("[Math.random(), Math.random()];", input())).toBeUndefined();
  });

  it("the V8 harness itself sees the tool data, the calls and the completion value", () => {
    const out = runNative(`const u = await read_untrusted(); send({ value: u.a + 1 }); [u.a, typeof Promise.all([1])];`, { read_untrusted: () => ({ a: 41 }), send: () => ({ ok: true }) });
    expect(out).toEqual({ status: "completed", value: [41, "object"], calls: [{ tool: "read_untrusted", args: {} }, { tool: "send", args: { value: 42 } }], prompts: [] });
  });
});
