/**
 * Focused statements: the patterns leaks hide in, at a higher density than the general grammar
 * gives them. A decision on the untrusted or secret record guards one write of the program's
 * state; a write computes its value from one such read through an operator or builtin; a
 * destructuring default, a loop, a switch, a catch, a callback, an early return or a move of
 * hidden state (the random seed, a regex's lastIndex) is decided by one. A short plan of these,
 * ending with its state observed, has little else to taint the sinks, so a label rule that
 * forgets one flow shows at once.
 */
import fc from "fast-check";
import { type Alternative, choose, condExpr, condLeaf, numExpr, numLeaf, strExpr } from "./gen-expressions.js";
import type { StmtScope } from "./gen-statements.js";

const w = (weight: number, arbitrary: fc.Arbitrary<string>, tag?: string): Alternative => ({ weight, arbitrary, tag });
const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
/** Decisions on one untrusted or secret read: the record fields and the list items. */
const DECISIONS = ["u", "s"].flatMap((x) => [`${x}.c`, `${x}.a > 0`, `${x}.b === "yes"`, `${x}.n.tag === "yes"`, `${x}.list.length > 1`, `${x}.n.x > 0`])
  .concat(["m[1]", "m[2]"].flatMap((x) => [`${x}.n > 0`, `${x}.tag === "yes"`]));
const memo = new Map<string, fc.Arbitrary<string>>();

/** One write of the program's state, with a value of depth at most 1. */
function writeArb(sc: StmtScope): fc.Arbitrary<string> {
  const n = fc.oneof(numLeaf(sc), numExpr(1, sc));
  const s = strExpr(1, sc);
  const v = pick("v0", "v1", "v2");
  return choose(
    [
      w(4, fc.tuple(v, n).map(([x, e]) => `${x} = ${e};`)),
      w(1, fc.tuple(v, pick("+=", "*=", "-="), n).map(([x, op, e]) => `${x} ${op} ${e};`)),
      w(1, v.map((x) => `${x}++;`)),
      w(2, fc.tuple(pick("o.k", "o2.k", "o.n.d"), n).map(([p, e]) => `${p} = ${e};`)),
      w(3, fc.tuple(pick("o.m1", "o2.m0"), n).map(([p, e]) => `${p} = ${e};`)),
      w(1, pick("delete o.k;", "delete o2.k;"), "delete"),
      w(2, n.map((e) => `if (arr.length < 6) arr.push(${e});`)),
      w(1, pick("arr.reverse();", "arr.pop();", "arr.sort((p, q) => q - p);")),
      w(1, n.map((e) => `arr[0] = ${e};`)),
      w(2, s.map((e) => `w = (${e}).slice(0, 16);`)),
      w(1, n.map((e) => `Object.assign(o2, { m0: ${e} });`)),
      w(1, pick("Math.random();", `rx.test("e");`), "hidden-state"),
      w(3, n.map((e) => `send({ value: ${e} });`)),
    ],
    sc.avoid,
  );
}

/** A string built from two reads through a container or a conversion: the explicit flows of builtins. */
function explicitArb(): fc.Arbitrary<string> {
  const leaf = pick("u.a", "s.a", "t.a", "m[1].n", "m[2].n", "u.b", "s.b", "1", `"x"`);
  const ops: Array<(a: string, b: string) => string> = [
    (a, b) => `[${a}, ${b}].join("-")`,
    (a, b) => `String([${a}, ${b}])`,
    (a, b) => `\`${"${"}[${a}, ${b}]${"}"}\``,
    (a, b) => `\`${"${"}${a}${"}"}-${"${"}${b}${"}"}\``,
    (a, b) => `JSON.stringify([${a}, ${b}])`,
    (a, b) => `JSON.stringify({ k: ${a}, j: ${b} })`,
    (a, b) => `([${a}, ${b}] + "")`,
    (a, b) => `"x".concat(${a}, ${b})`,
    (a, b) => `String(${a}).padStart(4, String(${b}))`,
    (a, b) => `[${a}, ${b}].map((p) => p + 1).join()`,
    (a, b) => `String("x-yes-1".indexOf(String(${a})) + ${b})`,
    (a) => `"yes-1-e".includes(String(${a})) ? "in" : "out"`,
  ];
  return fc.tuple(fc.integer({ min: 0, max: ops.length - 1 }), leaf, leaf).map(([i, a, b]) => ops[i](a, b));
}

/** A decision on the untrusted or secret data (sometimes the trusted one, sometimes compound). */
function decisionArb(sc: StmtScope): fc.Arbitrary<string> {
  return choose(
    [
      w(3, pick(...DECISIONS)),
      w(2, condLeaf(sc)),
      w(1, condExpr(1, sc)),
    ],
    sc.avoid,
  );
}

