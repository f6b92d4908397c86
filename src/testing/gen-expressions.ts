/**
 * Expression generators for plans: numbers, strings, conditions, arrays and objects, over the
 * names every generated program declares (see gen-program.ts) and the locals in scope.
 *
 * The generators are typed (a number expression always yields a number or NaN) so that generated
 * programs run to their sinks instead of stopping at the first type error, and they reach every
 * operator, most builtins and every callback form: arrow and function callbacks of array
 * methods, sort comparators, reducers, `replace` with a function, JSON replacers and revivers,
 * `Array.from` with a map function, and functions chosen by data.
 *
 * Simplest alternatives come first in every `oneof`, so fast-check shrinks towards them.
 */
import fc from "fast-check";

/** What an expression may name besides the program's globals. */
export interface ExprScope {
  /** Numeric locals in scope: loop variables, parameters, block constants. */
  readonly nums: readonly string[];
  /** Whether the program's functions `f` and `h` may be called (not inside their own bodies). */
  readonly calls: boolean;
  /** Whether `query_ai_assistant` may be called (the runtime has a quarantined model). */
  readonly reader: boolean;
  /** Features not to generate, by tag (see {@link FEATURES}). */
  readonly avoid: readonly string[];
}

/**
 * Tags of constructs that can be left out of generation, e.g. while a known bug in one of them
 * is being fixed, or when a runtime does not offer it.
 */
export const FEATURES = ["callback-effects", "assign-expr", "delete", "nested-try", "replace-callback", "json-callback", "sort-callback", "chosen-function", "chosen-object", "query", "throw", "labelled-jump", "destructuring", "await", "hidden-state"] as const;

/** The records every program reads: untrusted (u), secret (s) and trusted (t). */
export const SOURCES = ["u", "s", "t"] as const;


const memo = new Map<string, fc.Arbitrary<string>>();

/** Builds each (kind, depth, scope) generator once: the generators are recursive and shared. */
function memoized(kind: string, d: number, sc: ExprScope, build: () => fc.Arbitrary<string>): fc.Arbitrary<string> {
  const key = `${kind}|${d}|${sc.nums.join(",")}|${sc.calls ? 1 : 0}${sc.reader ? 1 : 0}|${sc.avoid.join(",")}`;
  let a = memo.get(key);
  if (a === undefined) {
    a = build();
    memo.set(key, a);
  }
  return a;
}

/** A weighted alternative, possibly tagged with a feature name. */
export type Alternative = fc.WeightedArbitrary<string> & { tag?: string };

/** A weighted choice that shrinks towards its first (simplest) alternative; tags in `avoid` are left out. */
export function choose(ws: Alternative[], avoid: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof({ withCrossShrink: true }, ...ws.filter((w) => w.weight > 0 && (w.tag === undefined || !avoid.includes(w.tag))));
}

const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
/** Sources of values: mostly trusted, so that one untrusted or secret read is not hidden by others. */
const src = fc.constantFrom("t", "t", "u", "s");
/** Sources of decisions: mostly the untrusted and secret ones, so that programs branch on them. */
const decider = fc.constantFrom("u", "u", "s", "s", "t");
const item = pick("m[0]", "m[1]", "m[2]");
const w = (weight: number, arbitrary: fc.Arbitrary<string>, tag?: string): Alternative => ({ weight, arbitrary, tag });

/** The scope of a callback's body: its parameter added; it calls f and h only if callbacks may have effects. */
export function withNum(sc: ExprScope, name: string): ExprScope {
  return { ...sc, nums: [...sc.nums, name], calls: sc.calls && !sc.avoid.includes("callback-effects") };
}

// ---------------------------------------------------------------------------------------------
// Leaves

