/**
 * The branch-not-taken rule, effect by effect: whatever a region decided by untrusted data could
 * write must carry that label afterwards whether or not it ran (or the run must stop), so a sink
 * that reads it behaves the same for both values of the decision. Each effect is tried in a
 * branch, in a function the branch calls, in a loop over untrusted data, in a callback, and in
 * the parts of a try that run or not as an operation on untrusted data fails.
 */
import { describe, it } from "vitest";
import { expectIntegrity, input } from "./support.js";

const STATE = [
  "const u = read_untrusted();",
  "const t = read_trusted();",
  "let v = 0;",
  'let w = "w";',
  "const o = { k: 0, n: { d: 0 } };",
  "const o2 = { k: 0 };",
  "const arr = [1, 2, 3];",
  "function bump() { v = 7; }",
  "function poke(p) { p.k = 7; }",
  "const rows = [{ k: 0 }];",
  "const grid = [[0, 0]];",
  "const box = { list: [1], o: { k: 0 }, f: bump, fs: [bump] };",
  "function pick() { return o2; }",
  "function make() { return bump; }",
  "function countdown(n) { if (n > 0) { v = n; countdown(n - 1); } }",
  "function ping(n) { if (n > 0) { v = n; pong(n - 1); } }",
  "function pong(n) { ping(n); }",
  "const re = /a/g;",
  "const dt = new Date(0);",
  "",
].join("\n");

/** An effect and what a sink reads afterwards. */
const EFFECTS: Array<[string, string]> = [
  ["v = 1;", "v"],
  ["v++;", "v"],
  ["v += 2;", "v"],
  ["[v] = [4];", "v"],
  ["({ k: v } = { k: 3 });", "v"],
  [`w += "x";`, "w"],
  ["o.k = 1;", "o.k"],
  [`o["k"] = 1;`, "o.k"],
  ["o.n.d = 1;", "o.n.d"],
  ["o.n = { d: 9 };", "o.n.d"],
  ["o.m1 = 1;", `"m1" in o`],
  ["o.m1 = 1;", "o.m1"],
  [`o["m" + 1] = 1;`, "o.m1"],
  ["delete o.k;", `"k" in o`],
  ["delete o.k;", "o.k"],
  ["arr[0] = 5;", "arr[0]"],
  ["arr[3] = 5;", "arr.length"],
  ["arr.length = 1;", "arr.length"],
  ["arr.push(4);", "arr.length"],
  ["arr.pop();", "arr.length"],
  ["arr.shift();", "arr[0]"],
  ["arr.unshift(0);", "arr[0]"],
  ["arr.splice(0, 1, 9);", "arr[0]"],
  ["arr.reverse();", "arr[0]"],
  ["arr.sort((a, b) => b - a);", "arr[0]"],
  ["arr.fill(7);", "arr[0]"],
  ["Object.assign(o2, { k: 1 });", "o2.k"],
  ["Object.assign(o2, { z: 1 });", "Object.keys(o2).length"],
  ["bump();", "v"],
  ["poke(o);", "o.k"],
  ["[1].forEach((x) => { v = x; });", "v"],
  ["[1].map((x) => (v = x));", "v"],
  ["arr.forEach(bump);", "v"],
  ["const q = o; q.k = 1;", "o.k"],
  ["(t.c ? o : o2).k = 1;", "o2.k"],
  ["[o, o2][t.a].k = 1;", "o.k"],
  // Effects reached through paths, calls and callbacks the static pass has to follow.
  ["box.list.push(4);", "box.list.length"],
  ["box.list.forEach((x) => { v = x; });", "v"],
  ["box.f();", "v"],
  ["box.fs[0]();", "v"],
  ["const h = box.f; h();", "v"],
  ["arr.forEach(box.f);", "v"],
  ["arr.forEach(make());", "v"],
  ["[o, o2].forEach(poke);", "o2.k"],
  ["Object.assign(box.o, { k: 1 });", "box.o.k"],
  ["Object.assign(pick(), { k: 1 });", "o2.k"],
  [`const tbl = Object.fromEntries([["go", bump]]); tbl.go();`, "v"],
  ["countdown(2);", "v"],
  ["pong(2);", "v"],
  ["rows[0].k = 1;", "rows[0].k"],
  ["grid[0][1] = 5;", "grid[0][1]"],
  ["arr[5] = 1;", "arr.length"],
  ["arr[5] = 1;", "arr[4]"],
  // Hidden state: the random seed, and where a global regex's last match ended.
  ["Math.random();", "Math.random()"],
  ["[1].forEach(Math.random);", "Math.random()"],
  ["const rnd = Math.random; rnd();", "Math.random()"],
  [`re.test("a");`, `re.test("a")`],
  [`re.exec("a");`, `re.exec("a") === null`],
  [`const r = re; r.test("a");`, `re.test("a")`],
  ["re.lastIndex = 1;", `re.test("a")`],
  ["dt.setDate(5);", "dt.getTime()"],
  ["arr.find(bump);", "v"],
];

/** Ways to run an effect, or not, depending on untrusted data. */
const REGIONS: Array<[string, (effect: string) => string, [Parameters<typeof input>[0], Parameters<typeof input>[0]]]> = [
  ["a branch", (e) => `if (u.c) { ${e} }`, [{ u: { c: true } }, { u: { c: false } }]],
  ["a function the branch calls", (e) => `const g = () => { ${e} };\nif (u.c) { g(); }`, [{ u: { c: true } }, { u: { c: false } }]],
  ["a loop over untrusted data", (e) => `for (const x of u.list) { ${e} }`, [{ u: { list: [1] } }, { u: { list: [] } }]],
  ["a callback of an untrusted array", (e) => `u.list.forEach((x) => { ${e} });`, [{ u: { list: [1] } }, { u: { list: [] } }]],
  ["a short circuit", (e) => `const g = () => { ${e} return 1; };\nu.c && g();`, [{ u: { c: true } }, { u: { c: false } }]],
  ["a try cut short when an untrusted value is missing", (e) => `try {\n  u.list[0].toFixed(0);\n  ${e}\n} catch {}`, [{ u: { list: [1] } }, { u: { list: [] } }]],
  ["a catch reached when untrusted text does not parse", (e) => `try {\n  JSON.parse(u.b);\n} catch {\n  ${e}\n}`, [{ u: { b: "x" } }, { u: { b: "1" } }]],
];

describe("the branch not taken", () => {
  for (const [region, wrap, inputs] of REGIONS) {
    it.each(EFFECTS.map(([e, read]) => [e, read]))(`in ${region}: %s, then a sink reads %s`, async (effect, read) => {
      await expectIntegrity(`${STATE}${wrap(effect)}\nsend({ value: ${read} });`, [input(inputs[0]), input(inputs[1])]);
    });
  }
});