/** A focused statement (see the module comment). */
export function focusedStatementArb(sc: StmtScope): fc.Arbitrary<string> {
  const key = `${sc.avoid.join(",")}|${sc.reader}`;
  let a = memo.get(key);
  if (a !== undefined) return a;
  const d = decisionArb(sc);
  const x = writeArb(sc);
  const val = numLeaf(sc);
  const list = pick("u.list", "s.list", "t.list");
  a = choose(
    [
      w(5, fc.tuple(d, x).map(([k, b]) => `if (${k}) { ${b} }`)),
      w(2, fc.tuple(d, x, x).map(([k, b, c]) => `if (${k}) { ${b} } else { ${c} }`)),
      w(3, x),
      w(2, fc.tuple(pick("v0", "v1"), strExpr(2, sc)).map(([v, e]) => `${v} = (${e}).length;`)),
      w(4, explicitArb().map((e) => `w = (${e}).slice(0, 16);`)),
      w(sc.reader ? 1 : 0, fc.tuple(pick("v0", "v2"), pick("u.b", "s.b", "m[1].tag", "m[2].tag", "t.b")).map(([v, x]) => `${v} = query_ai_assistant("Rate: " + ${x}, S).n;`), "query"),
      w(1, fc.tuple(pick("v0", "v1", "v2"), d, val, val).map(([v, k, p, q]) => `${v} = ${k} ? ${p} : ${q};`)),
      w(1, fc.tuple(pick("v0", "v1", "v2"), d, val).map(([v, k, p]) => `${v} = (${k} && ${p}) || 7;`)),
      w(1, fc.tuple(list, x).map(([l, b]) => `for (const x0 of ${l}) { ${b} }`)),
      w(1, fc.tuple(d, x).map(([k, b]) => `for (const x0 of t.list) { if (${k}) break; ${b} }`)),
      w(1, fc.tuple(d, x).map(([k, b]) => `for (const x0 of [1, 2]) { if (${k}) continue; ${b} }`)),
      w(1, fc.tuple(list, val).map(([l, p]) => `{ const [c0 = ${p}] = ${l}; v1 = c0; }`), "destructuring"),
      w(1, fc.tuple(d, pick("u", "s", "t"), val).map(([k, o, p]) => `{ const { a: c0 = ${p} } = ${k} ? {} : ${o}; v2 = c0; }`), "destructuring"),
      w(1, fc.tuple(pick("u.a", "s.a", "m[1].n", "m[2].n"), x, x).map(([e, b, c]) => `switch (${e}) { case 0: ${b} break; default: ${c} }`)),
      w(1, fc.tuple(d, x, x).map(([k, b, c]) => `try { if (${k}) throw new Error("x"); ${b} } catch { ${c} }`), "throw"),
      w(1, fc.tuple(d, x).map(([k, c]) => `try { if (${k}) throw new Error("x"); } catch { ${c} }`), "throw"),
      w(1, fc.tuple(list, x).map(([l, b]) => `${l}.forEach((p0) => { ${b} });`), "callback-effects"),
      w(2, fc.tuple(pick("v0", "v1"), d, val, val).map(([v, k, p, q]) => `${v} = ((y) => { if (${k}) { return ${p}; } return ${q}; })(0);`)),
      w(2, fc.tuple(pick("o", "o2"), d, val).map(([o, k, p]) => `if (${k}) { ${o}.m1 = ${p}; }`)),
      w(1, fc.tuple(pick("v0", "v1"), pick("o", "o2"), d).map(([v, o, k]) => `${v} = ${o}[${k} ? "k" : "m1"] ?? -1;`)),
      w(1, fc.tuple(d, val).map(([k, p]) => `if (${k}) { (t.c ? o : o2).k = ${p}; }`), "chosen-object"),
      w(1, fc.tuple(pick("v0", "v1"), list, d).map(([v, l, k]) => `${v} = ${l}.filter((p0) => ${k}).length;`)),
      w(1, fc.tuple(pick("v2"), d).map(([v, k]) => `${v} = t.list.some((p0) => ${k}) ? 1 : 0;`)),
      // A decision moves state a plain read does not show (the random seed, a regex's lastIndex, a
      // date's time); what it gives next is kept.
      w(2, fc.tuple(d, fc.constantFrom(["Math.random();", "Math.floor(Math.random() * 3)"], [`rx.test("e");`, `rx.test("e") ? 1 : 0`], ["d0.setDate(5);", "d0.getTime() % 7"])).map(([k, [move, next]]) => `if (${k}) { ${move} } v1 = ${next};`), "hidden-state"),
    ],
    sc.avoid,
  );
  memo.set(key, a);
  return a;
}
