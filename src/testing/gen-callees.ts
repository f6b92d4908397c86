/**
 * Statements where data chooses what runs: a closure, a builtin, a method by a key or between
 * two methods of one receiver, a callback against a value the builtin does not call, a builtin
 * passed as a callback and called a number of times data decided, a closure called with an
 * argument count data decided (attack rounds r10 and r11). Each choice has one side that writes,
 * throws or stops and one that does not; a write of the plan's state or a sink call follows, so a
 * choice whose label is lost where the quiet side ran shows at the sinks or, when the plan then
 * fails, in what the planner is told. A property of its own (test/soundness/chosen-callees.test.ts),
 * with the planner's feedback compared, so the main plan stream the planted-leak hunts are
 * measured on stays as it is.
 */
import fc from "fast-check";
import { condLeaf, numLeaf } from "./gen-expressions.js";
import type { StmtScope } from "./gen-statements.js";

const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
const DECISIONS = ["u", "s"].flatMap((x) => [`${x}.c`, `${x}.a > 0`, `${x}.b === "yes"`, `${x}.list.length > 1`]).concat(["m[1].n > 0", "t.c"]);
/** Receivers whose label is the data's: a choice of their methods passes the call gate. */
const RECEIVERS = ["u.list", "s.list", "((u.c) ? [] : [])", "((s.c) ? [] : [])", "arr"];

/** `(decision, receiver, value) => statement`: one side writes, throws or stops, the other does not. */
const CHOICES: Array<(d: string, r: string, x: string) => string> = [
  (d, r) => `{ const p0 = ${r}; ((${d}) ? p0.push : p0.at)(1); }`,
  (d, r) => `${r}[(${d}) ? "push" : "at"](1);`,
  (d, r) => `{ const p0 = ${r}; const m0 = p0[(${d}) ? "sort" : "slice"]; m0(); }`,
  (d, r) => `{ const p0 = ${r}; ((${d}) ? p0.push : (q0) => 0)(1); }`,
  (d) => `{ const ps0 = () => { v0 = v0 + 1; }; const pg0 = () => 0; [0].forEach((${d}) ? ps0 : pg0); }`,
  (d) => `{ const ps0 = () => { v0 = v0 + 1; return "x"; }; "abc".replace(/a/g, (${d}) ? ps0 : "x"); }`,
  (d, _r, x) => `{ const xs0 = []; if (${d}) xs0.push(1); try { xs0.reduce(Object.keys, null); v1 = ${x}; } catch { v2 = 1; } }`,
  (d) => `((${d}) ? [] : [1]).reduce(Object.keys, null);`,
  (d, _r, x) => `{ const pa0 = (p0, q0) => { if (q0 !== undefined) { null.k; } return 0; }; try { pa0(...((${d}) ? [1] : [1, 2])); v1 = ${x}; } catch {} }`,
  (d) => `{ const f0 = (q0) => q0 + 1; const g0 = (q0) => q0 - 1; try { v2 = ((${d}) ? f0 : g0)(1); } catch {} }`,
];

/** One choice of what runs (see the module comment), then, sometimes, a head that throws. */
export function calleeStatementArb(sc: StmtScope): fc.Arbitrary<string> {
  const d = fc.oneof({ weight: 3, arbitrary: pick(...DECISIONS) }, { weight: 1, arbitrary: condLeaf(sc) });
  const choice = fc.tuple(fc.integer({ min: 0, max: CHOICES.length - 1 }), d, pick(...RECEIVERS), numLeaf(sc)).map(([i, k, r, x]) => CHOICES[i](k, r, x));
  return fc.oneof({ weight: 3, arbitrary: choice }, { weight: 1, arbitrary: choice.map((c) => `${c}\nwhile (null.k) {}`) });
}
