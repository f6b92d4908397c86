import { describe, expect, test } from "vitest";
import { createRuntime, defineTool } from "../../src/index.js";
import { EXTENDED_LANGUAGE, languageSection, plannerSystemPrompt } from "../../src/models/index.js";

const a = defineTool({ name: "get_inbox", description: "Lists emails.", run: () => [] });
const b = defineTool({ name: "send_email", description: "Sends.", sideEffect: true, run: () => ({}) });

async function runs(source: string): Promise<boolean> {
  const r = await createRuntime().run(source);
  return r.status === "completed";
}

// What each section says works, and what it says to write instead: checked against the interpreter.
const BOTH_WORK = [
  "Array.from({ length: 3 }, (_, i) => i)",
  "Array.of(1, 2)",
  "[1, 2].findLast((x) => x > 0)",
  'new Date("2025-12-20").toISOString()',
  'new Date("2025-12-20").toLocaleDateString("en-US")',
  "Number.isInteger(2) && Number.EPSILON > 0",
  "let x = null; x ??= 2 ** 3; x",
  "const counts = {}; for (const k of ['a', 'a']) counts[k] = (counts[k] ?? 0) + 1; Object.entries(counts)",
  "[...[3, 1]].sort((p, q) => p - q)",
  "JSON.parse(JSON.stringify({ a: 1 }))",
  '"2025-12-20".match(/(\\d{4})-/)[1]',
];
const EXTENDED_ONLY = [
  "new Date().getTime() === Date.now()",
  "const m = new Map([['a', 1]]); m.set('b', 2); [...m.keys()].length + new Set([1, 1]).size",
  "Array(3).length + new Array(2).fill(0).length",
  "Object.groupBy([1, 2, 3], (x) => (x % 2 ? 'odd' : 'even'))",
  "[3, 1].toSorted().concat([1, 2].toReversed(), [1, 2].toSpliced(0, 1), [1, 2].with(0, 5))",
  "structuredClone({ a: [1] })",
  "String.raw`a\\b`",
  '/(?<year>\\d{4})/.exec("in 2025").groups.year',
  'new Intl.NumberFormat("en-US").format(1234.5)',
];

describe("the planner's language section", () => {
  test("the system prompt is byte-identical for the same tools, in either version", () => {
    for (const language of ["current", "extended"] as const) {
      expect(plannerSystemPrompt([a, b], { language })).toBe(plannerSystemPrompt([b, a], { language }));
    }
    expect(plannerSystemPrompt([a, b], { language: "current" })).not.toBe(plannerSystemPrompt([a, b], { language: "extended" }));
    expect(plannerSystemPrompt([a, b])).toBe(plannerSystemPrompt([a, b], { language: EXTENDED_LANGUAGE ? "extended" : "current" }));
    expect(plannerSystemPrompt([a, b])).toContain(languageSection());
  });

  test("the current version says there is no clock and what to write instead of what models reach for", () => {
    const text = languageSection("current");
    expect(text).toContain("There is no clock");
    expect(text).toContain("Today's date comes with the user's request");
    for (const name of ["`Map`", "`Set`", "`Array(n)`", "`structuredClone`", "`Object.groupBy`", "`toSorted`", "`Intl`", "`String.raw`"]) expect(text).toContain(name);
  });

  test("what both versions say works runs in the interpreter", async () => {
    for (const source of BOTH_WORK) expect(await runs(source), source).toBe(true);
  });

  test("the version in use matches the interpreter: what only the extended version promises runs exactly when it is switched on", async () => {
    for (const source of EXTENDED_ONLY) expect(await runs(source), source).toBe(EXTENDED_LANGUAGE);
  });
});
