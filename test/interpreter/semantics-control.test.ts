/**
 * Differential semantics, statements and functions: branches, switch, loops, labels,
 * closures, recursion, hoisting, arrows, exceptions. Completion values must equal V8's.
 */
import { describe, it } from "vitest";
import { expectBothThrow, sameAsV8 } from "./semantics-support.js";

describe("if / else", () => {
  sameAsV8([
    "const f = (n) => { if (n > 0) return 'pos'; else if (n < 0) return 'neg'; else return 'zero'; }; [f(1), f(-1), f(0)]",
    "let r = []; for (const v of [0, '', null, undefined, NaN, 'a', 1, [], {}]) { if (v) r.push(1); else r.push(0); } r",
    "let x = 0; if (x === 0) { x = 'a'; } x",
    "let out = 'none'; if (false) out = 'then'; out",
  ]);
});

describe("switch", () => {
  sameAsV8([
    "const f = (x) => { switch (x) { case 1: return 'one'; case 2: return 'two'; default: return 'other'; } }; [f(1), f(2), f(3)]",
    "const f = (x) => { const r = []; switch (x) { case 1: r.push(1); case 2: r.push(2); break; case 3: r.push(3); } return r; }; [f(1), f(2), f(3), f(4)]",
    "const f = (x) => { const r = []; switch (x) { case 1: r.push('a'); default: r.push('d'); case 2: r.push('b'); break; case 3: r.push('c'); } return r; }; [f(1), f(2), f(3), f(9)]",
    "const f = (x) => { switch (x) { case '1': return 'string'; case 1: return 'number'; } return 'none'; }; [f(1), f('1'), f(true)]",
    "const f = (x) => { switch (true) { case x < 0: return 'neg'; case x < 10: return 'small'; default: return 'big'; } }; [f(-5), f(5), f(50)]",
    "let hits = 0; const k = (v) => (hits++, v); switch (3) { case k(1): case k(2): case k(3): case k(4): } hits",
    "const f = (x) => { switch (x) { case 1: case 2: return 'low'; case 3: { const y = x * 2; return y; } } }; [f(1), f(2), f(3), f(4)]",
    "switch (2) { case 1: 'one'; break; case 2: 'two'; break; }",
    "const f = (x) => { switch (typeof x) { case 'number': return x + 1; case 'string': return x + '!'; default: return null; } }; [f(1), f('a'), f(null)]",
    "let r = 0; switch (1) { case 1: let y = 7; r = y; } r",
    "let x = 'a'; switch (x) { case 'a': { let y = 1; x = y + 1; } } x",
    "let x = 'a'; switch (x) { case 'a': let y = 1; x = y + 1; break; } x",
    "let x = 'a'; let z = 0; switch (x) { case 'a': const y = 1; z = y; } z",
    "const f = (x) => { switch (x) { case 1: let y = x * 2; return y; } }; f(1)",
  ]);
});

describe("loops", () => {
  sameAsV8([
    "let s = 0; for (let i = 0; i < 5; i++) { if (i === 1) continue; if (i === 4) break; s += i; } s",
    "const r = []; for (const x of [3, 1, 2]) r.push(x * 10); r",
    "const r = []; for (const ch of 'abc') r.push(ch.toUpperCase()); r",
    "const r = []; for (const k in { b: 1, a: 2, 1: 3 }) r.push(k); r",
    "const r = []; for (const i in ['x', 'y']) r.push(typeof i, i); r",
    "let n = 0; while (n < 10) n += 3; n",
    "let n = 0; do { n++; } while (n < 0); n",
    "let i = 0; const r = []; do { r.push(i); i += 2; } while (i < 7); r",
    "let n = 0; while (true) { n++; if (n > 4) break; } n",
    "const r = []; for (let i = 0, j = 5; i < j; i++, j--) r.push([i, j]); r",
    "const r = []; for (const [k, v] of Object.entries({ a: 1, b: 2 })) r.push(k + v); r",
    "const xs = [1, 2, 3]; const r = []; for (const x of xs) { if (x === 1) xs.push(4); r.push(x); } r",
    "let s = ''; for (let i = 3; i--;) s += i; s",
    "const r = []; for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j > i) break; r.push(`${i}${j}`); } } r",
    "let x = 0; for (;;) { if (++x === 3) break; } x",
    "let s = ''; for (const k in 'ab') s += k; s",
    "const r = []; for (const k in [7, 8]) r.push(k + 1); r",
    "const o = { a: 1 }; for (const k in o) { o.b = 2; } Object.keys(o)",
    "const out = []; const o = { a: 1, b: 2, c: 3 }; for (const k in o) { if (k === 'a') delete o.b; out.push(k); } out",
    "let i = 0; do { i++; if (i < 3) continue; break; } while (true); i",
    "let total = 0; for (const { qty, price } of [{ qty: 2, price: 3 }, { qty: 1, price: 4.5 }]) total += qty * price; total",
  ]);
});

