/**
 * Statements over the builtins of issue 15 phase 2 (what models reach for): Array(n), the copying
 * array methods, Object.groupBy, structuredClone, String.raw, named groups and matchAll, Intl and
 * the locale methods, the clock, Map and Set. Each reads untrusted, secret or trusted data through one of
 * them, often under a decision on such data or inside a try (where whether it throws decides
 * what runs), and writes the program's state, which the plan's sends then observe.
 */
import fc from "fast-check";
import { type Alternative, choose, numLeaf, strLeaf } from "./gen-expressions.js";
import { guardStatementArb } from "./gen-guards.js";
import { calledPositionArb } from "./gen-positions.js";
import type { StmtScope } from "./gen-statements.js";

const w = (weight: number, arbitrary: fc.Arbitrary<string>, tag?: string): Alternative => ({ weight, arbitrary, tag });
const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
const DECISIONS = ["u.c", "s.c", "u.a > 0", "s.a > 0", 'u.b === "yes"', 's.b === "yes"', "m[1].n > 0", "m[2].n > 0", "t.c"];
const memo = new Map<string, fc.Arbitrary<string>>();

/** One statement over a library builtin. */
export function libraryStatementArb(sc: StmtScope): fc.Arbitrary<string> {
  const key = `${sc.avoid.join(",")}|${sc.reader}`;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const n = numLeaf(sc);
  const s = strLeaf(sc);
  const d = pick(...DECISIONS);
  const v = pick("v0", "v1", "v2");
  const list = pick("u.list", "s.list", "t.list", "m.map((p0) => p0.n)");
  const index = pick("0", "1", "-1", "u.c ? 0 : 1", "s.c ? 1 : 0", "u.a", "s.a");
  const read = fc.oneof(
    fc.tuple(v, n, n, n).map(([x, a, b, c]) => `${x} = [${a}, ${b}, ${c}].toSorted((p, q) => p - q)[0];`),
    fc.tuple(v, n, n).map(([x, a, b]) => `${x} = [${a}, ${b}].toReversed()[0];`),
    fc.tuple(v, n, n, index).map(([x, a, b, i]) => `${x} = [${a}, ${b}, 7].toSpliced(${i}, 1)[0];`),
    fc.tuple(v, n, index, n).map(([x, a, i, c]) => `${x} = [${a}, 5].with(${i} > 1 ? 1 : 0, ${c})[0];`),
    fc.tuple(v, n).map(([x, a]) => `${x} = Array(Math.abs(Math.trunc(${a})) % 4).length;`),
    fc.tuple(v, n, n).map(([x, a, b]) => `${x} = new Array(2).fill(${a}).concat(Array.of(${b}))[2];`),
    fc.tuple(v, list, d).map(([x, l, k]) => `${x} = (Object.groupBy(${l}, (p0) => (${k} || p0 > 0 ? "y" : "n")).y ?? []).length;`),
    fc.tuple(v, list).map(([x, l]) => `${x} = Object.keys(Object.groupBy(${l}, (p0) => p0 % 2)).length;`),
    fc.tuple(v, n, n).map(([x, a, b]) => `${x} = structuredClone({ a: ${a}, b: [${b}] }).a;`),
    fc.tuple(v, pick("u", "s", "t", "m[1]", "m[0]")).map(([x, o]) => `${x} = structuredClone(${o}).n?.x ?? 0;`),
    fc.tuple(n, s).map(([a, b]) => `w = String.raw\`${"${"}${a}${"}"}\\\\${"${"}${b}${"}"}\`.slice(0, 16);`),
    fc.tuple(v, n).map(([x, a]) => `{ const r0 = /(?<d>\\d)/.exec(String(${a})); ${x} = r0 ? Number(r0.groups.d) + r0.index : -1; }`),
    fc.tuple(n, s).map(([a, b]) => `w = [...(String(${a}) + ${b}).matchAll(/(?<c>[0-9e])/g)].map((r0) => r0.groups.c).join("").slice(0, 16);`),
    fc.tuple(n, pick("en-US", "de-DE", "fr-FR", "en-GB")).map(([a, l]) => `w = new Intl.NumberFormat("${l}", { maximumFractionDigits: 1 }).format(${a});`),
    fc.tuple(n, pick("en-US", "de-DE", "fr-FR", "en-GB")).map(([a, l]) => `w = new Date(Date.UTC(2025, 0, 1 + Math.abs(${a} % 28))).toLocaleDateString("${l}", { timeZone: "UTC" });`),
    fc.tuple(v, n).map(([x, a]) => `${x} = (new Date().getTime() > ${a} ? 1 : 0) + Date.now() % 3;`),
  );
  // Map and Set: entries set, deleted or cleared under decisions, keys and sizes read after.
  const coll = fc.oneof(
    fc.tuple(v, n, n, d, n).map(([x, a, b, k, c]) => `{ const c0 = new Map([["a", ${a}], ["b", ${b}]]); if (${k}) c0.set("a", ${c}); ${x} = c0.get("a") + c0.size; }`),
    fc.tuple(v, n, n, d).map(([x, a, b, k]) => `{ const c0 = new Set([${a}, ${b}]); if (${k}) c0.delete(${a}); ${x} = c0.size + (c0.has(${b}) ? 1 : 0); }`),
    fc.tuple(v, s).map(([x, b]) => `{ const c0 = new Map(); c0.set(${b}, 1); ${x} = c0.has("yes") ? 1 : c0.size; }`),
    fc.tuple(v, list).map(([x, l]) => `{ const c0 = new Set(${l}); ${x} = [...c0][0] ?? -1; }`),
    fc.tuple(v, n, d).map(([x, a, k]) => `{ const c0 = new Map([[1, ${a}]]); if (${k}) c0.clear(); for (const [, c1] of c0) ${x} = c1; }`),
    fc.tuple(v, list).map(([x, l]) => `{ const c0 = new Map(); for (const x1 of ${l}) c0.set(x1 % 2, (c0.get(x1 % 2) ?? 0) + 1); ${x} = c0.get(1) ?? 0; }`),
    fc.tuple(v, n, d).map(([x, a, k]) => `{ const c0 = new Set([${a}, 2]); c0.forEach((p0) => { if (${k}) ${x} = p0; }); }`),
    fc.tuple(d, n, s).map(([k, a, b]) => `{ const c0 = new Map([["k", ${a}]]); if (${k}) c0.set(${b}, 2); w = Object.keys(Object.fromEntries(c0)).join("").slice(0, 16); }`),
    fc.tuple(v, d, n).map(([x, k, a]) => `{ const c0 = new Set(); if (${k}) c0.add(${a}); c0.add(1); ${x} = Array.from(c0)[0]; }`),
  );
  // Round 4's shapes: a collection built from a source data made empty, nullish or a string; a
  // method read where data decided which entries exist; forEach given a callback data chose, or
  // none; an optional callback data made undefined or a string (the builtin's default path).
  const round4 = fc.oneof(
    fc.tuple(v, d, s).map(([x, k, b]) => `${x} = new Set(${k} ? "" : ${b}).size;`),
    fc.tuple(v, d, n).map(([x, k, a]) => `{ const c0 = new Map(${k} ? [[1, ${a}]] : undefined); ${x} = c0.size + (c0.has(1) ? 1 : 0); }`),
    fc.tuple(v, d).map(([x, k]) => `{ let n0 = 0; for (const c1 of new Set(${k} ? null : "ab")) n0 = n0 + 1; ${x} = n0; }`),
    fc.tuple(v, d, s).map(([x, k, b]) => `{ const c0 = new Map(); if (${k}) c0.set("get", ${b}); ${x} = (typeof c0.get === "function" ? 1 : 0) + ("set" in c0 ? 2 : 0); }`),
    fc.tuple(v, d).map(([x, k]) => `{ const c0 = new Set(); c0.forEach(${k} ? Math.random : Math.abs); ${x} = Math.floor(Math.random() * 3); }`),
    fc.tuple(v, d, n).map(([x, k, a]) => `{ let n0 = 0; const c0 = new Map(); const f0 = () => { n0 = ${a}; }; c0.forEach(${k} ? f0 : Math.abs); ${x} = n0; }`),
    fc.tuple(v, d).map(([x, k]) => `{ const c0 = new Map(); if (${k}) c0.set(1, 1); try { c0.forEach(undefined); ${x} = 1; } catch { ${x} = 2; } }`),
    fc.tuple(v, d, n).map(([x, k, a]) => `${x} = Array.from([${a}, 2], ${k} ? (p0) => p0 * 2 : undefined)[0];`),
    fc.tuple(v, d, n).map(([x, k, a]) => `${x} = [10, ${a}, 1].toSorted(${k} ? (p, q) => p - q : undefined)[1];`),
    fc.tuple(v, d, n).map(([x, k, a]) => `{ const xs0 = [10, ${a}, 1]; xs0.sort(${k} ? (p, q) => p - q : undefined); ${x} = xs0[1]; }`),
    fc.tuple(v, d).map(([x, k]) => `${x} = JSON.parse("[1]", ${k} ? (key, val) => (typeof val === "number" ? val * 2 : val) : "none")[0];`),
  );
  // Whether it throws is decided by the data (a bad length, an index out of range, a function).
  const throwing = fc.oneof(
    fc.tuple(n, v).map(([a, x]) => `try { ${x} = Array(${a}).length; } catch { ${x} = -1; }`),
    fc.tuple(index, v).map(([i, x]) => `try { ${x} = [1, 2].with(${i}, 3)[1]; } catch { ${x} = -2; }`),
    fc.tuple(d, v).map(([k, x]) => `try { structuredClone({ f: ${k} ? () => 1 : 1 }); ${x} = 1; } catch { ${x} = 0; }`),
    fc.tuple(d, v).map(([k, x]) => `try { new Intl.NumberFormat(${k} ? "en-US" : "xx-none"); ${x} = 1; } catch { ${x} = 2; }`),
  );
  const a = choose(
    [
      w(4, read),
      w(4, coll, "collections"),
      w(2, round4, "absent-callback"),
      w(2, calledPositionArb(sc), "called-position"),
      w(2, guardStatementArb(sc), "run-ending-guard"),
      w(3, fc.tuple(d, read).map(([k, r]) => `if (${k}) { ${r} }`)),
      w(2, throwing, "throw"),
      w(1, fc.tuple(d, read, read).map(([k, r, q]) => `if (${k}) { ${r} } else { ${q} }`)),
      w(1, fc.tuple(list, read).map(([l, r]) => `for (const x0 of ${l}.toSorted()) { ${r} }`)),
    ],
    sc.avoid,
  );
  memo.set(key, a);
  return a;
}
