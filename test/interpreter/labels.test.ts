/**
 * The label of a program's value, construct by construct: what must be tainted (explicit and
 * implicit flows) and what must stay trusted (no over-tainting).
 */
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool } from "../../src/index.js";
import { mixedList, secretSource, trustedSource, untrustedSource } from "../support/tools.js";

const U = { a: 1, b: "yes", c: false, list: [1, 2, 3], nested: { deep: "x" } };

async function labelOf(program: string) {
  const runtime = createRuntime({
    tools: [untrustedSource(U), secretSource({ key: "k", n: 7 }), trustedSource({ n: 2, name: "bob" }), mixedList([{ a: "x", n: 1 }, { a: "y", n: 2 }, { a: "z", n: 3 }], [1])],
  });
  const r = await runtime.run(`const u = read_untrusted(); const t = read_trusted(); const l = read_list();\n${program}`);
  expect(r.error, program).toBeUndefined();
  return r.label!;
}

/** [what, program, trusted afterwards?] */
const cases: Array<[string, string, boolean]> = [
  // Explicit flows
  ["a literal", `1 + 2`, true],
  ["trusted data through string methods", `"Hi " + t.name.toUpperCase()`, true],
  ["a field of untrusted data", `u.a`, false],
  ["arithmetic with untrusted", `t.n * 2 + u.a`, false],
  ["a template over untrusted", "`x${u.b}`", false],
  ["String() of an untrusted object", `String(u.list)`, false],
  ["JSON.stringify of an untrusted part", `JSON.stringify({ x: 1, y: u.b })`, false],
  ["JSON.stringify of trusted parts", `JSON.stringify({ x: 1, y: t.name })`, true],
  ["an untrusted key", `const o = { a: 1, yes: 2 }; o[u.b]`, false],
  ["length of an untrusted list", `u.list.length`, false],
  ["an error message built from untrusted text", `try { throw new Error(u.b) } catch (e) { e.message }`, false],
  ["split of untrusted text", `u.b.split("")[0]`, false],
  ["regex over untrusted text", `/y/.test(u.b)`, false],
  ["Object.keys of an object with an untrusted key", `const o = {}; o[u.b] = 1; Object.keys(o).length`, false],
  ["Object.keys of a trusted object", `Object.keys({ a: 1, b: 2 }).length`, true],
  // Containers keep per-part labels
  ["a trusted neighbour of an untrusted item", `l[0].a`, true],
  ["the untrusted item itself", `l[1].a`, false],
  ["map keeps per-element labels", `l.map((e) => e.n * 2)[2]`, true],
  ["map's untrusted element", `l.map((e) => e.n * 2)[1]`, false],
  ["slice keeps labels", `l.slice(2)[0].a`, true],
  ["filter's result depends on every decision", `l.filter((e) => e.a !== "y").length`, false],
  ["find depends on the decisions made", `l.find((e) => e.a === "z").n`, false],
  ["some depends on the decisions made", `l.some((e) => e.a === "y")`, false],
  ["sort order depends on comparisons", `[...l].sort((x, y) => x.a < y.a ? 1 : -1)[0].n`, false],
  ["reduce over an untrusted element", `l.reduce((acc, e) => acc + e.n, 0)`, false],
  ["includes compares the elements up to the match: past an untrusted one", `l.map((e) => e.a).includes("z")`, false],
  ["includes compares the elements up to the match: before any untrusted one", `l.map((e) => e.a).includes("x")`, true],
  ["includes without a match compares every element", `l.map((e) => e.a).includes("w")`, false],
  ["join joins the elements' labels", `l.map((e) => e.a).join(",")`, false],
  // Implicit flows
  ["if: the taken branch", `let x = 0; if (u.c === false) { x = 1; } x`, false],
  ["if: the branch not taken", `let x = 0; if (u.c) { x = 1; } x`, false],
  ["if with a trusted condition", `let x = 0; if (t.n > 1) { x = 1; } x`, true],
  ["?: decides the value", `u.c ? 1 : 2`, false],
  ["&& decides the value", `u.c && 1`, false],
  ["|| short-circuit assignment not taken", `let x = 0; u.a > 0 || (x = 5); x`, false],
  ["?? decides", `u.missing ?? 3`, false],
  ["switch on untrusted", `let x = 0; switch (u.a) { case 1: x = 1; break; default: x = 2; } x`, false],
  ["a loop bounded by untrusted data", `let n = 0; for (const x of u.list) { n = 1; } n`, false],
  ["while on untrusted", `let n = 0; while (n < u.a) { n++; } n`, false],
  ["break under untrusted, variable written after the break", `let n = 0; for (const x of [1, 2, 3]) { if (u.c) break; n = x; } n`, false],
  ["continue under untrusted", `let n = 0; for (const x of [1, 2, 3]) { if (u.a === x) continue; n += 1; } n`, false],
  ["return under untrusted", `function f() { if (u.c) return 1; return 2; } f()`, false],
  ["a variable written by a function after an early return", `let n = 0; function f() { if (u.c) return; n = 1; } f(); n`, false],
  ["a variable written by a function called under a branch not taken", `let n = 0; function f() { n = 1; } if (u.c) f(); n`, false],
  ["an object field written under a branch not taken", `const o = { k: 0 }; if (u.c) o.k = 1; o.k`, false],
  ["an array pushed under a branch not taken", `const a = []; if (u.c) a.push(1); a.length`, false],
  ["aliasing: a write through another name", `const a = { k: 0 }; const b = a; if (u.c) b.k = 1; a.k`, false],
  ["a callback decides what a variable holds", `let seen = 0; u.list.forEach((x) => { if (x > 2) seen = x; }); seen`, false],
  ["throw under untrusted, caught", `let x = 0; try { if (u.c) throw 1; x = 1; } catch (e) { x = 2; } x`, false],
  ["an exception decided by untrusted data", `let x = 0; try { u.nested.missing.deep; x = 1; } catch (e) { x = 2; } x`, false],
  ["a trusted value computed after an untrusted branch closed", `let x = 0; if (u.c) { x = 1; } let y = t.n + 1; y`, true],
  ["a trusted value after a loop with an untrusted break", `for (const x of [1, 2]) { if (u.c) break; } t.n`, true],
  // Found by the generated-program property: a break that ends a switch (or a labelled block)
  // must not leave the branch's label on everything after it.
  ["a trusted value after a switch with a break inside an untrusted branch", `if (u.c === false) { switch (t.n) { case 2: break; default: 1; } } t.n`, true],
  ["a trusted value after a labelled block left by an untrusted break", `lbl: { if (u.c === false) break lbl; } t.n`, true],
  ["a variable written after an untrusted break out of a labelled block", `let x = 0; lbl: { if (u.c === false) break lbl; x = 1; } x`, false],
  ["which keys exist after a delete under an untrusted branch", `const o = { k: 0 }; if (u.c) { delete o.k; } "m" in o`, false],
  ["a key written after a spread whose length untrusted data decided", `Math.max(0, ...u.list)`, false],
  ["destructuring defaults decided by untrusted data", `const { missing = 5 } = u; missing`, false],
  ["an optional chain decided by untrusted data", `u.nothing?.deep ?? 1`, false],
  // Rows for Stryker survivors of the label rules (rules.ts), each checked to fail with its mutant.
  ["text of an array holding an array with an untrusted element", `String([[u.b]])`, false],
  ["text of an array holding a Map with an untrusted entry", `String([new Map([["k", u.b]])])`, false],
  ["an element pushed after a write one past the end", `const a = [u.b]; a[1] = 0; a.push(u.b); a[2]`, false],
  ["what a function returns after a loop that may return, when it did not", `function g() { while (u.c) { return 1; } return 2; } g()`, false],
  ["Object.assign with untrusted data deciding how many sources: only the target changes", `const o = { k: 0 }; const p = { j: 1 }; Object.assign(o, ...u.list); p.j`, true],
  ["a pure function data chose, given an object, changes nothing else", `const g = (a) => 0; const h = (a) => 1; const f = u.c ? g : h; f({}); 5`, true],
  ["a pure function data chose, given undefined, changes nothing else", `const g = (a) => 0; const h = (a) => 1; const f = u.c ? g : h; f(undefined); 5`, true],
  ["after a branch not taken that writes through a variable data chose", `const a = { k: 0 }; const b = { k: 0 }; const o = u.a === 1 ? a : b; if (u.c) { o.k = 1; } 1`, false],
  ["a spread whose text bounds its keys leaves the other keys", `const o = { a: 1, b: 2 }; const r = { ...o, ...(u.c ? { a: 3 } : {}) }; r.b`, true],
  ["an object made in a branch that ran, stored under an untrusted key and changed through it", `const g = {}; if (!u.c) { g[u.b] = { n: 0 }; g[u.b].n = 1; } g[u.b].n`, false],
  ["a branch that cannot throw, inside a try, leaves the rest of the try alone", `let w = 0; const c = u.c; try { if (c) { w = 1; } w = 2; } catch {} w`, true],
  ["the program's value stays its own when a later call's branch is decided by untrusted data", `let v = 0; function g() { if (u.c) { v = 1; } } 5; let r = g();`, true],
  ["a builtin held in a variable, called with a callback in a branch not taken", `let v = 0; function bump() { v = 7; } const from = Array.from; if (u.c) { from([1], bump); } v`, false],
  ["a builtin held in a variable that calls nothing, given a function in a branch not taken", `let v = 0; function bump() { v = 7; } const keys = Object.keys; if (u.c) { keys(bump); } v`, true],
  ["a builtin that writes its first argument, passed as a callback in a branch not taken", `const o = { k: 0 }; if (u.c) { [o].forEach(Object.assign); } o.k`, false],
  ["after a call in a branch not taken of a variable that holds no function (one may be put there first)", `let g; if (u.c) { try { g(); } catch {} } 1`, false],
  ["the keys of an Error whose name was deleted", `const e = new Error("x"); delete e.name; Object.keys(e).length`, true],
  ["a function data chose that calls only builtins without effects runs", `const f = u.c ? (x) => parseInt(x) : (x) => Number(x); f("1"); 5`, true],
  ["an outside object stored under an untrusted key in a branch that ran keeps its label", `const item = { n: 0 }; const g = {}; if (!u.c) { g[u.b] = item; } item.n`, true],
  ["an object made in a branch that ran, stored under a secret key and changed through it", `const s = read_secret(); const g = {}; if (!u.c) { g[s.key] = { n: 0 }; g[s.key].n = 1; } g[s.key].n`, false],
];

