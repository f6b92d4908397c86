/**
 * Labels through Map and Set: per entry, on keys (which keys exist) and on size; the implicit
 * flows of a set or delete under a decision (taken or not), a lookup of a secret key, and order.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { secretSource, trustedSource, untrustedSource } from "../support/tools.js";

async function labelOf(program: string) {
  const runtime = createRuntime({ tools: [untrustedSource({ a: 2, b: "k", c: true, d: false }), secretSource({ a: 1, b: "k", c: true }), trustedSource({ n: 2, b: "k" })] });
  const r = await runtime.run(`const u = read_untrusted(); const s = read_secret(); const t = read_trusted();\n${program}`);
  expect(r.error, program).toBeUndefined();
  return r.label!;
}

/** [what, program, trusted afterwards?] */
const cases: Array<[string, string, boolean]> = [
  ["a trusted entry beside an untrusted one", "const m = new Map([['a', t.n], ['b', u.a]]); m.get('a')", true],
  ["the untrusted entry", "const m = new Map([['a', t.n], ['b', u.a]]); m.get('b')", false],
  ["has of a trusted key", "const m = new Map(); m.set('a', u.a); m.has('a')", true],
  ["size after trusted sets of untrusted values", "const m = new Map(); m.set('a', u.a); m.set('b', u.b); m.size", true],
  ["a key chosen by untrusted data", "const m = new Map(); m.set(u.b, 1); m.has('k')", false],
  ["size after a set of an untrusted key", "const m = new Map(); m.set(u.b, 1); m.size", false],
  ["a set in a branch taken on untrusted data", "const m = new Map(); if (u.c) m.set('x', 1); m.has('x')", false],
  ["a set in a branch not taken on untrusted data", "const m = new Map(); if (u.d) m.set('x', 1); m.has('x')", false],
  ["size after a set not taken", "const m = new Map(); if (u.d) m.set('x', 1); m.size", false],
  ["a get after a set not taken", "const m = new Map([['x', 0]]); if (u.d) m.set('x', 1); m.get('x')", false],
  ["a delete not taken", "const q = new Set([1]); if (u.d) q.delete(1); q.has(1)", false],
  ["a clear not taken", "const q = new Set([1]); if (u.d) q.clear(); q.size", false],
  ["has of an untrusted key", "const q = new Set(['k', 'j']); q.has(u.b)", false],
  ["has of a trusted key in a set built from trusted data", "const q = new Set([t.b, 'j']); q.has('k')", true],
  ["iteration order decided by untrusted data", "const m = new Map(); if (u.c) m.set('a', 1); m.set('b', 2); [...m.keys()][0]", false],
  ["iteration of trusted entries", "const m = new Map([['a', 1], ['b', 2]]); m.set('c', u.a); [...m.keys()].join()", true],
  ["a trusted value in a for...of beside an untrusted one", "const m = new Map([['a', t.n], ['b', u.a]]); let r = 0; for (const [k, v] of m) if (k === 'a') r = v; r", true],
  ["forEach over untrusted values", "const m = new Map([['b', u.a]]); let r = 0; m.forEach((v) => { r = v; }); r", false],
  ["Object.fromEntries keeps a trusted entry", "Object.fromEntries(new Map([['a', t.n], ['b', u.a]])).a", true],
  ["Array.from(set) of untrusted items", "Array.from(new Set(u.b)).length", false],
  ["a secret key decides has", "const q = new Set(['k']); q.has(s0())", false],
];

describe("labels through Map and Set", () => {
  it.each(cases)("%s", async (_what, program, trusted) => {
    const label = await labelOf(program.replace("s0()", "s.b"));
    expect(label.trusted && label.readers === "public", program).toBe(trusted);
  });
});
