/**
 * Labels through the builtins of issue 15 phase 2: what must be tainted, and, where a builtin
 * follows a refinement (copies keep each element's own label), what must stay trusted.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { mixedList, secretSource, trustedSource, untrustedSource } from "../support/tools.js";

async function labelOf(program: string) {
  const runtime = createRuntime({
    now: "2025-12-20",
    tools: [untrustedSource({ a: 2, b: "yes 2025", n: 3, list: [3, 1] }), secretSource({ a: 1 }), trustedSource({ n: 2, name: "bob 1999", list: [2, 1] }), mixedList([{ n: 1 }, { n: 2 }], [1])],
  });
  const r = await runtime.run(`const u = read_untrusted(); const s = read_secret(); const t = read_trusted(); const l = read_list();\n${program}`);
  expect(r.error, program).toBeUndefined();
  return r.label!;
}

/** [what, program, trusted afterwards?] */
const cases: Array<[string, string, boolean]> = [
  ["Array(n) of an untrusted length", "Array(u.n).length", false],
  ["Array(n) of a trusted length", "Array(t.n).fill(0).length", true],
  ["an element of Array(x) with an untrusted x", "Array(u.b)[0]", false],
  ["toReversed keeps a trusted element trusted", "[l[0].n, l[1].n].toReversed()[1]", true],
  ["toReversed: the untrusted element", "[l[0].n, l[1].n].toReversed()[0]", false],
  ["toSorted: order decided by an untrusted element", "[t.n, u.n].toSorted()[0]", false],
  ["toSorted of trusted data", "t.list.toSorted((p, q) => p - q)[0]", true],
  ["toSpliced keeps the untouched trusted element", "[l[0].n, l[1].n].toSpliced(1, 1)[0]", true],
  ["toSpliced at an untrusted position", "[1, 2, 3].toSpliced(u.a, 1)[0]", false],
  ["with: the neighbour of an untrusted value", "[1, 2].with(0, u.n)[1]", true],
  ["with: the untrusted value", "[1, 2].with(0, u.n)[0]", false],
  ["with at an untrusted index", "[1, 2].with(u.a > 1 ? 0 : 1, 5)[0]", false],
  ["Object.groupBy with untrusted answers", "Object.groupBy([1, 2], (x) => (u.a > x ? 'a' : 'b')).a?.length ?? 0", false],
  ["Object.groupBy of untrusted items", "Object.keys(Object.groupBy(u.list, (x) => 'k')).length", false],
  ["Object.groupBy of trusted items and answers", "Object.groupBy(t.list, (x) => x % 2)[1].length", true],
  ["structuredClone keeps a trusted part trusted", "structuredClone({ a: t.n, b: u.n }).a", true],
  ["structuredClone: the untrusted part", "structuredClone({ a: t.n, b: u.n }).b", false],
  ["structuredClone of untrusted data", "structuredClone(u).n", false],
  ["structuredClone of a secret stays trusted (and private, below)", "structuredClone(s).a", true],
  ["String.raw over untrusted text", "String.raw`x${u.b}`", false],
  ["String.raw over trusted text", "String.raw`x\\y${t.name}`", true],
  ["a named group of untrusted text", "/(?<y>\\d{4})/.exec(u.b).groups.y", false],
  ["a named group of trusted text", "/(?<y>\\d{4})/.exec(t.name).groups.y", true],
  ["the index of a match in untrusted text", "u.b.match(/\\d/).index", false],
  ["matchAll over untrusted text", "[...u.b.matchAll(/(?<d>\\d)/g)].length", false],
  ["matchAll over trusted text", "[...t.name.matchAll(/(?<d>\\d)/g)][0].groups.d", true],
  ["Intl over an untrusted number", "new Intl.NumberFormat('de-DE').format(u.n)", false],
  ["Intl over a trusted number", "new Intl.NumberFormat('de-DE').format(t.n)", true],
  ["a formatter built with untrusted options", "new Intl.NumberFormat('en-US', { maximumFractionDigits: u.a }).format(1.23456)", false],
  ["toLocaleDateString of the clock", "new Date().toLocaleDateString('en-GB')", true],
  ["toLocaleString of an untrusted number", "u.n.toLocaleString('fr-FR')", false],
  ["the clock", "Date.now() + new Date().getTime()", true],
];

describe("labels through the phase-2 builtins", () => {
  it.each(cases)("%s", async (_what, program, trusted) => {
    const label = await labelOf(program);
    expect(label.trusted, program).toBe(trusted);
  });

  it("a secret's clone is readable only by its readers", async () => {
    const label = await labelOf("structuredClone(s).a");
    expect(label.readers).toEqual(["alice"]);
  });
});
