/**
 * Statements for the rule of the positions a builtin may call (issue 15, precision): a helper
 * with an early return, or a branch, decided by untrusted or secret data, calls a builtin that
 * takes a callback. The callback is a function made before the decision (so the upgrade of the
 * part not run must reach it through its position), and the other positions hold the helper's
 * parameter (opaque to the upgrade) or another such function at a position never called (which
 * the upgrade may leave alone). A spread argument moves positions: every one may be called.
 */
import fc from "fast-check";
import { condLeaf, numLeaf } from "./gen-expressions.js";
import type { StmtScope } from "./gen-statements.js";

const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
const DECISIONS = ["u", "s"].flatMap((x) => [`${x}.c`, `${x}.a > 0`, `typeof ${x}.b === "string"`, `${x}.list.length > 1`]).concat(["m[1].n > 0", "t.c"]);

/**
 * Calls of a builtin that calls `f` (a callback taking (a, b) and answering b), with `p` the
 * helper's parameter and `g` a function at a position never called. `xs0` is an array, `ms0` a Map, `st0` a string.
 */
const CALLS: Array<(f: string, p: string, g: string) => string> = [
  (f) => `JSON.parse("[1, 2]", ${f})`,
  (f, p) => `JSON.parse(JSON.stringify([${p}]), ${f})`,
  (f, p) => `JSON.stringify(${p}, ${f})`,
  (f, p) => `JSON.stringify([${p}], ${f}, 2)`,
  (f, p) => `xs0.map(${f}, ${p})`,
  (f, _p, g) => `xs0.map(${f}, ${g})`,
  (f, p) => `xs0.filter(${f}, ${p})`,
  (f) => `xs0.forEach(${f})`,
  (f, p) => `xs0.reduce(${f}, ${p})`,
  (f, _p, g) => `xs0.reduce(${f}, ${g})`,
  (f, p) => `xs0.some(${f}, ${p})`,
  (f, p) => `xs0.findLast(${f}, ${p})`,
  (f) => `xs0.toSorted(${f})`,
  (f) => `xs0.sort(${f})`,
  (f) => `Array.from(xs0, ${f})`,
  (f, _p, g) => `Array.from(xs0, ${f}, ${g})`,
  (f) => `Object.groupBy(xs0, ${f})`,
  (f, _p, g) => `ms0.forEach(${f}, ${g})`,
  (f, p) => `st0.replace("1", ${f}, ${p})`,
  (f, p) => `st0.replaceAll("a", ${f}, ${p})`,
  // Spread arguments: the callback's position is not the argument's index.
  (f, p) => `JSON.parse(...[JSON.stringify([${p}]), ${f}])`,
  (f) => `xs0.map(...[${f}])`,
  (f, p) => `Array.from(...[xs0, ${f}], ${p})`,
];

/** One statement: a callback made first, then called or not by a builtin in a part data decided. */
export function calledPositionArb(sc: StmtScope): fc.Arbitrary<string> {
  const d = fc.oneof(pick(...DECISIONS), condLeaf(sc));
  const n = numLeaf(sc);
  const arg = pick("u.a", "s.a", "t.a", "u.b", "s.b", "m[1].n", "u", "s.list");
  const target = pick("v0", "v1", "v2", "o.k", "o2.k");
  const call = fc.tuple(fc.integer({ min: 0, max: CALLS.length - 1 }), pick("p0", "v1", "o")).map(([i, p]) => (f: string) => CALLS[i](f, p, "g0"));
  const prelude = fc.tuple(target, n, target, n).map(([x, a, y, b]) =>
    `const xs0 = [1, 2]; const ms0 = new Map([[1, 2]]); const st0 = "a1"; const cb0 = (a0, b0) => { ${x} = ${a}; return b0; }; const g0 = (a0, b0) => { ${y} = ${b}; return b0; };`);
  return fc.oneof(
    // The model's habit: a helper whose early return is decided by its argument or by data.
    fc.tuple(prelude, d, call, arg).map(([pre, k, c, a]) => `{ ${pre} const h0 = (p0) => { if (${k}) { return ${c("cb0")}; } return p0; }; v2 = typeof h0(${a}) === "number" ? 1 : 2; }`),
    fc.tuple(prelude, call, arg).map(([pre, c, a]) => `{ ${pre} const h0 = (p0) => { if (typeof p0 !== "number") { return ${c("cb0")}; } return p0; }; v2 = typeof h0(${a}) === "number" ? 1 : 2; }`),
    // A branch not taken, and a loop over data.
    fc.tuple(prelude, d, call).map(([pre, k, c]) => `{ ${pre} const p0 = u.b; if (${k}) { ${c("cb0")}; } }`),
    fc.tuple(prelude, call, pick("u.list", "s.list")).map(([pre, c, l]) => `{ ${pre} for (const p0 of ${l}) { ${c("cb0")}; } }`),
    // The callback chosen before the call (a variable the branch does not write).
    fc.tuple(prelude, d, call).map(([pre, k, c]) => `{ ${pre} const f0 = cb0; const p0 = s.a; if (${k}) { ${c("f0")}; } }`),
  );
}
