/**
 * Bad input gets a clear error, never a crash: syntax errors and unsupported constructs name
 * the line, the column and what to write instead; hostile programs end cleanly.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { sink, untrustedSource } from "../support/tools.js";

const run = (src: string, limits = {}) => createRuntime({ limits, tools: [untrustedSource({ a: 1 }), sink()] }).run(src);

describe("program errors", () => {
  it("a syntax error names line and column", async () => {
    const r = await run("const x = 1;\nconst y = ;");
    expect(r.status).toBe("failed");
    expect(r.error).toMatchObject({ kind: "syntax", line: 2, column: 11 });
  });

  const unsupported: Array<[string, string, RegExp]> = [
    ["class", "class A {}", /classes are not supported; use plain objects/],
    ["this", "function f() { return this; }", /`this` is not supported/],
    ["new of something else", "const m = new WeakMap();", /only supported for Error types, Date/],
    ["getter", "const o = { get x() { return 1; } };", /getters and setters/],
    ["__proto__", "const o = {}; o.__proto__ = null;", /`__proto__` is not supported/],
    ["prototype", "Array.prototype.push = 1;", /`prototype` is not supported/],
    ["constructor", "const f = [].constructor;", /`constructor` is not supported/],
    ["eval", "eval('1')", /`eval` is not supported/],
    ["Function", "Function('return 1')", /`Function` is not supported/],
    ["import()", "import('fs')", /cannot be imported/],
    ["with", "with (Math) { max(1, 2); }", /`with` is not supported/],
    ["generator", "function* g() { yield 1; }", /generators are not supported/],
    ["tagged template", "const tag = (s) => s; tag`x`", /tagged templates other than String.raw/],
    ["lookbehind regex", "/(?<=a)b/.test('ab')", /not supported.*linear time/],
    ["assignment to a constant", "const x = 1; x = 2;", /`x` is a constant; declare it with let/],
  ];
  it.each(unsupported)("%s is refused with what to write instead", async (_what, src, message) => {
    const r = await run(src);
    expect(r.status).toBe("failed");
    expect(r.error?.kind).toBe("unsupported");
    expect(r.error?.message).toMatch(message);
    expect(r.error?.line).toBe(1);
    expect(r.error?.column).toBeGreaterThanOrEqual(1);
  });

  it("a runtime error names its line", async () => {
    const r = await run("const a = 1;\nconst b = null;\nb.x;");
    expect(r.error).toMatchObject({ kind: "runtime", line: 3 });
    expect(r.error?.message).toContain("Cannot read properties of null");
  });

  it("an error after a call in the same expression names the caller's line, not the callee's last statement", async () => {
    // The callee's last line was chosen by its branch; the error is the caller's.
    const src = (c: boolean) => `function g() {\n  if (${c}) return 1;\n  return 2;\n}\nconst y = g() + null.k;`;
    for (const c of [true, false]) expect((await run(src(c))).error).toMatchObject({ kind: "runtime", line: 5 });
    const cb = (n: number) => `const xs = [${"1, ".repeat(n)}];\nconst y = xs.map((x) => {\n  return x;\n}).length + null.k;`;
    for (const n of [0, 2]) expect((await run(cb(n))).error).toMatchObject({ kind: "runtime", line: 2 });
  });

  it("an undeclared name is a runtime error that says what to do", async () => {
    const r = await run("sendMail({ to: 'x' })");
    expect(r.error?.kind).toBe("runtime");
    expect(r.error?.message).toMatch(/sendMail is not defined; declare it .* or call one of the tools/);
  });

  it("a tool called with arguments that break its schema gets a catchable error", async () => {
    const r = await run("let m; try { send({ value: 1, extra: read_untrusted }); } catch (e) { m = e.message; } typeof m");
    expect(r.status).toBe("completed");
  });
});

describe("limits and hostile programs", () => {
  it("an endless loop ends with a limit error", async () => {
    const r = await run("while (true) {}", { steps: 100_000 });
    expect(r.error?.kind).toBe("limit");
  });

  it("an endless loop also ends on the wall-time limit", async () => {
    const r = await run("let i = 0; while (true) { i++; }", { steps: 1e12, timeMs: 200 });
    expect(r.error).toMatchObject({ kind: "limit" });
    expect(r.error?.message).toContain("time limit");
  });

  it("unbounded recursion ends with a limit error", async () => {
    const r = await run("function f(n) { return f(n + 1) + 1; } f(0)");
    expect(r.error?.kind).toBe("limit");
  });

  it("a string that doubles forever ends with a limit error", async () => {
    const r = await run("let s = 'x'; while (true) { s = s + s; }");
    expect(r.error?.kind).toBe("limit");
  });

  it("an array that grows forever ends with a limit error", async () => {
    const r = await run("const a = []; while (true) { a.push({ k: a.length }); }", { arrayLength: 100_000 });
    expect(r.error?.kind).toBe("limit");
  });

  it("repeat with a huge count ends with a limit error", async () => {
    const r = await run("'abc'.repeat(1e9)");
    expect(r.error?.kind).toBe("limit");
  });

  it("a catastrophic regular expression runs in linear time", async () => {
    const input = "a".repeat(50_000) + "!";
    const r = await run(`/(a+)+$/.test(${JSON.stringify(input)})`);
    expect(r.status).toBe("completed");
    expect(r.value).toBe(false);
  });

  it("text too long for the host, or nested too deep for its stack, is a limit a catch cannot swallow", async () => {
    // Whether the host gives out depends on the data (how long, how deep) and on the host, so
    // catching it would let either decide what the rest of the try does.
    const long = await run(`const x = "a".repeat(4194304); const parts = []; for (let i = 0; i < 140; i++) parts.push(x); let r = "joined"; try { parts.join(""); } catch (e) { r = "caught"; } r;`, { memoryBytes: 64 * 1024 * 1024 });
    expect(long.error).toMatchObject({ kind: "limit" });
    const deep = await run(`let s = "1"; for (let i = 0; i < 20000; i++) s = "[" + s + "]"; let r = "parsed"; try { JSON.parse(s); } catch (e) { r = "caught"; } r;`);
    expect(deep.error).toMatchObject({ kind: "limit" });
    const bad = await run(`let r = "parsed"; try { JSON.parse("[1,"); } catch (e) { r = e.name; } r;`);
    expect(bad.value).toBe("SyntaxError");
  });

  // Each allocation is charged before the host builds it (not after), so these end at the memory
  // limit instead of exhausting the host's heap; with 4 MB they end at once.
  it.each([
    ["Array.from of a long string", `const s = "ab".repeat(2 ** 20); Array.from(s).length;`],
    ["an object spread of a long string", `const s = "ab".repeat(2 ** 20); Object.keys({ ...s }).length;`],
    ["text converted from an array of long parts", `const x = "a".repeat(2 ** 16); const parts = []; for (let i = 0; i < 100; i++) parts.push(x); const keep = []; for (let i = 0; i < 10; i++) keep.push(String(parts)); keep.length;`],
    ["rests copied from a big array", `const big = []; for (let i = 0; i < 20000; i++) big.push(i); const keep = []; for (let i = 0; i < 100; i++) { const [a, ...rest] = big; keep.push(rest); } keep.length;`],
    // Each key an object keeps is charged with it (its text as much as its value): 300 keys of 10,000 characters.
    ["long keys an object keeps", `const base = "k".repeat(10000); const o = {}; for (let i = 0; i < 300; i++) o[base + i] = 1; Object.keys(o).length;`],
    ["rests copied from a big object", `const big = {}; for (let i = 0; i < 2000; i++) big["k" + i] = i; const keep = []; for (let i = 0; i < 100; i++) { const { k0, ...rest } = big; keep.push(rest); } keep.length;`],
    ["closures keeping large environments", `function mk() { ${Array.from({ length: 500 }, (_, i) => `var x${i};`).join(" ")} return () => 1; } const keep = []; for (let i = 0; i < 2000; i++) keep.push(mk()); keep.length;`],
  ])("%s ends at the memory limit", async (_name, src) => {
    const r = await run(src, { memoryBytes: 4 * 1024 * 1024, steps: 10_000_000 });
    expect(r.error).toMatchObject({ kind: "limit" });
    expect(r.error?.message).toMatch(/allocated more than 4194304 bytes|an array grew past/);
  });

  it("a regular expression over a text too long for the time left ends the run before the scan", async () => {
    // RE2 cannot be interrupted mid-scan: the time a scan needs is checked before it starts.
    const r = await run(`const s = "a".repeat(1 << 22); /(a|b)*(c|d)/.test(s);`, { timeMs: 50 });
    expect(r.error).toMatchObject({ kind: "limit" });
    expect(r.error?.message).toContain("time limit of 50 ms");
    // Every scan is checked, matchAll's too.
    const all = await run(`const s = "a".repeat(1 << 22); [...s.matchAll(/(a|b)*(c|d)/g)].length;`, { timeMs: 50 });
    expect(all.error).toMatchObject({ kind: "limit" });
  });

  it("a plan too large or nested too deeply to analyse is refused with what to write instead", async () => {
    // The static pass visits each node once per region around it; it is bounded, so compiling
    // (outside the run's limits) cannot take more than about a second.
    const r = await run("let x = 1;\n" + "if (x) {".repeat(150) + "x;".repeat(20000) + "}".repeat(150));
    expect(r.error).toMatchObject({ kind: "unsupported", line: 2 });
    expect(r.error?.message).toContain("split it into smaller functions");
    const ok = await run("let x = 1;\n" + "if (x) {".repeat(80) + "x;".repeat(4000) + "}".repeat(80));
    expect(ok.status).toBe("completed");
  });

  it("a catch block cannot swallow a limit", async () => {
    const r = await run("let n = 0; try { while (true) { n++; } } catch (e) { n = -1; } n", { steps: 10_000 });
    expect(r.error?.kind).toBe("limit");
  });

  it("prototype pollution through computed keys only writes data", async () => {
    const r = await run(`const o = {}; const p = "__proto__"; o[p] = { polluted: true }; const k = "constructor"; o[k] = 1; JSON.stringify([o, {}.polluted])`);
    expect(r.status).toBe("completed");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("JSON.parse of a __proto__ key makes a plain property", async () => {
    const r = await run(`const o = JSON.parse('{"__proto__": {"x": 1}}'); Object.keys(o)`);
    expect(r.value).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("toString/valueOf tricks do not call user code", async () => {
    const r = await run(`let called = 0; const o = { toString: () => { called++; return "x"; }, valueOf: () => { called++; return 1; } }; const s = "" + o + (o * 2); [s, called]`);
    expect(r.value).toEqual(["[object Object]NaN", 0]);
  });

  it("a program cannot change a builtin for later runs", async () => {
    const runtime = createRuntime();
    const first = await runtime.run(`Math.max = () => 0; Math.max(1, 2)`);
    expect(first.status).toBe("failed");
    const second = await runtime.run(`Math.max(1, 2)`);
    expect(second.value).toBe(2);
  });

  it("deeply nested source is refused before it can exhaust the stack", async () => {
    const r = await run("(".repeat(5000) + "1" + ")".repeat(5000));
    expect(r.status).toBe("failed");
    expect(["syntax", "unsupported"]).toContain(r.error?.kind);
  });

  it("nothing a tool did is lost when a run stops", async () => {
    const r = await run("send({ value: 1 }); send({ value: 2 }); while (true) {}", { steps: 10_000 });
    expect(r.error?.kind).toBe("limit");
    expect(r.calls.map((c) => c.args.value)).toEqual([1, 2]);
  });
});

describe("unbounded allocation", () => {
  it("an object that grows forever ends with a limit error", async () => {
    const r = await createRuntime({ limits: { memoryBytes: 8 * 1024 * 1024 } }).run(`const o = {}; let i = 0; while (true) { o["k" + i] = i; i++; }`);
    expect(r.error?.kind).toBe("limit");
  });

  const small = { memoryBytes: 8 * 1024 * 1024, timeMs: 5_000 };
  it.each([
    ["growing an array's length", "const xs = []; for (let i = 0; i < 60; i++) { const a = []; a.length = 4000000; xs.push(a); }"],
    ["sparse index writes", "const xs = []; for (let i = 0; i < 60; i++) { const a = []; a[3999999] = 1; xs.push(a); }"],
    ["closures kept in a loop", "const fs = []; for (let i = 0; i < 2000000; i++) fs.push(() => i);"],
    ["spreading a long string", 'const s = "a".repeat(1 << 22); [...s].length'],
    ["the keys of a long string", 'const s = "a".repeat(1 << 22); Object.keys(s).length'],
  ])("%s is charged before it is allocated, and the limit names itself", async (_what, program) => {
    const r = await createRuntime({ limits: small }).run(program);
    expect(r.error?.kind).toBe("limit");
    expect(r.error?.message).toMatch(/more than 8388608 bytes|past 4194304 elements/);
  });

  it("a write past the end is charged for the slots it adds, not for the whole array again", async () => {
    // 3,000 writes each two past the end: 6,000 slots in all, far below 4 MB.
    const r = await createRuntime({ limits: { memoryBytes: 4 * 1024 * 1024 } }).run("const a = [0]; for (let i = 0; i < 3000; i++) a[a.length + 1] = 1; a.length");
    expect(r.error).toBeUndefined();
    expect(r.value).toBe(6001);
  });

  it.each([
    ["JSON.stringify", "JSON.stringify(a).length"],
    ["a template literal", "`${a}`.length"],
    ["flat(Infinity)", "a.flat(Infinity).length"],
  ])("%s of a value that shares its parts (a = [a, a]) ends with a limit, not a hang", async (_what, tail) => {
    const r = await createRuntime({ limits: { timeMs: 2_000, steps: 1_000_000 } }).run(`let a = [1];\nfor (let i = 0; i < 40; i++) a = [a, a];\n${tail}`);
    expect(r.error?.kind).toBe("limit");
  });

  it("a string pattern built from data is capped before it is compiled", async () => {
    const r = await run('let m = "";\ntry { "abc".match("a".repeat(5000)); } catch (e) { m = e.name; }\nm');
    expect(r.value).toBe("SyntaxError");
  });

  it("a regex's lastIndex set to any number is clamped as JavaScript does, not a crash", async () => {
    expect((await run('const r = /a/g; r.lastIndex = -1; [r.test("a"), r.lastIndex]')).value).toEqual([true, 1]);
    expect((await run('const r = /a/g; r.lastIndex = 0.5; r.exec("ab")[0]')).value).toBe("a");
  });
});
