/**
 * Arrays built from parts (issue 15, rules.ts positionLabel): `[...t.list, ...u.list]` and its
 * kin (`t.list.concat(u.list)`), perhaps changed (each way to move, shorten, grow or overwrite a
 * position, made, or not made in a region data decided), then searched from the start (find, findIndex, some, every,
 * indexOf, includes) or from the end, and the answer sent. A search that stops in a part
 * decided by trusted (or public) data answers with that part's label; anything that can move a
 * position forgets the cuts, in the run that makes the change and in the run that does not
 * alike. A property of its own (test/soundness/array-cuts.test.ts), so the main plan stream
 * the planted-leak hunts are measured on stays as it is.
 */
import fc from "fast-check";
import { condLeaf } from "./gen-expressions.js";
import type { StmtScope } from "./gen-statements.js";

const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
const DECISIONS = ["u", "s"].flatMap((x) => [`${x}.c`, `${x}.a > 0`, `${x}.list.length > 1`]).concat(["t.c"]);

/** Parts of the literal: lists whose length and order each record's data decides, and fixed elements. */
const PARTS = ["...t.list", "...u.list", "...s.list", "...[1, 2]", "0", "u.a", "...(u.c ? [1] : [])", "...[...t.list, ...u.list]", "...[1, 2, 7].filter((x) => x <= u.a)"];

/** Changes to the array: each way a position can move, the array shrink or grow, or an element change. */
const CHANGES = [
  "ca0.push(7)", "ca0.pop()", "ca0.shift()", "ca0.unshift(7)", "ca0.splice(0, 1)", "ca0.splice(1, 0, 7)", "ca0.sort()",
  "ca0.sort((x, y) => y - x)", "ca0.reverse()", "ca0.fill(7)", "ca0[0] = 7", "ca0[1] = u.a", "ca0[9] = 7", "ca0.length = 1",
  "ca0.length = 0", "delete ca0[0]", "ca0[u.a] = 7", "ca0[u.list.length] = 7", "ca0.copyWithin?.(0, 1)",
];

/** Where a change is made: plainly, under a decision, in a callback data runs, behind `&&`, in a try. */
const PLACES = [(c: string, _d: string) => `${c};`, (c: string, d: string) => `if (${d}) { ${c}; }`, (c: string, d: string) => `(${d}) && ${c};`,
  (c: string, _d: string) => `u.list.forEach(() => { ${c}; });`, (c: string, d: string) => `try { if (${d}) throw 1; ${c}; } catch { v0 = 1; }`];

/** Lists a concat joins: each record's, literals, and trusted elements an untrusted filter kept (an untrusted length). */
const LISTS = ["t.list", "u.list", "s.list", "[1, 2]", "[...t.list, ...u.list]", "[1, 2, 7].filter((x) => x <= u.a)", "[1, 2].filter((x) => x < s.a)"];

/** What a reference data chose may point at instead: a copy, a tool's list, a literal. */
const OTHERS = ["[...t.list]", "u.list", "[0]", "[...t.list, ...u.list]"];

const SEARCHES = [
  "ca0.find((x) => x === 1)", "ca0.findIndex((x) => x === 2)", "ca0.some((x) => x > 0)", "ca0.every((x) => x !== 3)", "ca0.indexOf(1)",
  "ca0.includes(2)", "ca0.findLast((x) => x === 1)", "ca0.find((x, i, a) => a.length > 2)", "ca0.find((x) => { ca0.pop(); return x === 1; })",
  "ca0.indexOf(1, 1)", "ca0[0]", "ca0.find((x) => x === 7)", "ca0.includes(7)", "ca0.some((x) => x === 7)",
];

/** `{ const ca0 = [...]; change?; v1 = search; send({ value: v1 }); }` */
export function cutsStatementArb(sc: StmtScope): fc.Arbitrary<string> {
  const d = fc.oneof({ weight: 3, arbitrary: pick(...DECISIONS) }, { weight: 1, arbitrary: condLeaf(sc) });
  const parts = fc.array(pick(...PARTS), { minLength: 1, maxLength: 3 });
  const change = fc.option(fc.tuple(pick(...CHANGES), fc.integer({ min: 0, max: PLACES.length - 1 }), d), { nil: undefined, freq: 2 });
  // The change made through a reference data chose between the array and another (attack r15).
  const through = fc.option(fc.tuple(d, pick(...OTHERS)), { nil: undefined, freq: 2 });
  // Built by a literal of parts, or by concat (its receiver's elements first).
  const built = fc.oneof({ weight: 2, arbitrary: parts.map((ps) => `[${ps.join(", ")}]`) }, { weight: 2, arbitrary: fc.tuple(pick(...LISTS), pick(...LISTS, "7", "u.a")).map(([x, y]) => `${x}.concat(${y})`) });
  return fc.tuple(built, change, through, pick(...SEARCHES)).map(([literal, ch, via, search]) => {
    const chosen = via === undefined ? "" : `\n  const cr0 = (${via[0]}) ? ca0 : ${via[1]};`;
    const what = ch === undefined ? "" : via === undefined ? ch[0] : ch[0].replace(/^ca0/, "cr0");
    const made = ch === undefined ? "" : `\n  ${PLACES[ch[1]](what, ch[2])}`;
    return `{\n  const ca0 = ${literal};${chosen}${made}\n  v1 = ${search};\n  send({ value: v1 });\n}`;
  });
}
