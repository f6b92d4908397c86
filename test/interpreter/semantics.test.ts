/**
 * Differential semantics, expressions: operators, declarations, assignment, destructuring,
 * spread, templates, computed keys, optional chaining. Each program's completion value under
 * sluice must equal V8's (see semantics-support.ts).
 */
import { describe } from "vitest";
import { sameAsV8 } from "./semantics-support.js";

describe("arithmetic operators", () => {
  sameAsV8([
    "[1 + 2, 7 - 10, 6 * 7, 7 / 2, 7 % 3, -7 % 3, 2 ** 10, 2 ** -1, (-2) ** 3]",
    "[1 / 0, -1 / 0, 0 / 0, 5 % 0]",
    "[0.1 + 0.2, 1e21 + 1, 9007199254740993]",
    `[1 + "2", "3" + 4, "5" - 2, "6" * "7", "8" / "2", true + 1, null + 1, undefined + 1]`,
    `[[] + [], [1, 2] + [3], ({}) + "", "x" + null, "x" + undefined, "x" + true]`,
    `[+"42", +"", +" 12 ", +"0x1f", +"1e3", +"abc", +true, +null, +undefined, +[], +[5], +[1, 2]]`,
    "[-(3), -(-3), -'4', - null]",
    "let a = 5; const b = [a++, a, ++a, a, a--, a, --a, a]; b",
    "let o = { n: 1 }; o.n++; ++o.n; o.n += 10; o.n",
    "let xs = [1, 2]; xs[0]++; xs[1] **= 3; xs",
    "[1 + 2 * 3, (1 + 2) * 3, 2 ** 3 ** 2, 10 - 3 - 2, 64 / 4 / 2, -(2 ** 2)]",
    `[1 + 2 + "3", "1" + 2 + 3]`,
    "[0 * -1, Object.is(0 * -1, -0)]",
  ]);
});

describe("comparison and equality", () => {
  sameAsV8([
    "[1 < 2, 2 < 1, 2 <= 2, 3 >= 4, 5 > 4]",
    `["a" < "b", "B" < "a", "10" < "9", "10" < 9, 10 < "9", "abc" < "abd", "" < "a"]`,
    "[NaN < 1, NaN >= 1, null < 1, null >= 0, undefined < 1, undefined >= 0]",
    "[1 == 1, 1 == '1', 0 == '', 0 == '0', '' == '0', null == undefined, null == 0, undefined == 0]",
    "[NaN == NaN, NaN === NaN, 0 === -0, '1' === 1, true == 1, true == '1', false == 0, false == '']",
    "[[1] == 1, [1, 2] == '1,2', [] == '', [] == 0, [0] == false, ({}) == '[object Object]']",
    "const a = [1]; const b = a; [a == b, a === b, a === [1], a == [1]]",
    "const o = {}; [o == o, o === {}, o != {}, o !== o]",
    "[null == false, undefined == false, null === null, undefined === undefined, null !== undefined]",
    "[1 != '1', 1 !== '1', 'a' != 'b']",
    "['2' > '12', 2 > '12', [2] > 1, true > false]",
  ]);
});

describe("bitwise operators", () => {
  sameAsV8([
    "[5 & 3, 5 | 3, 5 ^ 3, ~5, ~-1, ~~3.7, ~~-3.7]",
    "[1 << 3, 1 << 31, 1 << 32, -16 >> 2, -16 >>> 2, -1 >>> 0, 2 ** 32 | 0, 3.9 | 0]",
    `["12" | 0, "abc" | 0, null | 0, undefined | 1, true & 1]`,
    "let x = 6; x &= 3; let y = 6; y |= 9; let z = 6; z ^= 5; let w = 1; w <<= 4; let v = -32; v >>= 2; let u = -1; u >>>= 28; [x, y, z, w, v, u]",
  ]);
});

describe("logical and nullish operators", () => {
  sameAsV8([
    `[1 && 2, 0 && 2, "" || "d", "x" || "d", null ?? "d", undefined ?? "d", 0 ?? "d", "" ?? "d", false ?? "d"]`,
    "[!0, !1, !'', !'a', !null, ![], !{}, !!NaN, !!-1]",
    "let calls = 0; const f = () => (calls++, true); false && f(); true || f(); null ?? 1; 1 ?? f(); [calls]",
    "let n = 0; const f = () => ++n; 0 || f(); 1 && f(); null ?? f(); n",
    "[1 && 2 || 3, 0 || null && 1, (null ?? 0) || 'x']",
  ]);
});

