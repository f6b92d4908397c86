/**
 * Writes through keys that untrusted data chose. Which part such a write changes is decided by
 * the key, so every part it might have changed, and the container's set of keys, must carry the
 * key's label afterwards; and an object stored under such a key must still be usable through it.
 */
import { describe, expect, it } from "vitest";
import { cleanFor, runPair, soundnessTools, type SoundnessInput } from "../../src/testing/index.js";
import { RUNTIME, expectIntegrity, input } from "./support.js";

const STATE = "const u = read_untrusted();\nconst o = { k: 0, m: 0 };\nconst arr = [1, 2, 3];\n";

/** A write through an untrusted key, what a sink reads afterwards, and two keys it tells apart. */
const CASES: Array<[string, string, [Partial<SoundnessInput["u"]>, Partial<SoundnessInput["u"]>]]> = [
  ["o[u.b] = 1;", "o.k", [{ b: "k" }, { b: "m" }]],
  ["o[u.b] = 1;", "o.k", [{ b: "k" }, { b: "zz" }]],
  ["o[u.b] = 1;", "Object.keys(o).length", [{ b: "k" }, { b: "zz" }]],
  ["o[u.b] = 1;", `"zz" in o`, [{ b: "k" }, { b: "zz" }]],
  ["o[u.b] = { n: 1 };", "o.k?.n ?? 0", [{ b: "k" }, { b: "m" }]],
  ["arr[u.a] = 9;", "arr[0]", [{ a: 0 }, { a: 1 }]],
  ["arr[u.a] = 9;", "arr.length", [{ a: 1 }, { a: 5 }]],
  ["arr[u.a] = 9;", "arr[4]", [{ a: 4 }, { a: 5 }]],
  ["delete o[u.b];", "o.k", [{ b: "k" }, { b: "m" }]],
];

describe("writes through untrusted keys", () => {
  it.each(CASES)("%s then a sink reads %s", async (write, read, us) => {
    await expectIntegrity(`${STATE}${write}\nsend({ value: ${read} });`, [input({ u: us[0] }), input({ u: us[1] })]);
  });

  /** Grouping by an untrusted or private field is the common case; it must work without a stop. */
  it.each([
    ["an object", "groups[u.b] = { n: 0 };\ngroups[u.b].n = groups[u.b].n + 1;", "groups[u.b].n", "untrusted"],
    ["an array", "groups[u.b] = [];\ngroups[u.b].push(1);", "groups[u.b].length", "untrusted"],
    ["a nested object", "groups[u.b] = { inner: { n: 0 } };\ngroups[u.b].inner.n = 2;", "groups[u.b].inner.n", "untrusted"],
    ["a function", "groups[u.b] = (x) => x + 1;", "groups[u.b](0)", "untrusted"],
    ["an object, by a secret key", "groups[u.b] = { n: 0 };\ngroups[u.b].n = groups[u.b].n + 1;", "groups[u.b].n", "secret"],
  ])("%s stored under a key data chose can be used and changed through it", async (_, body, read, source) => {
    const program = `const u = read_${source}();\nconst groups = {};\n${body}\nsend({ value: ${read} });`;
    const record = (b: string) => (source === "secret" ? input({ s: { b } }) : input({ u: { b } }));
    const pair = await runPair(program, [record("x"), record("y")], {
      tools: (i) => soundnessTools(i, { guard: source === "secret" ? "confidentiality" : "integrity" }),
      observe: ["send"],
      clean: cleanFor(source === "secret" ? "secret" : "untrusted"),
      runtime: RUNTIME,
    });
    for (const r of pair.results) expect(r.status, `${program}\n${r.error?.message}`).toBe("completed");
    expect(pair.results[0].calls.at(-1)?.args).toEqual({ value: read.endsWith("length") ? 1 : read.endsWith("inner.n") ? 2 : 1 });
  });
});