/** A numeric leaf: a literal, a variable, a local, or a field of a source, list item or container. */
export function numLeaf(sc: ExprScope): fc.Arbitrary<string> {
  return memoized("numLeaf", 0, sc, () =>
    choose([
      w(2, fc.integer({ min: -2, max: 3 }).map(String)),
      w(3, pick("v0", "v1", "v2")),
      w(sc.nums.length > 0 ? 3 : 0, sc.nums.length > 0 ? pick(...sc.nums) : fc.constant("0")),
      w(6, src.map((x) => `${x}.a`)),
      w(1, src.map((x) => `${x}.n.x`)),
      w(1, src.map((x) => `${x}.list.length`)),
      w(2, item.map((x) => `${x}.n`)),
      w(3, pick("o.k", "o2.k", "o.n.d", "arr.length", "arr[0]", "(arr[2] ?? -1)", "w.length", "(o.m1 ?? 0)", "(arr[arr.length - 1] ?? 0)")),
    ], sc.avoid),
  );
}

/** A string leaf. */
export function strLeaf(sc: ExprScope): fc.Arbitrary<string> {
  return memoized("strLeaf", 0, sc, () =>
    choose([
      w(2, pick(`""`, `"x"`, `"yes"`, `"e"`)),
      w(2, fc.constant("w")),
      w(5, src.map((x) => `${x}.b`)),
      w(1, src.map((x) => `${x}.n.tag`)),
      w(2, item.map((x) => `${x}.tag`)),
    ], sc.avoid),
  );
}

/** A boolean leaf: the sources' flags and comparisons of leaves. */
export function condLeaf(sc: ExprScope): fc.Arbitrary<string> {
  const n = numLeaf(sc);
  const s = strLeaf(sc);
  return memoized("condLeaf", 0, sc, () =>
    choose([
      w(4, decider.map((x) => `${x}.c`)),
      w(3, fc.tuple(decider, pick("<", ">", "===", "!=="), n).map(([x, op, b]) => `${x}.a ${op} ${b}`)),
      w(4, fc.tuple(n, pick("<", ">", "===", "!==", "<=", ">=", "==", "!="), n).map(([a, op, b]) => `${a} ${op} ${b}`)),
      w(2, fc.tuple(s, pick(`"yes"`, `""`, `"x"`, "w")).map(([a, b]) => `${a} === ${b}`)),
      w(2, decider.map((x) => `${x}.b === "yes"`)),
      w(1, decider.map((x) => `${x}.list.includes(1)`)),
      w(1, s.map((a) => `${a}.includes("e")`)),
      w(1, pick(`"m1" in o`, `Object.hasOwn(o2, "m0")`, "arr.length > 2", `m[1].tag === "yes"`, `"b" in u && u.b.startsWith("y")`)),
    ], sc.avoid),
  );
}

// ---------------------------------------------------------------------------------------------
// Composite expressions

/** The expressions one level down, of every kind, that a level-`d` expression is built from. */
function smaller(d: number, sc: ExprScope) {
  return { a: numExpr(d - 1, sc), c: condExpr(d - 1, sc), s: strExpr(d - 1, sc), ar: arrExpr(d - 1, sc), ob: objExpr(d - 1, sc) };
}