describe("typeof, in, instanceof, void, comma", () => {
  sameAsV8([
    "[typeof 1, typeof 'a', typeof true, typeof undefined, typeof null, typeof {}, typeof [], typeof (() => 1), typeof function () {}]",
    "[typeof notDeclared, typeof Math, typeof JSON, typeof Math.max, typeof NaN, typeof new Date(0)]",
    "const o = { a: 1, b: undefined }; ['a' in o, 'b' in o, 'c' in o]",
    "const xs = [10, 20]; [0 in xs, 1 in xs, 2 in xs, '1' in xs, 'length' in xs]",
    "[[] instanceof Array, [] instanceof Object, ({}) instanceof Array, new Error('x') instanceof Error, new TypeError('x') instanceof Error]",
    "[new RangeError('r') instanceof TypeError, new Date(0) instanceof Date, 1 instanceof Object, 'a' instanceof Object]",
    "[void 0, void 'x']",
    "let a = (1, 2, 3); a",
    "let i = 0; let j = 10; for (; i < 3; i++, j--) {} [i, j]",
  ]);
});

describe("const, let, var", () => {
  sameAsV8([
    "const a = 1; let b = 2; var c = 3; [a, b, c]",
    "let x = 1; { let x = 2; x++; } x",
    "var v = 1; { var v = 2; } v",
    "function f() { return typeof later; var later = 1; } f()",
    "function f() { var r = hoisted; var hoisted = 5; return r; } [f()]",
    "let x; [x, typeof x]",
    "const o = { a: 1 }; o.a = 2; o.b = 3; o",
    "let s = 0; for (var i = 0; i < 3; i++) s += i; [s, i]",
    "let a = 1, b = a + 1, c = b * 2; [a, b, c]",
    "let r = []; { const x = 'inner'; r.push(x); } const x = 'outer'; r.push(x); r",
  ]);
});

describe("assignment operators", () => {
  sameAsV8([
    "let a = 10; a += 5; a -= 3; a *= 2; a /= 4; a %= 4; a **= 3; a",
    "let s = 'ab'; s += 'cd'; s += 1; s",
    "let a = null; a ??= 5; let b = 0; b ??= 5; let c; c ||= 'x'; let d = 'y'; d ||= 'z'; let e = 1; e &&= 2; let f = 0; f &&= 2; [a, b, c, d, e, f]",
    "const o = { n: 0, m: null }; o.n ||= 7; o.m ??= 'set'; o.k ??= 'new'; o.n &&= o.n + 1; o",
    // A logical assignment that does not assign creates no key.
    "const o = {}; o.k &&= 1; o.j ||= 0; ['k' in o, Object.keys(o)]",
    "const u = { c: true }; const o = { n: 1 }; if (u.c) o.m &&= 2; Object.keys(o)",
    "let calls = 0; const o = { a: 1 }; o.a ||= (calls++, 2); o.a ??= (calls++, 3); [o.a, calls]",
    "let a, b; a = b = 3; [a, b]",
    "const xs = []; xs[2] = 'c'; xs[0] = 'a'; [xs.length, xs[1] === undefined, xs[0], xs[2]]",
    "const o = {}; const k = 'dyn'; o[k] = 1; o[k + '2'] = 2; o[3] = 3; o",
    "let x = 1; const y = (x += 2); [x, y]",
    "const xs = [1, 2, 3]; xs.length = 1; xs",
  ]);
});

describe("destructuring", () => {
  sameAsV8([
    "const { a, b: bee, c = 'dc' } = { a: 1, b: 2 }; [a, bee, c]",
    "const [x, , z = 9, w = 'dw'] = [1, 2, undefined]; [x, z, w]",
    "const { a, ...rest } = { a: 1, b: 2, c: 3 }; [a, rest]",
    "const [h, ...t] = [1, 2, 3, 4]; [h, t]",
    "const { p: { q, r = 'dr' }, s: [s0, s1] } = { p: { q: 'Q' }, s: [5, 6] }; [q, r, s0, s1]",
    "const { a = 1 } = { a: null }; const { b = 2 } = { b: undefined }; [a, b]",
    "let a = 1; let b = 2; [a, b] = [b, a]; [a, b]",
    "let x, y; ({ x, y = 'dy' } = { x: 'X' }); [x, y]",
    "function f({ name, age = 30 }, [first, ...others]) { return [name, age, first, others]; } f({ name: 'n' }, [1, 2, 3])",
    "const f = ({ a } = { a: 'default' }) => a; [f(), f({ a: 'given' })]",
    "const f = (x, y = x * 2, ...more) => [x, y, more]; [f(1), f(1, 5), f(1, 2, 3, 4)]",
    "const pairs = [[1, 'a'], [2, 'b']]; const out = []; for (const [n, s] of pairs) out.push(s + n); out",
    "const k = 'dyn'; const { [k]: v, ['x' + 1]: w } = { dyn: 'D', x1: 'W' }; [v, w]",
    "const { length } = 'hello'; const [c0, c1] = 'hi'; [length, c0, c1]",
    "const [a = 1, b = a + 1] = []; [a, b]",
    "let n = 0; const d = () => ++n; const [a = d()] = [5]; const [b = d()] = []; [a, b, n]",
    "const { 0: first, length: len } = ['x', 'y']; [first, len]",
  ]);
});