describe("labeled break / continue", () => {
  sameAsV8([
    "const r = []; outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j === 1) continue outer; if (i === 2) break outer; r.push(`${i}${j}`); } } r",
    "let found = null; search: for (const row of [[1, 2], [3, 4], [5, 6]]) { for (const v of row) { if (v === 4) { found = v; break search; } } } found",
    "let n = 0; loop: while (true) { n++; do { if (n > 3) break loop; continue loop; } while (false); } n",
    "const r = []; block: { r.push(1); if (r.length) break block; r.push(2); } r",
    "label: { 'x'; break label; }",
    "const r = []; a: for (const x of [1, 2, 3]) { b: for (const y of [1, 2, 3]) { if (y === 2) continue a; if (x === 3) break b; r.push(x * y); } } r",
  ]);
});

describe("closures", () => {
  sameAsV8([
    "const counter = () => { let n = 0; return { inc: () => ++n, get: () => n }; }; const c = counter(); c.inc(); c.inc(); const d = counter(); d.inc(); [c.get(), d.get()]",
    "const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); fs.map((f) => f())",
    "const fs = []; for (var i = 0; i < 3; i++) fs.push(() => i); fs.map((f) => f())",
    "const fs = []; for (const x of ['a', 'b']) fs.push(() => x); fs.map((f) => f())",
    "const fs = []; for (let i = 0; i < 3; i++) { fs.push(() => i); i++; } fs.map((f) => f())",
    "const adder = (a) => (b) => (c) => a + b + c; adder(1)(2)(3)",
    "let x = 'global'; const f = () => x; x = 'changed'; f()",
    "const make = () => { const cache = {}; return (k) => (cache[k] ??= k.length); }; const m = make(); [m('abc'), m('abc'), m('x')]",
    "function outer() { let v = 1; function inner() { return v; } v = 2; return inner(); } outer()",
    "const once = (f) => { let done = false, r; return (...a) => done ? r : (done = true, r = f(...a)); }; const g = once((x) => x * 2); [g(2), g(5)]",
  ]);
});

describe("functions, recursion, hoisting, arrows", () => {
  sameAsV8([
    "function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); } fact(10)",
    "const fib = (n) => n < 2 ? n : fib(n - 1) + fib(n - 2); fib(15)",
    "function isEven(n) { return n === 0 ? true : isOdd(n - 1); } function isOdd(n) { return n === 0 ? false : isEven(n - 1); } [isEven(10), isOdd(7)]",
    "const r = hoisted(2); function hoisted(x) { return x * 21; } r",
    "function f() { return g(); function g() { return 'inner hoisted'; } } f()",
    "const f = function named(n) { return n > 0 ? named(n - 1) + 1 : 0; }; f(4)",
    "const f = (a, b) => a + b; const g = (...xs) => xs.length; [f(1, 2), f(1), g(), g(1, 2, 3)]",
    "const f = () => ({ a: 1 }); f()",
    "const f = (x) => { x.n = 2; x = { n: 3 }; return x.n; }; const o = { n: 1 }; [f(o), o.n]",
    "function noReturn() {} [noReturn(), (() => {})()]",
    "const compose = (...fs) => (x) => fs.reduceRight((acc, f) => f(acc), x); compose((x) => x + 1, (x) => x * 2)(5)",
    "const f = (a, b = 2) => a * b; [f(3), f(3, undefined), f(3, null)]",
    "function flatten(xs) { return xs.reduce((acc, x) => Array.isArray(x) ? acc.concat(flatten(x)) : acc.concat([x]), []); } flatten([1, [2, [3, [4]]], 5])",
    "const f = async (x) => x * 2; typeof f",
    "[(function () { return 1; })(), ((x) => x * x)(7)]",
    "const memo = {}; const fib = (n) => n < 2 ? n : memo[n] ?? (memo[n] = fib(n - 1) + fib(n - 2)); fib(50)",
    "const pipe = (...fs) => (x) => fs.reduce((v, f) => f(v), x); pipe((x) => x + 1, (x) => x * 3, String)(2)",
    "const curry = (f) => (a) => (b) => f(a, b); [curry(Math.max)(3)(7), ((f, ...args) => f(...args))(Math.min, 4, 2, 8)]",
    "const sum = (n) => n === 0 ? 0 : n + sum(n - 1); sum(150)",
    "function f(a) { a = 5; return a; } const v = 1; [f(v), v]",
  ]);
});

