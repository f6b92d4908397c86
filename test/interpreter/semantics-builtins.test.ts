/**
 * Differential semantics, namespaces: Object, JSON, Math, Number, parseInt/parseFloat, Date
 * over fixed timestamps. Completion values must equal V8's.
 */
import { describe } from "vitest";
import { sameAsV8 } from "./semantics-support.js";

describe("Object", () => {
  sameAsV8([
    // delete answers true whether or not the key was there.
    "const o = { k: 1 }; [delete o.k, delete o.k, delete o.missing, Object.keys(o)]",
    "const o = { b: 1, a: 2, 2: 'x', 1: 'y' }; [Object.keys(o), Object.values(o), Object.entries(o)]",
    "[Object.keys([4, 5]), Object.values('hi'), Object.entries([7])]",
    "Object.fromEntries([['a', 1], ['b', [2]], ['a', 3]])",
    "Object.fromEntries(Object.entries({ x: 1, y: 2 }).map(([k, v]) => [k.toUpperCase(), v * 10]))",
    "const t = { a: 1 }; const r = Object.assign(t, { b: 2 }, null, { a: 3 }); [t, r === t]",
    "Object.assign({ a: 1 }, undefined)",
    "Object.assign({}, { a: { deep: 1 } }, [9])",
    "const o = { a: undefined }; [Object.hasOwn(o, 'a'), Object.hasOwn(o, 'b'), Object.hasOwn([1], 0), Object.hasOwn([1], 1)]",
    "const o = { a: 1 }; delete o.a; [Object.keys(o), 'a' in o]",
    "const o = { x: 1, y: 2 }; const out = []; for (const k in o) out.push(k + '=' + o[k]); out.join('&')",
    "[Object.keys({}).length, Object.entries({}).length]",
    "const o = Object.freeze({ a: 1 }); o.a",
    "[Object.is(NaN, NaN), Object.is(0, -0), Object.is('a', 'a'), Object.is({}, {})]",
    "const counts = {}; for (const c of 'mississippi') counts[c] = (counts[c] || 0) + 1; counts",
  ]);
});

