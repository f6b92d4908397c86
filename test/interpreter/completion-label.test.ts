/**
 * The run's value (the completion value of its last statement, which an embedding application
 * reads as `result.value`) carries what decided which statement completed last: a region data
 * decided that could have completed with a value of its own labels it whether it ran or not.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { untrustedSource } from "../support/tools.js";

async function run(c: boolean, program = "1;\nif (u.c) { 2; }") {
  const rt = createRuntime({ tools: [untrustedSource({ a: 1, b: "x", c, list: c ? [1] : [], nested: { deep: "x" } })] });
  return rt.run(`const u = read_untrusted();\n${program}`);
}

describe("the run's value after a region data decided", () => {
  it("is untrusted whether the region completed with its own value or not", async () => {
    const [taken, untaken] = [await run(true), await run(false)];
    expect([taken.value, untaken.value]).toEqual([2, undefined]); // as in JavaScript: an if not taken completes with undefined
    expect(taken.label?.trusted).toBe(false);
    expect(untaken.label?.trusted).toBe(false);
  });

  // A loop's head does not set the completion value as an if's test does: the loop's exit (the
  // region's upgrade) labels it, also when the body never ran.
  it.each([
    ["a loop over untrusted data", "1;\nfor (const x of u.list) { 2; }"],
    ["a while loop on untrusted data", "1;\nwhile (u.c) { 2; break; }"],
    ["a loop whose body only assigns", "let k = 0;\nfor (const x of u.list) { k = 2; }"],
  ])("after %s, whether its body ran or not", async (_what, program) => {
    const [taken, untaken] = [await run(true, program), await run(false, program)];
    expect([taken.value, untaken.value]).toEqual([2, undefined]);
    expect(taken.label?.trusted).toBe(false);
    expect(untaken.label?.trusted).toBe(false);
  });
});
