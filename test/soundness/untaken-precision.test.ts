/**
 * The other half of the branch-not-taken rule: what a region decided by untrusted data could
 * NOT write keeps its label, whether the region ran or not. Over-tainting is not a leak, but
 * every needless taint is an approval a person is asked for, so the upgrade must name the
 * parts a region writes and no more.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { trustedSource, untrustedSource } from "../support/tools.js";

const STATE = [
  "const t = read_trusted();",
  "let v = 0;",
  'let w = "w";',
  "const o = { k: 0, n: { d: 0 } };",
  "const o2 = { k: 0 };",
  "const arr = [1, 2, 3];",
  "const long = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];",
  "const box = { list: [1], f: bump };",
  "const rows = [{ k: 0 }, { k: 0 }];",
  "function bump() { v = 7; }",
  "const once = /a/;",
  'const named = { name: "n", k: 0 };',
  "function countdown(n) { if (n > 0) { v = n; countdown(n - 1); } }",
  "function ping(n) { if (n > 0) { v = n; pong(n - 1); } }",
  "function pong(n) { ping(n); }",
  "",
].join("\n");

/** An effect, and reads of parts it cannot change. */
const EFFECTS: Array<[string, string[]]> = [
  ["v = 1;", ["w", "o.k"]],
  ["o.k = 1;", ["o2.k", "o.n.d", `"k" in o`, "Object.keys(o).length"]],
  ["o.n.d = 1;", ["o.k", "Object.keys(o.n).length"]],
  ["delete o.k;", ["o2.k", "o.n.d"]],
  ["arr[0] = 5;", ["arr[1]", "arr.length"]],
  ["long[10] = 5;", ["long[0]", "long[11]", "long.length"]],
  ["rows[0].k = 1;", ["rows[1].k", "rows.length"]],
  ["arr.push(4);", ["o.k", "box.list.length"]],
  ["box.list.push(4);", ["arr.length", "box.f === bump"]],
  ["Object.assign(o2, { k: 1 });", ["o.k", "arr.length"]],
  ["bump();", ["o.k", "w"]],
  ["box.f();", ["o.k", "w"]],
  ["arr.forEach(bump);", ["o.k", "w"]],
  ["arr.forEach(Math.abs);", ["o.k", "w"]],
  ["arr.forEach((x) => { v = x; });", ["o.k", "arr[0]"]],
  [`once.test("a");`, [`once.test("a")`, "Math.random() < 2"]],
  ["Math.random();", ["o.k", `once.test("a")`]],
  // A plain object's `name` is an ordinary key: writing it does not decide which keys there are.
  [`named.name = "m";`, ["Object.keys(named).length"]],
  // A write that fails on a path that names nothing (o.x is undefined), caught.
  ["try { o.x.y = 1; } catch {}", ["o.k", "w"]],
  // replace calls its second argument only when it is a function: a path naming none calls nothing.
  [`w = "ab".replace("a", o.none);`, ["o.k", "arr.length"]],
  [`w = "ab".replace("a", o.n);`, ["o.k", "arr.length"]],
  // Object.assign writes its first argument only: a literal there is a new object, nothing else changes.
  ["Object.assign({}, o2);", ["o.k", "o2.k"]],
  // Method calls on untrusted data that can only reach builtins without effects.
  ["w = String(u.list.slice(0, 1).length);", ["o.k", "arr.length"]],
  ["u.list.map((x) => x + 1);", ["o.k", "w"]],
  ["u.list.forEach((x) => x + 1);", ["o.k", "w"]],
  ["countdown(2);", ["o.k", "w"]],
  ["pong(2);", ["o.k", "w"]],
];

/** Ways to run an effect depending on untrusted data, and the two values of the decision. */
const REGIONS: Array<[string, (effect: string) => string]> = [
  ["a branch", (e) => `if (u.c) { ${e} }`],
  ["a function the branch calls", (e) => `const g = () => { ${e} };\nif (u.c) { g(); }`],
  ["a loop over untrusted data", (e) => `for (const x of u.list) { ${e} }`],
];

async function trustedAfter(program: string, c: boolean): Promise<boolean> {
  const runtime = createRuntime({ tools: [untrustedSource({ c, list: c ? [1] : [] }), trustedSource({ c: true })] });
  const r = await runtime.run(`const u = read_untrusted();\n${program}`);
  expect(r.error, program).toBeUndefined();
  return r.label!.trusted;
}

describe("the branch not taken leaves the rest alone", () => {
  for (const [region, wrap] of REGIONS) {
    const cases = EFFECTS.flatMap(([effect, reads]) => reads.map((read) => [effect, read]));
    it.each(cases)(`in ${region}: after %s, %s stays trusted`, async (effect, read) => {
      const program = `${STATE}${wrap(effect)}\n${read}`;
      expect(await trustedAfter(program, false), `${program}\n(not run)`).toBe(true);
      expect(await trustedAfter(program, true), `${program}\n(run)`).toBe(true);
    });
  }
});