describe("JSON", () => {
  sameAsV8([
    // Only a number or a string indents: an object given as space is ignored.
    "[JSON.stringify({ a: 1 }, null, ['--']), JSON.stringify([1], null, new Error('++')), JSON.stringify([1], null, new Date(0)), JSON.stringify([1], null, '  '), JSON.stringify([1], null, 12)]",
    "JSON.stringify({ a: 1, b: [1, 'two', null, true], c: { d: {} } })",
    "JSON.stringify({ a: [1, { b: 2 }] }, null, 2)",
    "JSON.stringify([1, [2]], null, '--')",
    "JSON.stringify({ u: undefined, f: () => 1, n: null, nan: NaN, inf: -Infinity })",
    "JSON.stringify([undefined, () => 1, NaN])",
    "[JSON.stringify(undefined), JSON.stringify(() => 1), JSON.stringify(null), JSON.stringify('s\"q'), JSON.stringify(5)]",
    "JSON.stringify({ d: new Date(Date.UTC(2026, 0, 31)) })",
    "JSON.stringify(new Error('x'))",
    "const e = new TypeError('t'); e.code = 3; [JSON.stringify(e), Object.keys(e), JSON.stringify({ err: new Error('x') })]",
    "const e = new Error('m'); e.name = 'Custom'; e.message = 'changed'; [Object.keys(e), JSON.stringify(e), String(e)]",
    "const e = new Error('m'); const ks = []; for (const k in e) ks.push(k); [ks, 'message' in e, Object.hasOwn(e, 'message')]",
    "({ ...new Error('x') })",
    "const { a, ...rest } = Object.assign(new Error('x'), { a: 1, b: 2 }); rest",
    "const e = new Error('x', { cause: { code: 1 } }); [e.cause, Object.keys(e), JSON.stringify(e), new Error('y').cause]",
    "JSON.stringify('line\\nbreak\\ttab\\u0001')",
    "JSON.stringify({ 2: 'b', 1: 'a', z: 0 })",
    "JSON.stringify({ a: 1 }, null, 20)",
    "JSON.stringify({}, null, 2)",
    "JSON.parse('{\"a\":[1,2,{\"b\":null}],\"c\":\"s\"}')",
    "[JSON.parse('1'), JSON.parse('\"x\"'), JSON.parse('true'), JSON.parse('null'), JSON.parse(' [ ] ')]",
    "JSON.parse(JSON.stringify({ a: [1, { b: 'c' }] }))",
    "let r; try { JSON.parse(''); } catch (e) { r = e.name; } r",
    "JSON.parse('{\"__proto__\": 1, \"k\": 2}').k",
    "JSON.parse('1e3')",
    "[JSON.stringify({ a: 1, b: 2 }, ['a']), JSON.stringify({ a: 1, n: { a: 2, b: 3 } }, ['a', 'n'], 1), JSON.stringify([{ a: 1, b: 2 }], ['b'])]",
    "[JSON.stringify({ b: 1, a: 2 }, ['a', 'b', 'a', 1]), JSON.stringify(new Error('m'), ['name', 'message'])]",
    "JSON.stringify({ a: 1, b: [2, 3] }, (k, v) => typeof v === 'number' ? v * 2 : v)",
    "JSON.stringify({ d: new Date(0), x: [1, { y: 2 }] }, (k, v) => k === 'y' ? undefined : v)",
    "[JSON.stringify({ a: 1 }, (k, v) => k === '' ? [v, v] : v), JSON.stringify(5, (k, v) => v + 1), JSON.stringify({ a: 1 }, (k, v) => (k === 'a' ? () => 1 : v))]",
    "const keys = []; JSON.stringify({ a: { b: 1 }, c: [2] }, (k, v) => { keys.push(k); return v; }); keys",
    // An array the replacer cuts is still walked to the length it had: the parts removed are read as undefined.
    "const a = [1, 2, 3]; const keys = []; [JSON.stringify(a, (k, v) => { keys.push(k); if (k === '0') a.length = 1; return v; }), keys]",
    "const a = [1, 2, 3]; JSON.stringify({ a }, (k, v) => { if (k === '1') a.splice(1); return v === undefined ? 'gone' : v; })",
    "JSON.parse('[1, [2, 3], {\"k\": 4}]', (k, v) => typeof v === 'number' ? v * 10 : v)",
    "JSON.parse('{\"a\": 1, \"b\": 2}', (k, v) => k === 'a' ? undefined : v)",
    "const keys = []; JSON.parse('{\"a\": {\"b\": 1}, \"c\": [2]}', (k, v) => { keys.push(k); return v; }); keys",
  ]);
});

describe("Math", () => {
  sameAsV8([
    "[Math.abs(-3), Math.floor(-1.5), Math.ceil(-1.5), Math.round(2.5), Math.round(-2.5), Math.round(-0.4), Math.trunc(-1.9)]",
    "[Math.sign(-3), Math.sign(0), Math.sqrt(16), Math.cbrt(27), Math.pow(2, 8), Math.hypot(3, 4)]",
    "[Math.max(), Math.min(), Math.max(1, 'a'), Math.max(1, '5'), Math.min(3, -1, 2)]",
    "[Math.PI, Math.E, Math.SQRT2, Math.LN2]",
    "[Math.log(Math.E), Math.log2(8), Math.log10(1000), Math.exp(0)]",
    "[Math.sin(0), Math.cos(0), Math.atan2(1, 1)]",
    "[Math.round(1.005 * 100) / 100, Math.floor(7 / 2), Math.max(...[1, 5, 3])]",
    "const r = Math.random(); [r >= 0, r < 1]",
    "[Math.min(NaN, 1), Math.abs('-2'), Math.floor(null)]",
    "[Math.max(-0, 0), Math.min(0, -0), Math.round(0.49999999999999994), Math.round(-1.5), Math.trunc('7.9'), Math.ceil(-0.5)]",
  ]);
});

