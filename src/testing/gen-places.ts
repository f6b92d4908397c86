/**
 * Statements for the place of an error (attack round 5, r5-interp): a decision on untrusted or
 * secret data whose branches stand on different lines, then a statement head of each kind that
 * throws under trusted control (a loop's test, init or update, a for-of or for-in head, a value
 * that is not iterable, a switch's value or case test, a labelled loop, a catch or loop-head
 * pattern). Where the head runs after the body (a for's update, a while's second test, a
 * loop-head pattern on the next element), the decision is in the body. The run fails in both
 * runs of a pair at the same text; what the planner is told of the failure (failureTurn) must
 * be the same. The place was a global the last statement wrote, so these runs were reported at
 * the branch data chose.
 */
import fc from "fast-check";
import { type Alternative, choose, condLeaf } from "./gen-expressions.js";
import type { StmtScope } from "./gen-statements.js";

const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
const DECISIONS = ["u", "s"].flatMap((x) => [`${x}.c`, `${x}.a > 0`, `${x}.b === "yes"`, `${x}.list.length === 0`]).concat(["m[1].n > 0", "t.c"]);

/** Expressions that throw whatever the data: a member of null or of a missing key, a call of a number, builtins given what they refuse. */
const BAD = ["null.k", "t.n.missing.k", "t.a()", `JSON.parse("{")`, "[].reduce((p0, q0) => p0)"];

/** The decision, its branches on their own lines (each a statement the place could be left at). */
function decided(d: string, a: string, b: string, indent: string): string {
  return `${indent}if (${d}) {\n${indent}  ${a}\n${indent}} else {\n${indent}  ${b}\n${indent}}`;
}

/** Heads run once, before any body: `(bad) => statement`. */
const HEADS_BEFORE: Array<[string, (bad: string) => string]> = [
  ["while-test", (x) => `while (${x}) {}`],
  ["do-while-test", (x) => `do {} while (${x});`],
  ["for-test", (x) => `for (; ${x}; ) {}`],
  ["for-init", (x) => `for (v1 = ${x}; v1 < 0; ) {}`],
  ["for-of-head", (x) => `for (const a0 of ${x}) {}`],
  ["for-of-not-iterable", () => "for (const a0 of t.a) {}"],
  ["for-in-head", (x) => `for (const k0 in ${x}.k) {}`],
  ["switch-value", (x) => `switch (${x}) { default: }`],
  ["case-test", (x) => `switch (1) { case 2: break; case ${x}: }`],
  ["labelled-loop", (x) => `P0: while (${x}) {}`],
  ["catch-pattern", () => "try { throw null; } catch ({ k0 }) {}"],
];

/** Heads that run again after the body, which holds the decision: `(bad, body) => statement`. */
const HEADS_AFTER: Array<[string, (bad: string, body: string) => string]> = [
  ["for-update", (x, b) => `for (let i0 = 0; i0 < 2; i0 = i0 + ${x}) {\n${b}\n}`],
  ["while-second-test", (x, b) => `{\n  let i0 = 0;\n  while (i0++ < 1 || ${x}) {\n${b}\n  }\n}`],
  ["do-while-after-body", (x, b) => `do {\n${b}\n} while (${x});`],
  ["for-of-pattern", (_x, b) => `for (const { k0 } of [{ k0: 1 }, null]) {\n${b}\n}`],
  ["for-of-second", (x, b) => `for (const a0 of [1, 2]) {\n${b}\n  if (a0 > 1) ${x};\n}`],
];

/** What the branches do: writes, a call of a helper, a callback (each moved the old place elsewhere). */
const BRANCHES: Array<[string, string]> = [
  ["v0 = 1;", "v0 = 2;"],
  ["v0 = f(1);", "v0 = h(2);"],
  ["v2 = [1].map((p0) => p0)[0];", "w = String(v1);"],
  ["send({ value: 1 });", "v1 = 3;"],
];

/**
 * A function, builtin, object or regular expression the decision `d` chooses, where one choice
 * stops the run (it changes state, or the object may not be written) and the other goes on
 * (found in CI: a forEach given `u.c ? f0 : g0`). Each in a block of its own.
 */