/** A numeric expression of depth at most `d`. */
export function numExpr(d: number, sc: ExprScope): fc.Arbitrary<string> {
  if (d <= 0) return numLeaf(sc);
  return memoized("num", d, sc, () => {
    const { a, c, s, ar, ob } = smaller(d, sc);
    const p = `p${d}`;
    const cp = condExpr(d - 1, withNum(sc, p));
    const ap = numExpr(d - 1, withNum(sc, p));
    return choose([
      w(6, numLeaf(sc)),
      w(5, fc.tuple(a, pick("+", "-", "*", "%", "|", "&", "^", "<<", ">>", ">>>", "/"), a).map(([x, op, y]) => `(${x} ${op} ${y})`)),
      w(3, fc.tuple(c, a, a).map(([k, x, y]) => `(${k} ? ${x} : ${y})`)),
      w(1, a.map((x) => `((${x}) ** 2)`)),
      w(1, fc.tuple(a, pick("-", "+", "~")).map(([x, op]) => `(${op}(${x}))`)),
      w(1, c.map((k) => `(!(${k}) ? 1 : 0)`)),
      w(2, fc.tuple(c, a, a).map(([k, x, y]) => `((${k} && ${x}) || ${y})`)),
      w(1, fc.tuple(a, a).map(([x, y]) => `(${x} ?? ${y})`)),
      w(1, fc.tuple(pick("max", "min", "hypot", "atan2"), a, a).map(([f, x, y]) => `Math.${f}(${x}, ${y})`)),
      w(1, fc.tuple(pick("abs", "floor", "sign", "trunc", "round", "ceil"), a).map(([f, x]) => `Math.${f}(${x})`)),
      w(1, ar.map((x) => `Math.max(0, ...${x})`)),
      w(1, fc.constant("Math.floor(Math.random() * 3)"), "hidden-state"),
      w(1, s.map((x) => `Number(${x})`)),
      w(1, s.map((x) => `parseInt(${x} + "1", 10)`)),
      w(1, a.map((x) => `Number((${x}).toFixed(1))`)),
      w(1, a.map((x) => `(${x}).toString(2).length`)),
      w(2, s.map((x) => `${x}.length`)),
      w(1, fc.tuple(s, s).map(([x, y]) => `${x}.indexOf(${y})`)),
      w(1, fc.tuple(s, s).map(([x, y]) => `${x}.localeCompare(${y})`)),
      w(1, s.map((x) => `(${x}.match(/e/g) ?? []).length`)),
      w(1, s.map((x) => `${x}.search(/s/)`)),
      w(1, s.map((x) => `(${x}.codePointAt(0) ?? -1)`)),
      w(1, fc.tuple(s, s).map(([x, y]) => `${x}.replace(${y}, (mm) => { v2 = v2 + 1; return mm + mm; }).length`), "replace-callback"),
      w(1, fc.tuple(s, a).map(([x, y]) => `${x}.replace(/e/g, (mm) => mm + ${y}).length`), "replace-callback"),
      w(2, ar.map((x) => `${x}.length`)),
      w(1, fc.tuple(ar, a).map(([x, y]) => `${x}.indexOf(${y})`)),
      w(1, fc.tuple(ar, a).map(([x, y]) => `(${x}.includes(${y}) ? 1 : 0)`)),
      w(2, fc.tuple(ar, a).map(([x, y]) => `${x}.reduce((acc, ${p}) => acc + ${p}, ${y})`)),
      w(1, ar.map((x) => `${x}.reduceRight((acc, ${p}) => acc * 2 - ${p}, 0)`)),
      w(2, fc.tuple(ar, pick("find", "findLast"), cp).map(([x, m, k]) => `(${x}.${m}((${p}) => ${k}) ?? -1)`)),
      w(1, fc.tuple(ar, pick("findIndex", "findLastIndex"), cp).map(([x, m, k]) => `${x}.${m}((${p}) => ${k})`)),
      w(2, fc.tuple(ar, pick("some", "every"), cp).map(([x, m, k]) => `(${x}.${m}((${p}) => ${k}) ? 1 : 0)`)),
      w(2, fc.tuple(ar, cp).map(([x, k]) => `${x}.filter((${p}) => ${k}).length`)),
      w(1, fc.tuple(ar, ap).map(([x, y]) => `(${x}.map(function (${p}) { return ${y}; })[0] ?? 0)`)),
      w(1, ar.map((x) => `([...${x}].sort((${p}, q) => q - ${p})[0] ?? 0)`), "sort-callback"),
      w(1, ar.map((x) => `(${x}.at(-1) ?? 0)`)),
      w(1, ob.map((x) => `Object.keys(${x}).length`)),
      w(1, ob.map((x) => `Object.entries(${x}).length`)),
      w(1, ob.map((x) => `("k" in ${x} ? 1 : 0)`)),
      w(1, ob.map((x) => `JSON.stringify(${x}).length`)),
      w(1, ob.map((x) => `(${x}?.k ?? 0)`)),
      w(2, fc.tuple(pick("o", "o2"), s).map(([x, k]) => `(${x}[${k}.length > 1 ? "k" : "m1"] ?? -1)`)),
      w(1, a.map((x) => `(JSON.parse(JSON.stringify({ z: ${x} })).z ?? 0)`)),
      w(1, a.map((x) => `JSON.parse("[1, 2]", (key, val) => (typeof val === "number" ? val + ${x} : val))[0]`), "json-callback"),
      w(1, a.map((x) => `new Error("e" + ${x}).message.length`)),
      w(1, s.map((x) => `(new TypeError(${x}) instanceof Error ? 1 : 0)`)),
      w(1, a.map((x) => `(void ${x} ?? 2)`)),
      w(1, a.map((x) => `new Date(Date.UTC(2020, 0, ${x})).getUTCDate()`)),
      w(1, fc.tuple(pick("v0", "v1", "v2"), a).map(([v, x]) => `(${v} = ${x})`), "assign-expr"),
      w(1, fc.tuple(pick("v0", "v1", "v2"), a).map(([v, x]) => `(${v}++, ${x})`), "assign-expr"),
      w(sc.calls ? 2 : 0, fc.tuple(pick("f", "h"), a).map(([g, x]) => `${g}(${x})`)),
      w(sc.calls ? 1 : 0, fc.tuple(c, a).map(([k, x]) => `(${k} ? f : h)(${x})`), "chosen-function"),
      w(sc.calls ? 1 : 0, a.map((x) => `(f?.(${x}) ?? 0)`)),
      w(sc.calls && sc.reader ? 1 : 0, s.map((x) => `query_ai_assistant("How many? " + ${x}, S).n`), "query"),
    ], sc.avoid);
  });
}

