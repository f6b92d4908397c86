/**
 * The run's value (the completion value of its last statement, which an embedding application
 * reads as `result.value`) carries what decided which statement completed last: a region data
 * decided that could have completed with a value of its own labels it whether it ran or not.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { untrustedSource } from "../support/tools.js";

async function run(c: boolean) {
  const rt = createRuntime({ tools: [untrustedSource({ a: 1, b: "x", c, list: [], nested: { deep: "x" } })] });
  return rt.run(`const u = read_untrusted();\n1;\nif (u.c) { 2; }`);
}

describe("the run's value after a region data decided", () => {
  it("is untrusted whether the region completed with its own value or not", async () => {
    const [taken, untaken] = [await run(true), await run(false)];
    expect([taken.value, untaken.value]).toEqual([2, undefined]); // as in JavaScript: an if not taken completes with undefined
    expect(taken.label?.trusted).toBe(false);
    expect(untaken.label?.trusted).toBe(false);
  });
});