const CHOSEN_STOPS: Array<(d: string) => string> = [
  (d) => `{\n  const ps0 = () => { v0 = v0 + 1; };\n  const pg0 = () => 0;\n  [0].forEach((${d}) ? ps0 : pg0);\n}`,
  (d) => `{\n  const ps0 = () => { v0 = v0 + 1; };\n  const pg0 = () => 0;\n  ((${d}) ? ps0 : pg0)();\n}`,
  (d) => `{\n  const pk0 = { inc: () => { o.k = o.k + 1; }, get: () => 0 };\n  pk0[(${d}) ? "inc" : "get"]();\n}`,
  (d) => `((${d}) ? arr.push : arr.indexOf)(1);`,
  (d) => `[{}, m[1]][(${d}) ? 0 : 1].k0 = 1;`,
  (d) => `((${d}) ? /e/g : /e/).exec("e");`,
  // Attack r10-stops: a method chosen by a key data chose; a callback data chose against a value
  // the builtin accepts and does not call; a closure that skips a throw on its argument count.
  (d) => `arr[(${d}) ? "push" : "indexOf"](2);`,
  (d) => `{\n  const ps0 = () => { v0 = v0 + 1; return "x"; };\n  "abc".replace(/a/g, (${d}) ? ps0 : "x");\n}`,
  (d) => `[0].forEach(arr[(${d}) ? "push" : "indexOf"]);`,
  // Attack r11: a method data chose on a receiver whose label covers the choice; a builtin that
  // labels its own throws, called back a number of times data decided.
  (d) => `{\n  const p0 = (${d}) ? [] : [];\n  ((${d}) ? p0.push : p0.at)(1);\n}`,
  (d) => `((${d}) ? [] : [1]).reduce(Object.keys, null);`,
  // A logical assignment through a reference data chose, made in one run only.
  (d) => `{\n  const lr0 = (${d}) ? { k: 1 } : { k: 0 };\n  lr0.k &&= 0;\n}`,
  (d) => `{\n  const pa0 = (p0, q0) => { if (q0 !== undefined) { null.k; } return 0; };\n  pa0(...((${d}) ? [1] : [1, 2]));\n}`,
];

/** The tags of {@link placeStatementArb}, one per kind of head. */
export const PLACE_TAGS = [...HEADS_BEFORE.map(([k]) => k), ...HEADS_AFTER.map(([k]) => k)] as const;

/** One decision followed (or enclosed) by a head that throws under trusted control (see the module comment). */
export function placeStatementArb(sc: StmtScope): fc.Arbitrary<string> {
  const d = fc.oneof({ weight: 3, arbitrary: pick(...DECISIONS) }, { weight: 1, arbitrary: condLeaf(sc) });
  const bad = pick(...BAD);
  const branches = fc.constantFrom(...BRANCHES);
  const alternatives: Alternative[] = [
    ...HEADS_BEFORE.map(([tag, head]): Alternative => ({ weight: 1, tag, arbitrary: fc.tuple(d, branches, bad).map(([k, [a, b], x]) => `${decided(k, a, b, "")}\n${head(x)}`) })),
    ...HEADS_AFTER.map(([tag, head]): Alternative => ({ weight: 1, tag, arbitrary: fc.tuple(d, branches, bad).map(([k, [a, b], x]) => head(x, decided(k, a, b, "  "))) })),
    // The decision inside a function the plan calls before the head: its return stood last.
    // (Each helper in a block of its own: a plan may hold the shape twice.)
    { weight: 1, tag: "helper-return", arbitrary: fc.tuple(d, bad).map(([k, x]) => `{\n  const pl0 = () => {\n    if (${k}) {\n      return 1;\n    }\n    return 2;\n  };\n  v0 = pl0();\n  while (${x}) {}\n}`) },
    // A return data chose skips code that throws: the run fails in the callee or at a later line (attack r5b).
    { weight: 4, tag: "early-return", arbitrary: fc.tuple(d, bad, bad).map(([k, x, y]) => `{\n  const pr0 = () => {\n    if (${k}) {\n      return 1;\n    }\n    return ${x};\n  };\n  v0 = pr0();\n  v1 = ${y};\n}`) },
    // A callee that threw at a line data chose, caught, then a throwing head.
    { weight: 1, tag: "caught-callee", arbitrary: fc.tuple(d, bad).map(([k, x]) => `{\n  const pt0 = () => {\n    if (${k}) {\n      throw 1;\n    }\n    throw 2;\n  };\n  try { pt0(); } catch {}\n  for (const a0 of ${x}) {}\n}`) },
    // A stop data's choice could have fired, then a throwing head (whether it fired is data).
    { weight: 4, tag: "chosen-stop", arbitrary: fc.tuple(d, fc.constantFrom(...CHOSEN_STOPS), bad).map(([k, stop, x]) => `${stop(k)}\nwhile (${x}) {}`) },
  ];
  return choose(alternatives, sc.avoid);
}