describe("spread", () => {
  sameAsV8([
    "const a = [1, 2]; const b = [0, ...a, 3, ...a]; b",
    "const o = { a: 1, b: 2 }; ({ ...o, b: 3, c: 4 })",
    "const o = { a: 1, b: 2 }; ({ b: 0, ...o })",
    "Math.max(...[3, 9, 2], 4)",
    "const f = (a, b, c) => [a, b, c]; f(...[1, 2], 3)",
    "[...'héllo']",
    "({ ...null, ...undefined, ...{ x: 1 } })",
    "({ ...[10, 20] })",
    "({ ...'ab' })",
    "const a = [1, [2]]; const b = [...a]; b[1].push(3); b[0] = 9; [a, b]",
  ]);
});

describe("template literals and computed keys", () => {
  sameAsV8([
    "const n = 3; `n=${n}, twice=${n * 2}, ${'nested ' + `${n}`}`",
    "`${[1, 2]}|${null}|${undefined}|${true}|${{}}`",
    "`line1\nline2\t${'x'}\\``",
    "`${1}${2}` + `${''}`",
    "const k = 'key'; ({ [k]: 1, [k + '2']: 2, [1 + 1]: 'two', ['a-b']: 3 })",
    "const x = 1, y = 'why'; ({ x, y, z: x + 1 })",
    "({ b: 1, a: 2, 10: 'ten', 2: 'two', c: 3 })",
    "Object.keys({ z: 1, 1: 1, y: 1, 0: 1 })",
    "({ 'quoted key': 1, 42: 'n', f() { return 1; } }).f()",
    "const o = { m(x) { return x * 2; }, n: (x) => x + 1 }; [o.m(3), o.n(3)]",
  ]);
});

describe("optional chaining and conditional", () => {
  sameAsV8([
    "const o = { a: { b: { c: 1 } } }; [o?.a?.b?.c, o.x?.y, o.x?.y.z.w, o.a?.['b']?.c]",
    "const n = null; [n?.a, n?.[0], n?.a.b.c]",
    "const o = { f: (x) => x + 1 }; [o.f?.(1), o.g?.(1), o.g?.(1).h]",
    "const f = null; const g = (x) => x * 3; [f?.(1), g?.(2)]",
    "const xs = [[1, 2]]; [xs?.[0]?.[1], xs?.[5]?.[1]]",
    "let calls = 0; const n = null; n?.a(calls++); calls",
    "const x = 5; [x > 3 ? 'big' : 'small', x > 10 ? 'huge' : x > 4 ? 'mid' : 'low']",
    "const f = (n) => n === 0 ? 'zero' : n < 0 ? 'neg' : 'pos'; [f(0), f(-2), f(3)]",
    "let a = 0; let b = 0; true ? a++ : b++; [a, b]",
    "const o = { a: [{ b: 'x' }] }; o?.a[0]?.b?.toUpperCase()",
  ]);
});

describe("completion values", () => {
  sameAsV8([
    "1; 2; 3",
    "let x = 1; if (x) { 'then'; } else { 'else'; }",
    "const o = { a: 1 }; o",
    "let s = 0; for (let i = 0; i < 3; i++) { s += i; }",
    "'before'; let x = 5;",
    "function f() {} 'after function'",
    "({ a: 1 }).a",
    // A loop that runs zero times completes with undefined, not the value before it.
    "'ok'; for (const x of []) { 'ran'; }",
    "'ok'; for (let i = 0; i < 0; i++) { 'ran'; }",
    "'ok'; for (const k in {}) { 'ran'; }",
    "'ok'; let i = 0; while (i > 0) { 'ran'; }",
    "'ok'; do { } while (false)",
    "'ok'; for (const x of [1, 2]) { 'ran' + x; }",
    // A caught throw: the try completes with the catch block's value.
    "try { 'before'; JSON.parse('{'); 'after'; } catch {}",
    "try { 'before'; JSON.parse('{'); } catch { 'caught'; }",
    "try { 'before'; } catch { 'caught'; }",
    "L: { 'a'; break L; }",
  ]);
});