/** A string expression of depth at most `d`. */
export function strExpr(d: number, sc: ExprScope): fc.Arbitrary<string> {
  if (d <= 0) return strLeaf(sc);
  return memoized("str", d, sc, () => {
    const { a, c, s, ar, ob } = smaller(d, sc);
    return choose([
      w(6, strLeaf(sc)),
      w(2, fc.tuple(s, s).map(([x, y]) => `(${x} + ${y})`)),
      w(1, fc.tuple(s, a).map(([x, y]) => `(${x} + ${y})`)),
      w(2, fc.tuple(s, a).map(([x, y]) => `\`${"${"}${x}${"}"}-${"${"}${y}${"}"}\``)),
      w(1, ar.map((x) => `\`[${"${"}${x}${"}"}]\``)),
      w(1, ar.map((x) => `String(${x})`)),
      w(1, ar.map((x) => `(${x} + "")`)),
      w(2, fc.tuple(s, pick("toUpperCase()", "toLowerCase()", "trim()", "substring(1)", `padStart(3, "*")`, "padEnd(2)", "repeat(2)", `at(0) ?? ""`, "charAt(1)", `split("").reverse().join("")`, `replace(/e/g, "E")`)).map(([x, m]) => `${x}.${m}`)),
      w(1, fc.tuple(s, s).map(([x, y]) => `${x}.concat(${y})`)),
      w(1, fc.tuple(s, a).map(([x, y]) => `${x}.slice(${y})`)),
      w(1, fc.tuple(s, s).map(([x, y]) => `${x}.replaceAll("e", ${y})`)),
      w(1, fc.tuple(s, s).map(([x, y]) => `${x}.replace(${y}, (mm) => { v2 = v2 + 1; return mm.toUpperCase(); })`), "replace-callback"),
      w(1, a.map((x) => `String(${x})`)),
      w(1, a.map((x) => `(${x}).toFixed(1)`)),
      w(2, ar.map((x) => `${x}.join("-")`)),
      w(1, ob.map((x) => `JSON.stringify(${x})`)),
      w(1, ar.map((x) => `JSON.stringify(${x})`)),
      w(1, ob.map((x) => `JSON.stringify(${x}, (key, val) => (key === "k" ? 1 : val))`), "json-callback"),
      w(1, ob.map((x) => `JSON.stringify(${x}, ["k", "a", "n"])`)),
      w(2, fc.tuple(c, s, s).map(([k, x, y]) => `(${k} ? ${x} : ${y})`)),
      w(1, s.map((x) => `(${x} || "none")`)),
      w(1, a.map((x) => `(typeof ${x})`)),
      w(1, ob.map((x) => `(typeof ${x}.k)`)),
      w(1, s.map((x) => `new TypeError(${x}).message`)),
      w(sc.calls && sc.reader ? 1 : 0, s.map((x) => `query_ai_assistant("Repeat: " + ${x}, S).s`), "query"),
    ], sc.avoid);
  });
}