describe("labels of values", () => {
  it.each(cases)("%s", async (_what, program, trusted) => {
    const label = await labelOf(program);
    expect(label.trusted).toBe(trusted);
  });

  it("secret data keeps its readers through computation", async () => {
    const runtime = createRuntime({ tools: [secretSource({ key: "k", n: 7 })] });
    const r = await runtime.run(`const s = read_secret(); s.key.toUpperCase() + "!"`);
    expect(r.label?.readers).toEqual(["alice"]);
    expect(r.label?.trusted).toBe(true);
  });

  it("a secret variable keeps its readers after a branch not taken could have changed it", async () => {
    const runtime = createRuntime({ tools: [untrustedSource(U), secretSource({ key: "k", n: 7 })] });
    const r = await runtime.run(`const u = read_untrusted(); const s = read_secret(); let v = s.n; if (u.c) { v = 1; } v`);
    expect(r.label?.readers).toEqual(["alice"]);
    expect(r.label?.trusted).toBe(false);
  });

  it("joining secret and untrusted data keeps both restrictions and both sources", async () => {
    const runtime = createRuntime({ tools: [secretSource({ key: "k" }), untrustedSource({ b: "x" })] });
    const r = await runtime.run(`const s = read_secret(); const u = read_untrusted(); s.key + u.b`);
    expect(r.label?.readers).toEqual(["alice"]);
    expect(r.label?.trusted).toBe(false);
    expect(r.label?.sources).toEqual(["email:eve@evil.com", "file:secret.txt"]);
  });

  it("tool calls carry the control flow that led to them", async () => {
    const runtime = createRuntime({ tools: [untrustedSource({ c: true }), trustedSource({ n: 1 })] });
    const r = await runtime.run(`const u = read_untrusted(); if (u.c) { read_trusted(); } read_trusted();`);
    expect(r.calls.map((c) => c.context?.trusted)).toEqual([true, false, true]);
  });
});

