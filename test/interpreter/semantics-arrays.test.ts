/**
 * Differential semantics, arrays: mutators, accessors, callbacks and the Array statics.
 * Completion values must equal V8's.
 */
import { describe } from "vitest";
import { type KnownBug, knownBugs, sameAsV8 } from "./semantics-support.js";

describe("mutators", () => {
  sameAsV8([
    "const a = [1]; const n = a.push(2, 3); [n, a]",
    "const a = [1, 2, 3]; const x = a.pop(); [x, a, [].pop()]",
    "const a = [1, 2, 3]; const x = a.shift(); [x, a, [].shift()]",
    "const a = [3]; const n = a.unshift(1, 2); [n, a]",
    "const a = [1, 2, 3, 4, 5]; const r = a.splice(1, 2); [r, a]",
    "const a = [1, 2, 3]; const r = a.splice(1, 0, 'x', 'y'); [r, a]",
    "const a = [1, 2, 3, 4]; const r = a.splice(-2); [r, a]",
    "const a = [1, 2, 3, 4]; const r = a.splice(1, 1, 'a', 'b', 'c'); [r, a]",
    "const a = [1, 2, 3]; const r = a.splice(5, 1, 'end'); [r, a]",
    "const a = [1, 2, 3]; const r = a.splice(1, -1); [r, a]",
    "const a = [1, 2, 3]; const r = a.splice(); [r, a]",
    "const a = [1, 2, 3]; const b = a.reverse(); [a, b === a]",
    "[1, 2, 3, 4].fill(0, 1, 3)",
    "[1, 2, 3].fill(9, -1)",
    "const a = [1, 2, 3]; a.fill('x'); a",
  ]);
});

describe("sort", () => {
  sameAsV8([
    "[10, 9, 1, 100, 25].sort()",
    "['b', 'a', 'C', 'B'].sort()",
    "[10, 9, 1, 100, 25].sort((a, b) => a - b)",
    "[10, 9, 1, 100, 25].sort((a, b) => b - a)",
    "[3, undefined, 1, null, 2].sort()",
    "[true, false, 'a', 1].sort()",
    "const people = [{ n: 'b', a: 2 }, { n: 'a', a: 1 }, { n: 'c', a: 1 }]; people.sort((x, y) => x.a - y.a).map((p) => p.n)",
    "[{ k: 1, v: 'a' }, { k: 0, v: 'b' }, { k: 1, v: 'c' }, { k: 0, v: 'd' }].sort((x, y) => x.k - y.k).map((x) => x.v).join('')",
    "const a = [2, 1]; const b = a.sort(); [a, b === a]",
    "[5, 1, 4].sort(() => 0)",
    "['10', '9', '1'].sort((a, b) => Number(a) - Number(b))",
    "[[2, 'b'], [1, 'a']].sort()",
    "[-1, -10, 2, -2].sort()",
    "['b', 'a'].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))",
    "[3, 1, 2].sort((a, b) => a > b)",
    "Object.entries({ n: 2, m: 2, a: 5 }).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))",
    // A comparator that reshapes the array: the copy taken at the start is sorted and written back.
    "const xs = ['m', 'zz', 'a']; let first = true; const seen = []; xs.sort((x, y) => { if (first) { first = false; xs.length = 0; } else seen.push(y); return 0; }); [xs, seen]",
    "const ys = ['m', 'zz', 'a']; let first = true; ys.sort((x, y) => { if (first) { first = false; ys.push('q'); } return x < y ? -1 : 1; }); ys",
    "const zs = [3, 1, 2]; let first = true; zs.sort((x, y) => { if (first) { first = false; zs.shift(); } return x - y; }); zs",
  ]);
});

describe("accessors", () => {
  sameAsV8([
    "const a = [1, 2, 3, 4, 5]; [a.slice(1, 3), a.slice(-2), a.slice(2, -1), a.slice(), a.slice(4, 2), a.slice(10)]",
    "[[1].concat([2, 3], 4, [[5]]), [].concat(), [1].concat('ab')]",
    "const a = [1, 2, 3, 2]; [a.indexOf(2), a.lastIndexOf(2), a.indexOf(9), a.indexOf(2, 2), a.indexOf('2')]",
    "[[NaN].indexOf(NaN), [NaN].includes(NaN), [1, 2].includes(2), [1, 2].includes('2'), [0].includes(-0)]",
    "[[1, 2, 3].join(), [1, 2, 3].join(' - '), [].join(), [null, undefined, 1].join('-'), [[1, 2], [3]].join(';'), ['a'].join('')]",
    "const a = [1, 2, 3]; [a.at(0), a.at(-1), a.at(5), a.at(-5)]",
    "[[1, [2, [3, [4]]]].flat(), [1, [2, [3, [4]]]].flat(2), [1, [2, [3, [4]]]].flat(Infinity), [[], [1]].flat()]",
    "[['a', 'b'].keys(), ['a', 'b'].entries()].map((it) => [...it])",
    "const out = []; for (const [i, v] of ['x', 'y'].entries()) out.push(i + v); out",
    "const out = []; for (const i of ['x', 'y'].keys()) out.push(i); out",
    "[[1, 2, 3].length, [].length, [, 1].length]",
    "String([1, [2, 3], null, undefined])",
    "const a = [1, 2, 3]; a[a.length] = 4; a[5] = 6; [a.length, a]",
    "[[1, 2, 1].lastIndexOf(1, 1), ['a', 'b', 'a'].lastIndexOf('a', -2), [1].lastIndexOf(1, -5), [1, 2, 3].indexOf(1, -10), [1, 2, 3].indexOf(3, -1)]",
    "[[1, 2, 3].includes(1, 1), [1, 2, 3].includes(3, -1), [1, 2, 3].includes(1, -10), [1, 2].includes(2, 5)]",
    "[[1, 2, 1].lastIndexOf(1, undefined), [1, 2, 1].indexOf(1, undefined), [1, 2, 1].includes(1, undefined), [2, 1].lastIndexOf(1, undefined)]",
  ]);
});

