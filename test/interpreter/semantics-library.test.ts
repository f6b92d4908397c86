/**
 * Differential semantics of the builtins of issue 15 phase 2 (the ones models reach for):
 * Array(n), the copying array methods, Object.groupBy, structuredClone, String.raw, named regex
 * groups and matchAll, Intl and the locale methods. Completion values must equal V8's. Locale
 * output is compared with an explicit time zone: sluice's default is UTC, V8's the host's.
 */
import { describe } from "vitest";
import { expectBothThrow, sameAsV8 } from "./semantics-support.js";
import { it } from "vitest";

describe("Array(n) and new Array(n)", () => {
  sameAsV8([
    "[Array(3).length, new Array(0).length, new Array(2).fill(0), Array(3).fill('x')]",
    "[Array('x'), new Array(1, 2), Array(), new Array(true)]",
    "new Array(4).fill(0).map((_, i) => i * i)",
    "Array.of(7, [8])",
    "let r; try { new Array(-1); } catch (e) { r = e.name; } r",
    "let r; try { Array(1.5); } catch (e) { r = e.name; } r",
  ]);
});

describe("toSorted, toReversed, toSpliced, with, findLast", () => {
  sameAsV8([
    "const a = [3, 1, 2]; [a.toSorted(), a]",
    "const a = [3, 10, 2]; [a.toSorted((x, y) => y - x), a.toSorted()]",
    "const a = [1, 2, 3]; [a.toReversed(), a]",
    "const a = [1, 2, 3, 4]; [a.toSpliced(1, 2), a.toSpliced(1, 0, 'x', 'y'), a.toSpliced(-1), a.toSpliced(), a]",
    "const a = [1, 2, 3]; [a.with(0, 9), a.with(-1, 8), a]",
    "let r; try { [1].with(3, 0); } catch (e) { r = e.name; } r",
    "[[1, 2, 3].findLast((x) => x < 3), [1, 2, 3].findLastIndex((x) => x > 5), [].findLast(() => true)]",
  ]);
});

describe("Object.groupBy", () => {
  sameAsV8([
    "Object.groupBy([1, 2, 3, 4, 5], (x) => (x % 2 ? 'odd' : 'even'))",
    "Object.groupBy([{ k: 'a', n: 1 }, { k: 'b', n: 2 }, { k: 'a', n: 3 }], (x) => x.k)",
    "Object.groupBy([], (x) => x)",
    "Object.groupBy('abca', (c) => c)",
    "Object.keys(Object.groupBy([3, 1, 2], (x, i) => i))",
    "Object.groupBy([1.5, 2.5], Math.floor)",
  ]);
});

describe("structuredClone", () => {
  sameAsV8([
    "const o = { a: [1, { b: 2 }], d: new Date(0) }; const c = structuredClone(o); c.a[1].b = 9; [o, c, c.d.getTime()]",
    "const o = { x: 1 }; const c = structuredClone([o, o]); [c[0] === c[1], c[0] === o]",
    "const o = { n: 1 }; o.self = o; const c = structuredClone(o); c.self === c",
    "[structuredClone(1), structuredClone('s'), structuredClone(null), structuredClone([])]",
    "let r; try { structuredClone({ f: () => 1 }); } catch (e) { r = e.name; } r",
  ]);
});

describe("String.raw", () => {
  sameAsV8([
    "String.raw`C:\\temp\\new`",
    "String.raw`a${1 + 1}b${'c'}\\n`",
    "String.raw``",
  ]);
});

describe("named groups, index and matchAll", () => {
  sameAsV8([
    "const m = /(?<year>\\d{4})-(?<month>\\d{2})/.exec('on 2025-12-20'); [m.groups.year, m.groups.month, m.index, m[0]]",
    "const m = 'on 2025-12'.match(/(?<y>\\d{4})-(?<m>\\d{2})/); [m.groups, m.index, m.input]",
    "[/(\\d)/.exec('a1').groups, 'x'.match(/y/)]",
    "[...'a1b22c333'.matchAll(/(?<n>\\d+)/g)].map((m) => [m[0], m.groups.n, m.index])",
    "Array.from('x1y2'.matchAll(/\\d/g), (m) => m[0])",
    "const out = []; for (const m of 'k=v;a=b'.matchAll(/(?<k>\\w)=(?<v>\\w)/g)) out.push(m.groups.k + m.groups.v); out",
    "let r; try { 'a'.matchAll(/a/); } catch (e) { r = e.name; } r",
    "const { groups: { d } } = /(?<d>\\d+)/.exec('id 42'); d",
  ]);
});

describe("Intl and the locale methods", () => {
  sameAsV8([
    "['en-US', 'en-GB', 'de-DE', 'fr-FR'].map((l) => new Intl.NumberFormat(l).format(1234567.891))",
    "['en-US', 'en-GB', 'de-DE', 'fr-FR'].map((l) => new Intl.NumberFormat(l, { style: 'currency', currency: 'EUR' }).format(-1234.5))",
    "new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(99.5)",
    "[new Intl.NumberFormat('en-US', { style: 'percent' }).format(0.256), new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2 }).format(3)]",
    "Intl.NumberFormat('en-GB').format(1e6)",
    "[(1234.5).toLocaleString('en-US'), (1234.5).toLocaleString('de-DE'), (0.5).toLocaleString('fr-FR', { style: 'percent' }), (1234.5).toLocaleString()]",
    "const d = new Date(Date.UTC(2025, 11, 20, 15, 4, 5)); ['en-US', 'en-GB', 'de-DE', 'fr-FR'].map((l) => d.toLocaleDateString(l, { timeZone: 'UTC' }))",
    "const d = new Date(Date.UTC(2025, 11, 20, 15, 4, 5)); ['en-US', 'en-GB', 'de-DE', 'fr-FR'].map((l) => d.toLocaleString(l, { timeZone: 'UTC' }))",
    "const d = new Date(Date.UTC(2025, 11, 20, 15, 4, 5)); ['en-US', 'en-GB', 'de-DE', 'fr-FR'].map((l) => d.toLocaleTimeString(l, { timeZone: 'UTC' }))",
    "const d = new Date(Date.UTC(2025, 0, 5)); d.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })",
    "const d = new Date(Date.UTC(2025, 0, 5)); ['en-US', 'en-GB', 'de-DE', 'fr-FR'].map((l) => new Intl.DateTimeFormat(l, { dateStyle: 'long', timeZone: 'UTC' }).format(d))",
    "new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', timeZone: 'UTC' }).format(new Date('2025-03-09T00:00:00Z'))",
    "typeof Intl",
  ]);
  it("an unknown locale is a RangeError in both", async () => expectBothThrow("new Intl.NumberFormat('xx-invalid-%%').format(1)"));
});