describe("Number and numeric conversion", () => {
  sameAsV8([
    "[(3.14159).toFixed(2), (2.5).toFixed(0), (1.005).toFixed(2), (1234.5).toFixed(), (-1.5).toFixed(1), (0).toFixed(3)]",
    "[(123.456).toPrecision(4), (0.000123).toPrecision(2)]",
    "[Number('42'), Number(''), Number(' 7 '), Number('x'), Number(null), Number(undefined), Number(true), Number([]), Number('0b101')]",
    "[Number.isInteger(5), Number.isInteger(5.5), Number.isInteger('5'), Number.isSafeInteger(2 ** 53), Number.isFinite('5'), Number.isNaN('x')]",
    "[isNaN('x'), isFinite('5'), isNaN(undefined), isFinite(null)]",
    "[Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.EPSILON > 0, Number.POSITIVE_INFINITY]",
    "[parseInt('42px'), parseInt('  -17'), parseInt('0x1A'), parseInt('ff', 16), parseInt('101', 2), parseInt('abc'), parseInt('3.9'), parseInt('')]",
    "[parseFloat('3.14abc'), parseFloat('.5'), parseFloat('-1e3'), parseFloat('x'), parseFloat('  2.5  ')]",
    "[Number.parseInt('12'), Number.parseFloat('1.5'), Number.parseInt === parseInt, Number.parseFloat === parseFloat]",
    "[parseInt('08'), parseInt('0b11'), parseInt('-0x10'), parseInt('  +42abc'), parseInt('Infinity'), parseInt(null), parseInt('z', 36)]",
    "[parseFloat('Infinityx'), parseFloat('-.5e-2'), parseFloat('0x10'), parseFloat('1.2.3')]",
    "[(0.1).toFixed(20), (1e-10).toFixed(3), (-0).toFixed(1), (123.456).toFixed(10)]",
    "[0.000001, 1e-7, 1e21, 123e-20, 2 ** 60, -1e-7].map(String)",
    "[String(1e21), String(1e-7), String(-0), String(0.1 + 0.2), String(123456789012345680000)]",
    "[(1e21).toFixed(2), 5 .toFixed(1)]",
    "[(255).toString(16), (255).toString(2), (-8).toString(8), (3.5).toString(2), (35).toString(36), (12).toString()]",
    "[(1234.5).toLocaleString(), (0.5).valueOf()]",
    "const o = { toString: 1, valueOf: 'v' }; [o.toString, o.valueOf]",
    "[Boolean(''), Boolean('0'), Boolean(0), Boolean([]), Boolean(null)]",
    "[(12.345).toFixed(1), Number((12.345).toFixed(1)), +(0.1 * 3).toFixed(10)]",
  ]);
});

describe("Date over fixed timestamps", () => {
  sameAsV8([
    "new Date('2026-01-31T10:00:00Z').getTime()",
    "const d = new Date('2026-01-31T10:20:30.456Z'); [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()]",
    "new Date(0).toISOString()",
    "new Date(1767225600000)",
    "[Date.UTC(2026, 0, 31), Date.UTC(2026, 1, 29), Date.UTC(2024, 1, 29, 12, 30)]",
    "new Date(Date.UTC(2026, 11, 31, 23, 59, 59)).toISOString()",
    "const d = new Date('2026-01-31T00:00:00Z'); const next = new Date(d.getTime() + 24 * 3600 * 1000); next.toISOString().slice(0, 10)",
    "const a = new Date('2026-03-01T00:00:00Z'); const b = new Date('2026-02-01T00:00:00Z'); (a - b) / 86400000",
    "[new Date('2026-01-31') < new Date('2026-02-01'), new Date(5).getTime() === new Date(5).getTime()]",
    "Date.parse('2026-01-31T10:00:00.000Z')",
    "const d = new Date('2026-01-31T10:00:00Z'); d.setUTCDate(d.getUTCDate() + 1); d.toISOString()",
    "const d = new Date('2026-01-31T10:00:00Z'); d.setUTCMonth(1); d.toISOString()",
    "[new Date('not a date').getTime(), String(new Date('garbage').getTime())]",
    "new Date('nope')",
    "new Date(new Date('2026-05-05T05:05:05Z')).toISOString()",
    "new Date('2026-01-31T10:00:00Z').toJSON()",
    "new Date('2026-01-31T10:00:00Z').toUTCString()",
    "JSON.stringify([new Date(86400000)])",
    "const d = new Date('2026-01-31T10:00:00Z'); d.valueOf() === d.getTime()",
    "['2026-01-31T10:00:00Z', '2025-12-01T00:00:00Z'].map((s) => new Date(s)).sort((a, b) => a - b).map((d) => d.toISOString())",
    "let r; try { new Date(NaN).toISOString(); } catch (e) { r = e.name; } r",
    "[new Date(1.7).getTime(), new Date(-8.64e15 - 1).getTime(), new Date(8.64e15).toISOString()]",
    "new Date(8.64e15 + 1)",
  ]);
});
