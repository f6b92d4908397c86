/**
 * Labels through the builtin behaviours the differential suite added or fixed (JSON replacer
 * and reviver functions, allow lists, Error causes, positions and limits of search methods,
 * collation options, null sources of Object.assign): results must still join their inputs.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { trustedSource, untrustedSource } from "../support/tools.js";

const U = { a: 1, b: "yes", c: false, list: [1, 2, 3] };

async function labelOf(program: string) {
  const runtime = createRuntime({ tools: [untrustedSource(U), trustedSource({ n: 2, name: "bob" })] });
  const r = await runtime.run(`const u = read_untrusted(); const t = read_trusted();\n${program}`);
  expect(r.error, program).toBeUndefined();
  return r.label!;
}

/** [what, program, trusted afterwards?] */
const cases: Array<[string, string, boolean]> = [
  ["stringify of untrusted data with a replacer", `JSON.stringify(u, (k, v) => v)`, false],
  ["stringify of trusted data with a replacer", `JSON.stringify(t, (k, v) => v)`, true],
  ["a replacer answering untrusted data", `JSON.stringify({ x: 1 }, (k, v) => (k === "x" ? u.b : v))`, false],
  ["an untrusted allow list", `JSON.stringify({ a: 1, yes: 2 }, [u.b])`, false],
  ["a trusted allow list", `JSON.stringify({ a: 1, yes: 2 }, ["a"])`, true],
  ["a replacer's side effect decided by untrusted data", `let seen = false; JSON.stringify(u, (k, v) => { if (v === "yes") seen = true; return v; }); seen`, false],
  ["a replacer's calls counted over untrusted keys", `let n = 0; JSON.stringify(u.list, (k, v) => { n = 1; return v; }); n`, false],
  ["parse of untrusted text with a reviver", `JSON.parse(JSON.stringify(u), (k, v) => v).b`, false],
  ["a reviver answering untrusted data", `JSON.parse('{"a": 1}', (k, v) => (k === "a" ? u.a : v)).a`, false],
  ["a reviver over trusted text", `JSON.parse('{"a": 1}', (k, v) => v).a`, true],
  ["a reviver's side effect decided by untrusted data", `let seen = false; JSON.parse(JSON.stringify(u), (k, v) => { if (v === "yes") seen = true; return v; }); seen`, false],
  ["a reviver's calls over trusted text", `let n = 0; JSON.parse("[1, 2]", (k, v) => { n++; return v; }); n`, true],
  ["an untrusted Error cause", `new Error("x", { cause: u.b }).cause`, false],
  ["a trusted Error cause", `new Error("x", { cause: t.name }).cause`, true],
  ["whether there is a cause, decided by untrusted data", `const o = {}; if (u.c) o.cause = 1; "cause" in new Error("x", o)`, false],
  ["lastIndexOf from an untrusted position", `[1, 2, 1].lastIndexOf(1, u.a)`, false],
  ["includes from an untrusted position", `[1, 2, 3].includes(1, u.a)`, false],
  ["string lastIndexOf from an untrusted position", `"abcabc".lastIndexOf("b", u.a)`, false],
  ["split with an untrusted limit", `"a,b,c".split(",", u.a).length`, false],
  ["split by a trusted regex", `"a1b".split(/\\d/)[1]`, true],
  ["localeCompare with untrusted options", `"a".localeCompare("A", undefined, { numeric: u.c })`, false],
  ["localeCompare of trusted strings", `t.name.localeCompare("alice")`, true],
  ["match with an untrusted string pattern", `"yes".match(u.b)[0]`, false],
  ["a $-replacement with an untrusted string", `"abc".replace("b", u.b + "$&")`, false],
  ["Object.assign from an untrusted undefined source", `const o = {}; Object.assign(o, u.missing); Object.keys(o).length`, false],
  ["Object.assign from a trusted null source", `const o = {}; Object.assign(o, null, { a: 1 }); Object.keys(o).length`, true],
  // The completion value: a loop untrusted data ran zero times, a try whose catch swallowed a
  // data-decided throw, a labelled block a data-decided break left.
  ["a logical assignment an untrusted value kept", `const o = { k: u.c }; o.k &&= 1; o.k`, false],
  ["a logical assignment over a key untrusted data may have made", `const o = {}; if (u.c) o.k = 1; o.k &&= 2; "k" in o`, false],
  ["a logical assignment over a trusted missing key", `const o = {}; o.k &&= 2; "k" in o`, true],
  ["a logical assignment that does not assign, decided by an untrusted value", `const o = { k: 1 }; o.j &&= 1; let n = u.a; if (n > 5) o.j ||= 2; "j" in o`, false],
  ["the completion of a loop over an untrusted list", `"ok"; for (const x of u.list) { "ran"; }`, false],
  ["the completion of a loop over a trusted list", `"ok"; for (const x of [1]) { "ran"; }`, true],
  ["the completion of a try whose throw untrusted data decided", `try { "before"; JSON.parse(u.b); "after"; } catch {}`, false],
  ["the completion of a labelled block an untrusted break left", `L: { "a"; if (u.c) break L; "b"; }`, false],
];

describe("labels through fixed builtins", () => {
  it.each(cases)("%s", async (_what, program, trusted) => {
    expect((await labelOf(program)).trusted).toBe(trusted);
  });
});