describe("writes through a reference that data chose", () => {
  const run = (src: string) =>
    createRuntime({ tools: [untrustedSource(U), mixedList([{ a: "x", n: 1 }, { a: "y", n: 2 }], [1])] }).run(`const u = read_untrusted(); const l = read_list();\n${src}`);

  it("stop the run when the object written is less labelled than the choice", async () => {
    const r = await run(`const o1 = { k: 0 }; const o2 = { k: 0 }; const t = u.c ? o1 : o2; t.k = 1; o2.k`);
    expect(r.status).toBe("failed");
    expect(r.error?.message).toMatch(/cannot change an object that untrusted or private data chose/);
    expect(r.error?.message).toMatch(/build a new value instead/);
  });

  it("say which data chose the object, in words a person can check", async () => {
    const r = await run(`const o1 = { k: 0 }; const o2 = { k: 0 }; (u.c ? o1 : o2).k = 1;`);
    expect(r.error?.message).toContain("(untrusted public from email:eve@evil.com)");
    const many = Label.of({ readers: ["alice", "bob", "carol", "dave"], trusted: true, sources: ["a:1", "b:2", "c:3", "d:4", "e:5"] });
    const source = defineTool({ name: "read_private", description: "Reads private data.", parameters: { type: "object" }, label: () => many, run: () => ({ c: true }) });
    const r2 = await createRuntime({ tools: [source] }).run(`const p = read_private(); const o1 = { k: 0 }; const o2 = { k: 0 }; (p.c ? o1 : o2).k = 1;`);
    expect(r2.error?.message).toContain("(trusted readers alice, bob, carol, … from a:1, b:2, c:3 and 2 more)");
    const few = Label.of({ readers: ["alice"], trusted: true, sources: ["a:1", "b:2", "c:3"] });
    const r3 = await createRuntime({ tools: [{ ...source, label: () => few }] }).run(`const p = read_private(); const o1 = { k: 0 }; const o2 = { k: 0 }; (p.c ? o1 : o2).k = 1;`);
    expect(r3.error?.message).toContain("(trusted readers alice from a:1, b:2, c:3)");
  });

  it("stop when the object written may be read by more people than the secret that chose it", async () => {
    const shared = Label.of({ trusted: true, readers: ["alice", "bob"], sources: ["file:shared"] });
    const source = (name: string, label: Label, data: unknown) => defineTool({ name, description: "Reads data.", parameters: { type: "object" }, label: () => label, run: () => data });
    const tools = [source("read_shared", shared, { k: 0 }), source("read_shared2", shared, { k: 0 }), secretSource({ c: true })];
    const r = await createRuntime({ tools }).run(`const x = read_shared(); const y = read_shared2(); const s = read_secret(); (s.c ? x : y).k = 1; y.k`);
    expect(r.status).toBe("failed");
    expect(r.error?.message).toContain("cannot change an object that untrusted or private data chose (trusted readers alice from file:secret.txt, file:shared)");
    // Readers the choice allows: the write goes through.
    const r2 = await createRuntime({ tools: [source("read_shared", Label.of({ trusted: true, readers: ["alice"] }), { k: 0 }), source("read_shared2", Label.of({ trusted: true, readers: ["alice"] }), { k: 0 }), secretSource({ c: true })] })
      .run(`const x = read_shared(); const y = read_shared2(); const s = read_secret(); (s.c ? x : y).k = 1; x.k`);
    expect(r2.status).toBe("completed");
    expect(r2.value).toBe(1);
  });

  it("allow the group-by pattern: objects stored under a key carry the key's label", async () => {
    const r = await run(`const groups = {}; for (const e of l) { const g = groups[e.a] || (groups[e.a] = { n: 0 }); g.n += e.n; } [groups.x.n, groups.y.n]`);
    expect(r.status).toBe("completed");
    expect(r.value).toEqual([1, 2]);
  });

  it("allow changing objects a tool returned (they carry the tool's label)", async () => {
    const r = await run(`for (const e of l) { e.seen = true; } l.map((e) => e.seen)`);
    expect(r.status).toBe("completed");
    expect(r.value).toEqual([true, true]);
  });

  it("stop a call of a state-changing function that data chose", async () => {
    const r = await run(`let n = 0; const inc = () => { n++; }; const noop = () => 0; const f = u.c ? noop : inc; f(); n`);
    expect(r.status).toBe("failed");
    expect(r.error?.message).toMatch(/which function runs was chosen by untrusted or private data/);
  });

  it("allow a pure function that data chose", async () => {
    const r = await run(`const up = (s) => s.toUpperCase(); const low = (s) => s.toLowerCase(); const f = u.c ? up : low; f("Ab")`);
    expect(r.status).toBe("completed");
    expect(r.value).toBe("ab");
    expect(r.label?.trusted).toBe(false);
  });
});

describe("objects made under a decision", () => {
  it("the accumulate pattern works: `map[k] || { ... }` then changing it", async () => {
    // Every item is untrusted, as a tool's emails usually are. (When trusted and untrusted keys
    // mix in one map, changing an object stored under a trusted key stops the run: see README.)
    const r = await createRuntime({ tools: [mixedList([{ a: "x", n: 1 }, { a: "y", n: 2 }, { a: "x", n: 4 }], [0, 1, 2])] }).run(
      `const l = read_list(); const by = {}; for (const e of l) { const g = by[e.a] || { total: 0 }; g.total += e.n; by[e.a] = g; } [by.x.total, by.y.total]`,
    );
    expect(r.status).toBe("completed");
    expect(r.value).toEqual([5, 2]);
  });
});
