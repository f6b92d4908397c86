/**
 * The planner as a sink: what it is told of a failed run (failureTurn: kind, line, column, the
 * failing line, a message that passed its checks) must not depend on untrusted or secret data.
 * Attack round 5 (r5-interp) found the place of an error was a global the last statement that
 * ran had written: a loop's test, init or update, a for-of/for-in head, a non-iterable, a switch
 * value or case test, a labelled loop failed "at" the branch data chose, under a trusted label.
 * Each position, with untrusted and with secret data, stays fixed here; the generated property
 * then tries every head kind after decisions of every shape (src/testing/gen-places.ts).
 */
import { describe, expect, it } from "vitest";
import { errorPlace } from "../../src/models/planner-feedback.js";
import { PLACE_POSITIONS, missingPositions, placeCoverage } from "../../src/testing/coverage.js";
import { cleanFor, planArb, placeStatementArb, runPair, soundnessTools, type PairKind } from "../../src/testing/index.js";
import { RUNTIME, checkPlans, input, runs, timeout } from "./support.js";

const decision = (v: "u" | "s") => `const ${v} = read_${v === "u" ? "untrusted" : "secret"}();\nlet x = 0;\nif (${v}.c) {\n  x = 1;\n} else {\n  x = 2;\n}\n`;

/** A head after the decision (line 8), or one that runs again after a body holding it: [name, program of v, line, column]. */
const POSITIONS: Array<[string, (v: "u" | "s") => string, number, number]> = [
  ["a while test", (v) => `${decision(v)}while (null.k) {}`, 8, 8],
  ["a do…while test", (v) => `${decision(v)}do { } while (null.k);`, 8, 15],
  ["a for test", (v) => `${decision(v)}for (; null.k; ) {}`, 8, 8],
  ["a for init expression", (v) => `${decision(v)}for (x = null.k; ; ) {}`, 8, 6],
  ["a for update", (v) => `${decision(v)}for (let i = 0; i < 1; null.k) {}`, 8, 24],
  ["a for…of head", (v) => `${decision(v)}for (const a of null.k) {}`, 8, 17],
  ["a value that is not iterable", (v) => `${decision(v)}for (const a of 5) {}`, 8, 1],
  ["a for…in head", (v) => `${decision(v)}for (const k in null.k) {}`, 8, 17],
  ["a switch value", (v) => `${decision(v)}switch (null.k) { default: }`, 8, 9],
  ["a case test", (v) => `${decision(v)}switch (1) { case null.k: }`, 8, 19],
  ["a labelled loop", (v) => `${decision(v)}outer: while (null.k) {}`, 8, 15],
  ["a catch pattern", (v) => `${decision(v)}try { throw null; } catch ({ k }) {}`, 8, 28],
  ["a for update after the body", (v) => `const ${v} = read_${v === "u" ? "untrusted" : "secret"}();\nlet x = 0;\nfor (let i = 0; i < 2; i = i + null.k) {\n  if (${v}.c) {\n    x = 1;\n  } else {\n    x = 2;\n  }\n}`, 3, 24],
  ["a while test after the body", (v) => `const ${v} = read_${v === "u" ? "untrusted" : "secret"}();\nlet x = 0;\nlet i = 0;\nwhile (i++ < 1 || null.k) {\n  if (${v}.c) {\n    x = 1;\n  } else {\n    x = 2;\n  }\n}`, 4, 8],
  ["a loop-head pattern on the next element", (v) => `const ${v} = read_${v === "u" ? "untrusted" : "secret"}();\nlet x = 0;\nfor (const { k } of [{ k: 1 }, null]) {\n  if (${v}.c) {\n    x = 1;\n  } else {\n    x = 2;\n  }\n}`, 3, 6],
  ["a head after a callee that threw at a line data chose", (v) => `const ${v} = read_${v === "u" ? "untrusted" : "secret"}();\nfunction g() {\n  if (${v}.c) {\n    throw 1;\n  }\n  throw 2;\n}\ntry { g(); } catch {}\nwhile (null.k) {}`, 0, 0],
];

const KINDS: Array<[PairKind, "u" | "s"]> = [
  ["integrity", "u"],
  ["confidentiality", "s"],
];

describe("the place of an error is the text that raised it, whatever data decided before it", () => {
  const cases = POSITIONS.flatMap(([name, program, line, column]) => KINDS.map(([kind, v]) => [`${name} (${kind})`, program(v), kind, v, line, column] as const));
  it.each(cases)("%s: the planner is told the same in both runs", async (_name, program, kind, v, line, column) => {
    const inputs = [input({ [v]: { c: true } }), input({ [v]: { c: false } })] as const;
    const pair = await runPair(program, [inputs[0], inputs[1]], { tools: (i) => soundnessTools(i, { guard: kind }), observe: ["send", "publish"], clean: cleanFor(kind === "integrity" ? "untrusted" : "secret"), runtime: RUNTIME, feedback: true });
    expect(pair.results.map((r) => r.status)).toEqual(["failed", "failed"]);
    expect(pair.feedback?.[0]).toBe(pair.feedback?.[1]);
    // Where the program alone decided the place, it is shown: the head's own line and column.
    // (After a caught throw whose line data chose, the place is withheld: the catch ran under it.)
    const shown = errorPlace(pair.results[0].error);
    expect(shown.line === undefined ? [0, 0] : [shown.line, shown.column]).toEqual([line, column]);
  });
});

const check = (kind: PairKind) => checkPlans(kind, planArb({ focus: placeStatementArb }), { numRuns: runs(150), feedback: true });

describe("the planner's feedback over generated plans that fail in a head after a decision", () => {
  it("the plans build every head an error's place hid behind", () => {
    expect(missingPositions(placeCoverage(300), PLACE_POSITIONS)).toEqual([]);
  });
  it.each<PairKind>(["integrity", "confidentiality"])("%s: two runs that fail alike are told the same", async (kind) => {
    const report = await check(kind);
    expect(report.counterexample).toBeUndefined();
  }, timeout(120_000));
});

describe("a message says where the run ended as its place does", () => {
  it("a trusted message after a stop data could have made is withheld with the place", async () => {
    // Found by the property above: one run stopped at Math.random (chosen by data, it changes
    // state), the other went on and failed at null.k with a trusted message, which named the
    // place the place label withheld.
    const program = "const u = read_untrusted();\n[1].map(u.list.length > 1 ? Math.random : Math.abs);\nwhile (null.k) {}";
    const inputs = [input({ u: { list: [] } }), input({ u: { list: [0, 1] } })] as const;
    const pair = await runPair(program, [inputs[0], inputs[1]], { tools: (i) => soundnessTools(i, { guard: "integrity" }), observe: ["send"], clean: cleanFor("untrusted"), runtime: RUNTIME, feedback: true });
    expect(pair.results.map((r) => r.status)).toEqual(["failed", "failed"]);
    expect(pair.feedback?.[0]).toBe(pair.feedback?.[1]);
    expect(pair.feedback?.[0]).toContain("withheld");
  });
});