/** A condition of depth at most `d`. */
export function condExpr(d: number, sc: ExprScope): fc.Arbitrary<string> {
  if (d <= 0) return condLeaf(sc);
  return memoized("cond", d, sc, () => {
    const { a, c, s, ar, ob } = smaller(d, sc);
    const p = `p${d}`;
    const cp = condExpr(d - 1, withNum(sc, p));
    return choose([
      w(6, condLeaf(sc)),
      w(2, fc.tuple(c, pick("&&", "||"), c).map(([x, op, y]) => `(${x} ${op} ${y})`)),
      w(1, c.map((x) => `!(${x})`)),
      w(2, fc.tuple(a, pick("<", "===", ">="), a).map(([x, op, y]) => `(${x} ${op} ${y})`)),
      w(1, fc.tuple(s, s).map(([x, y]) => `(${x} !== ${y})`)),
      w(1, fc.tuple(s, s).map(([x, y]) => `${x}.startsWith(${y})`)),
      w(1, s.map((x) => `/y/.test(${x})`)),
      w(1, s.map((x) => `rx.test(${x})`), "hidden-state"),
      w(1, fc.tuple(ar, a).map(([x, y]) => `${x}.includes(${y})`)),
      w(1, fc.tuple(ar, cp).map(([x, k]) => `${x}.some((${p}) => ${k})`)),
      w(1, a.map((x) => `Number.isInteger(${x})`)),
      w(1, a.map((x) => `isNaN(${x})`)),
      w(1, ob.map((x) => `(${x}.k === undefined)`)),
      w(1, ob.map((x) => `Array.isArray(${x})`)),
      w(1, fc.tuple(c, c, c).map(([x, y, z]) => `(${x} ? ${y} : ${z})`)),
      w(1, a.map((x) => `Boolean(${x})`)),
      w(sc.calls && sc.reader ? 1 : 0, s.map((x) => `query_ai_assistant("Is it urgent? " + ${x}, S).ok`), "query"),
    ], sc.avoid);
  });
}