describe("try / catch / finally", () => {
  sameAsV8([
    "let r; try { throw new Error('boom'); } catch (e) { r = [e.name, e.message, e instanceof Error]; } r",
    "let r; try { throw 'plain string'; } catch (e) { r = [typeof e, e]; } r",
    "let r; try { throw { code: 42 }; } catch (e) { r = e.code; } r",
    "let r; try { throw 7; } catch { r = 'no binding'; } r",
    "const f = () => { try { return 'try'; } finally { return 'finally'; } }; f()",
    "const log = []; const f = () => { try { log.push('t'); return 'ret'; } finally { log.push('f'); } }; [f(), log]",
    "const f = () => { try { throw new Error('x'); } catch (e) { return 'caught ' + e.message; } finally { 1; } }; f()",
    "const f = () => { try { throw new Error('inner'); } catch (e) { throw new TypeError('outer ' + e.message); } }; let r; try { f(); } catch (e) { r = [e.name, e.message]; } r",
    "let r = []; try { try { throw new RangeError('deep'); } finally { r.push('inner finally'); } } catch (e) { r.push(e.name); } r",
    "const f = () => { for (const x of [1, 2, 3]) { try { if (x === 2) return x; } finally { if (x === 2) return 'fin'; } } }; f()",
    "let r = []; for (let i = 0; i < 3; i++) { try { if (i === 1) continue; r.push(i); } finally { r.push('f' + i); } } r",
    // A finally that calls a block-bodied function keeps the pending return and labelled break.
    "const g = () => { return 'g'; }; const f = () => { try { return 'try'; } finally { g(); } }; f()",
    "const g = () => { return 1; }; let r = []; outer: for (const x of [1, 2]) { for (const y of [1, 2]) { try { r.push([x, y]); break outer; } finally { g(); } } } r",
    "let r; try { null.x; } catch (e) { r = [e instanceof TypeError, e.name]; } r",
    "let r; try { undefinedFn(); } catch (e) { r = e.name; } r",
    "let r; try { JSON.parse('{bad'); } catch (e) { r = e.name; } r",
    "let r; try { 'x'.repeat(-1); } catch (e) { r = e.name; } r",
    "const e = new Error('msg'); [e.message, e.name, String(e), `${e}`]",
    "const errs = [new Error('a'), new TypeError('b'), new RangeError('c'), new SyntaxError('d'), new ReferenceError('e')]; errs.map((e) => [e.name, e.message, e instanceof Error])",
    "const e = new Error(); [e.message, String(e)]",
    "const e = Error('no new'); [e.name, e.message]",
    "const e = new Error('x'); e.name = 'Custom'; [String(e), e.name]",
    "const e = new Error('with data'); e.code = 7; [e.code, e.message]",
    "new Error('returned')",
    "let r; try { throw null; } catch (e) { r = e; } r",
    "let r = 'unset'; try { r = 'try'; } catch (e) { r = 'catch'; } finally { r += '+finally'; } r",
    "try { 1 } finally { 2 }",
    "let r = 'r'; try { 'try' } catch (e) { 'catch' } finally { r = 'f' }",
    "const f = (n) => { if (n < 0) throw new RangeError('negative: ' + n); return Math.sqrt(n); }; const out = []; for (const n of [4, -1]) { try { out.push(f(n)); } catch (e) { out.push(e.message); } } out",
    "let r; try { try { throw new Error('a'); } catch (e) { throw e; } } catch (e2) { r = 'rethrown ' + e2.message; } r",
    "const f = () => { for (;;) { try { return 1; } finally { break; } } return 2; }; f()",
    "const f = () => { let i = 0; try { i = 1; return i; } finally { i = 2; } }; f()",
    "let r; try { throw new Error('m'); } catch ({ message, name }) { r = [message, name]; } r",
    "let r; try { let x = x + 1; } catch (e) { r = e.name; } r",
    "let r; try { const { a } = null; } catch (e) { r = e.name; } r",
    "let r; try { const o = {}; o.f(); } catch (e) { r = e.name; } r",
  ]);
});

describe("uncaught errors fail the run in both", () => {
  it.each([
    "throw new Error('top')",
    "throw 'plain'",
    "null.x",
    "undefined.y.z",
    "notDefined + 1",
    "(1)()",
    "JSON.parse('nope')",
    "[].reduce((a, b) => a + b)",
  ])("%s", async (src) => expectBothThrow(src));
});