describe("callbacks", () => {
  sameAsV8([
    "[1, 2, 3].map((x, i, arr) => x * i + arr.length)",
    "[1, 2, 3, 4, 5].filter((x) => x % 2)",
    "[1, 2, 3, 4].filter((x, i) => i > 1)",
    "[{ id: 1 }, { id: 2 }].find((o) => o.id === 2)",
    "[[1, 2].find((x) => x > 5), [1, 2].findIndex((x) => x > 5), [5, 6].findIndex((x) => x > 5)]",
    "[[1, 2, 3, 4].findLast((x) => x % 2 === 1), [1, 2, 3, 4].findLastIndex((x) => x % 2 === 1), [1].findLast((x) => x > 1)]",
    "[[1, 2].some((x) => x > 1), [].some((x) => true), [1, 2].every((x) => x > 0), [].every((x) => false), [1, 2].every((x) => x > 1)]",
    "[1, 2, 3, 4].reduce((acc, x) => acc + x)",
    "[1, 2, 3].reduce((acc, x) => acc + x, 10)",
    "['a', 'b', 'c'].reduce((acc, x, i) => acc + x + i, '')",
    "['a', 'b', 'c'].reduceRight((acc, x) => acc + x)",
    "[[1, 2], [3]].reduceRight((acc, x) => acc.concat(x), [])",
    "[5].reduce((a, b) => a + b)",
    "const words = ['apple', 'avocado', 'banana']; words.reduce((acc, w) => { (acc[w[0]] ??= []).push(w); return acc; }, {})",
    "let s = 0; const r = [1, 2, 3].forEach((x) => { s += x; }); [s, r]",
    "[1, 2, 3].flatMap((x) => [x, x * 10])",
    "[1, 2].flatMap((x) => [[x]])",
    "['a b', 'c'].flatMap((s) => s.split(' '))",
    "[1, 2, 3].flatMap((x) => x === 2 ? [] : x)",
    "let calls = 0; [1, 2, 3, 4].some((x) => (calls++, x === 2)); calls",
    "let calls = 0; [1, 2, 3, 4].find((x) => (calls++, x === 3)); calls",
    "const idx = []; ['a', 'b'].forEach((v, i, arr) => idx.push(i, arr.length)); idx",
    "[1, 2, 3].map((x) => x > 1 ? x : undefined)",
    "[' a ', 'b '].map((s) => s.trim()).filter(Boolean)",
    "[0, 1, '', 'x', null].filter(Boolean)",
    "['1', '2', '3'].map(Number)",
    "[1, 2, 3].map(String)",
    "['1', '2', '3'].map(parseInt)",
    "const uniq = (xs) => xs.filter((x, i) => xs.indexOf(x) === i); uniq([1, 2, 1, 3, 2])",
    "const chunk = (xs, n) => xs.length ? [xs.slice(0, n), ...chunk(xs.slice(n), n)] : []; chunk([1, 2, 3, 4, 5], 2)",
    "const matrix = [[1, 2], [3, 4]]; matrix[0].map((_, c) => matrix.map((row) => row[c]))",
    "[{ t: 'x', n: 1 }, { t: 'y', n: 2 }, { t: 'x', n: 3 }].reduce((g, o) => ({ ...g, [o.t]: [...(g[o.t] ?? []), o.n] }), {})",
    "const xs = [3, 1, 2]; const sorted = [...xs].sort(); [xs, sorted]",
    "const byLen = {}; for (const w of ['aa', 'b', 'cc']) (byLen[w.length] ||= []).push(w); byLen",
  ]);
});

describe("Array statics", () => {
  sameAsV8([
    "[Array.isArray([]), Array.isArray({}), Array.isArray('abc'), Array.isArray(null)]",
    "[Array.from('abc'), Array.from([1, 2], (x) => x * 2), Array.from({ length: 3 }, (_, i) => i * i)]",
    "[Array.of(7), Array.of(1, 2, 3), Array.of()]",
    "Array.from({ length: 2 })",
    "const a = [1, 2]; const b = Array.from(a); b.push(3); [a, b]",
  ]);
});

const bugs: KnownBug[] = [
  { source: "const a = [1, 2, 3]; delete a[1]; [a.length, 1 in a]", bug: "members.ts deleteMember on an array element leaves `1 in a` true (arrays have no holes)" },
];
knownBugs("arrays", bugs);