/** An array-of-numbers expression of depth at most `d`. */
export function arrExpr(d: number, sc: ExprScope): fc.Arbitrary<string> {
  const leaf = choose([w(3, pick("u.list", "s.list", "t.list", "arr", "[1, 2]", "[]")), w(2, fc.tuple(src, src).map(([x, y]) => `[${x}.a, ${y}.n.x]`)), w(1, pick("arr.slice()", "Object.values(o2)"))]);
  if (d <= 0) return leaf;
  return memoized("arr", d, sc, () => {
    const { a, c, s, ar, ob } = smaller(d, sc);
    const p = `p${d}`;
    const ap = numExpr(d - 1, withNum(sc, p));
    const cp = condExpr(d - 1, withNum(sc, p));
    return choose([
      w(6, leaf),
      w(2, fc.tuple(a, a).map(([x, y]) => `[${x}, ${y}]`)),
      w(1, fc.tuple(ar, a).map(([x, y]) => `[...${x}, ${y}]`)),
      w(1, ar.map((x) => `${x}.slice(1)`)),
      w(2, fc.tuple(ar, ap).map(([x, y]) => `${x}.map((${p}) => ${y})`)),
      w(2, fc.tuple(ar, cp).map(([x, k]) => `${x}.filter((${p}) => ${k})`)),
      w(1, fc.tuple(ar, ar).map(([x, y]) => `${x}.concat(${y})`)),
      w(1, fc.tuple(ar, ap).map(([x, y]) => `Array.from(${x}, (${p}) => ${y})`)),
      w(1, a.map((x) => `Array.of(${x})`)),
      w(1, fc.tuple(ar, a).map(([x, y]) => `${x}.flatMap((${p}) => [${p}, ${y}])`)),
      w(1, fc.tuple(ar, a).map(([x, y]) => `[[${y}], ${x}].flat()`)),
      w(1, ar.map((x) => `[...${x}].sort((${p}, q) => ${p} - q)`), "sort-callback"),
      w(1, ar.map((x) => `[...${x}].reverse()`)),
      w(1, fc.constant("Object.values(o2)")),
      w(1, ob.map((x) => `Object.keys(${x}).map((key) => key.length)`)),
      w(1, ob.map((x) => `Object.entries(${x}).map(([key, val]) => key.length + (typeof val === "number" ? val : 0))`)),
      w(1, s.map((x) => `${x}.split("").map((ch) => ch.charCodeAt(0) % 7)`)),
      w(2, pick("m.map((it) => it.n)", `m.filter((it) => it.tag === "yes").map((it) => it.n)`)),
      w(1, fc.tuple(c, ar, ar).map(([k, x, y]) => `(${k} ? ${x} : ${y})`)),
      w(sc.calls ? 1 : 0, ar.map((x) => `${x}.map(f)`), "callback-effects"),
    ], sc.avoid);
  });
}

/** An object expression of depth at most `d`. */
export function objExpr(d: number, sc: ExprScope): fc.Arbitrary<string> {
  const leaf = choose([w(3, pick("o", "o2", "u", "s", "t", "u.n", "s.n", "m[0]", "m[1]", "m[2]")), w(1, src.map((x) => `{ k: ${x}.a, m1: ${x}.b }`))]);
  if (d <= 0) return leaf;
  return memoized("obj", d, sc, () => {
    const { a, c, s, ob } = smaller(d, sc);
    return choose([
      w(6, leaf),
      w(2, fc.tuple(a, s).map(([x, y]) => `{ k: ${x}, b: ${y} }`)),
      w(1, fc.tuple(s, a).map(([x, y]) => `{ [${x}]: ${y}, k: 1 }`)),
      w(1, fc.tuple(ob, a).map(([x, y]) => `{ ...${x}, k: ${y} }`)),
      w(2, c.map((k) => `(${k} ? o : o2)`), "chosen-object"),
      w(1, a.map((x) => `m[Math.abs(${x}) % 3]`), "chosen-object"),
      w(1, fc.tuple(s, a).map(([x, y]) => `Object.fromEntries([[${x}, ${y}]])`)),
      w(1, ob.map((x) => `Object.assign({}, ${x})`)),
      w(1, ob.map((x) => `JSON.parse(JSON.stringify(${x}))`)),
    ], sc.avoid);
  });
}

/** What a sink argument may hold: the generator passes only values of that kind. */
export type ArgKind = "any" | "string" | "number";

/** A value passed to a sink argument of the given kind. */
export function sinkValue(d: number, sc: ExprScope, kind: ArgKind = "any"): fc.Arbitrary<string> {
  if (kind === "string") return strExpr(d, sc);
  if (kind === "number") return numExpr(d, sc);
  return memoized("sink", d, sc, () =>
    choose([
      w(4, numExpr(d, sc)),
      w(2, strExpr(d, sc)),
      w(1, arrExpr(d, sc)),
      w(1, objExpr(d, sc)),
      w(1, fc.tuple(numExpr(d, sc), strExpr(d, sc)).map(([x, y]) => `{ first: ${x}, second: [${y}] }`)),
      w(1, pick("w", "o.k", "arr", "o", "o2", "w.toUpperCase()")),
    ], sc.avoid),
  );
}
