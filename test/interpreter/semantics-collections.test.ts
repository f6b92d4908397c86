/**
 * Differential semantics of Map and Set: completion values must equal V8's. Iteration works on
 * a snapshot taken when it starts (entries added or removed by the loop body are not seen, unlike
 * V8), so no case changes a collection while it is iterated.
 */
import { describe } from "vitest";
import { sameAsV8 } from "./semantics-support.js";

describe("Map", () => {
  sameAsV8([
    "const m = new Map([['a', 1], ['b', 2]]); m.set('c', 3).set('a', 9); [m.get('a'), m.get('z'), m.has('b'), m.size, [...m.keys()], [...m.values()], [...m.entries()]]",
    "const m = new Map(); m.set(NaN, 'n').set(0, 'zero'); [m.get(NaN), m.get(-0), m.has(NaN), m.size]",
    "const k = { id: 1 }; const m = new Map([[k, 'obj']]); [m.get(k), m.get({ id: 1 }), m.has(k)]",
    "const m = new Map([['a', 1], ['b', 2]]); [m.delete('a'), m.delete('a'), m.size, [...m]]",
    "const m = new Map([['x', 1]]); m.clear(); [m.size, [...m]]",
    "const m = new Map([['a', 1], ['b', 2]]); const out = []; for (const [k, v] of m) out.push(k + v); out",
    "const m = new Map([['a', 1], ['b', 2]]); const out = []; m.forEach((v, k, map) => out.push([k, v, map === m])); out",
    "const m = new Map([['a', 1]]); [Array.from(m), Object.fromEntries(m), [...m], JSON.stringify(m), String(m), typeof m]",
    "const counts = new Map(); for (const w of 'a b a c b a'.split(' ')) counts.set(w, (counts.get(w) ?? 0) + 1); [...counts].sort((p, q) => q[1] - p[1])",
    "const m = new Map(Object.entries({ x: 1, y: 2 })); Object.fromEntries([...m].map(([k, v]) => [k, v * 10]))",
    "const m = new Map([['a', 1]]); const c = new Map(m); c.set('b', 2); [m.size, c.size]",
    "const m = new Map([['a', [1]]]); const c = structuredClone(m); c.get('a').push(2); [m.get('a'), c.get('a')]",
    "const m = new Map(); m.set('self', m); const c = structuredClone(m); [c.size, c.get('self') === c, c === m]",
    "const s = new Set(); s.add(s); const c = structuredClone(s); [c.size, c.has(c), c.has(s)]",
    "const [[k0, v0]] = new Map([['first', 1]]); [k0, v0]",
    "Array.from(new Map([['a', 1], ['b', 2]]), ([k, v]) => k + v)",
    "[new Map() instanceof Map, new Set() instanceof Map, new Set() instanceof Set, {} instanceof Map, new Map() instanceof Object]",
  ]);
});

describe("Set", () => {
  sameAsV8([
    "const s = new Set([3, 1, 3, 2, 1]); [s.size, [...s], s.has(2), s.has(5)]",
    "const s = new Set('mississippi'); [...s].join('')",
    "const s = new Set(); s.add(1).add(2).add(1); [s.size, s.delete(1), s.delete(1), [...s]]",
    "const s = new Set([1, 2]); [[...s.keys()], [...s.values()], [...s.entries()]]",
    "const s = new Set(['a', 'b']); const out = []; s.forEach((v, k, set) => out.push([v, k, set === s])); out",
    "const s = new Set([1, 2, 3]); const out = []; for (const x of s) out.push(x * 2); out",
    "const a = new Set([1, 2, 3]); const b = new Set([2, 3, 4]); [[...a].filter((x) => b.has(x)), [...new Set([...a, ...b])]]",
    "[Array.from(new Set([1, 1, 2])), JSON.stringify(new Set([1])), Object.groupBy(new Set([1, 2, 3]), (x) => (x % 2 ? 'odd' : 'even'))]",
    "const s = new Set([NaN, NaN, 0, -0]); s.size",
    "const s = new Set([1]); s.clear(); [s.size, [...s]]",
  ]);
});
