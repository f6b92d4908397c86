/**
 * Statement generators: every statement form of the supported language, nested up to a depth,
 * scope-correct by construction (every local is declared by the construct that introduces it,
 * and break, continue and return appear only where they are legal).
 *
 * Generation is guided towards what the guarantee is about: conditions read the sources
 * (u, s, t) more often than anything else, sinks are called inside branches, loops, callbacks
 * and catch blocks, and writes go to variables, object fields, arrays and aliases that the
 * program later sends.
 */
import fc from "fast-check";
import { type Alternative, type ArgKind, type ExprScope, arrExpr, choose, condExpr, numExpr, objExpr, sinkValue, strExpr, withNum } from "./gen-expressions.js";

/** A sink the generated programs call: its name and the kind of each argument it takes. */
export interface SinkSpec {
  /** The tool's name. */
  readonly name: string;
  /** Argument names and what they hold; default `{ value: "any" }`. */
  readonly args?: Readonly<Record<string, ArgKind>>;
}

/** Where a statement sits: what it may name, jump to, and how deep it may still nest. */
export interface StmtScope extends ExprScope {
  /** Nesting still allowed. */
  readonly depth: number;
  /** Nesting level, for fresh local names. */
  readonly level: number;
  /** Inside a loop (break and continue are legal). */
  readonly loop: boolean;
  /** Enclosing labels: "L<n>" label a loop, "B<n>" a block (only break may target it). */
  readonly labels: readonly string[];
  /** Inside a function body (return is legal, await is not). */
  readonly fn: boolean;
  /** Inside a try block (throwing statements are more frequent). */
  readonly trying: boolean;
  /** The sinks programs call. */
  readonly sinks: readonly SinkSpec[];
}

/** The scope of a top-level statement. */
export function topScope(depth: number, sinks: readonly SinkSpec[], reader: boolean, avoid: readonly string[] = []): StmtScope {
  return { nums: [], calls: true, reader, avoid, depth, level: 0, loop: false, labels: [], fn: false, trying: false, sinks };
}

/** A call of one of the sinks, each argument a generated value of its kind. */
export function sinkCallArb(sc: ExprScope, sinks: readonly SinkSpec[], d = 1): fc.Arbitrary<string> {
  return fc.oneof(
    ...sinks.map((sink) => {
      const args = Object.entries(sink.args ?? { value: "any" }) as Array<[string, ArgKind]>;
      return fc.tuple(...args.map(([, kind]) => sinkValue(d, sc, kind))).map((vs) => `${sink.name}({ ${args.map(([name], i) => `${name}: ${vs[i]}`).join(", ")} })`);
    }),
  );
}

type Weighted = Alternative;
const memo = new Map<string, fc.Arbitrary<string>>();
const w = (weight: number, arbitrary: fc.Arbitrary<string>, tag?: string): Weighted => ({ weight, arbitrary, tag });
const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
const NUM_VARS = pick("v0", "v1", "v2");

function key(sc: StmtScope): string {
  return [sc.nums.join(","), sc.calls, sc.reader, sc.depth, sc.level, sc.loop, sc.labels.join(","), sc.fn, sc.trying, JSON.stringify(sc.sinks), sc.avoid.join(",")].join("|");
}

/** One scope deeper, with changes. */
function inner(sc: StmtScope, change: Partial<StmtScope> = {}): StmtScope {
  return { ...sc, depth: sc.depth - 1, level: sc.level + 1, ...change };
}

/** One to three statements. */
export function blockArb(sc: StmtScope): fc.Arbitrary<string> {
  return fc.array(statementArb(sc), { minLength: 1, maxLength: 3 }).map((ss) => ss.join(" "));
}

/** One statement in scope `sc`. */
export function statementArb(sc: StmtScope): fc.Arbitrary<string> {
  const k = key(sc);
  let a = memo.get(k);
  if (a === undefined) {
    a = choose(sc.depth <= 0 ? simpleStatements(sc) : [...simpleStatements(sc), ...compoundStatements(sc)], sc.avoid);
    memo.set(k, a);
  }
  return a;
}

/** Statements without nested statements. */
function simpleStatements(sc: StmtScope): Weighted[] {
  const e = numExpr(1, sc);
  const c = condExpr(1, sc);
  const s = strExpr(1, sc);
  const ar = arrExpr(1, sc);
  const ob = objExpr(1, sc);
  const sink = sinkCallArb(sc, sc.sinks);
  const L = sc.level;
  const out: Weighted[] = [
    w(5, fc.tuple(NUM_VARS, pick("=", "+=", "-=", "*=", "%=", "|=", "^=", "<<=", "||=", "&&=", "??="), e).map(([v, op, x]) => `${v} ${op} ${x};`)),
    w(1, fc.tuple(NUM_VARS, pick("++", "--")).map(([v, op]) => (op === "++" ? `${v}++;` : `--${v};`))),
    w(1, s.map((x) => `w = (${x}).slice(0, 16);`)),
    w(2, fc.tuple(pick("o.k", "o2.k", "o.n.d"), e).map(([p, x]) => `${p} = ${x};`)),
    w(1, fc.tuple(e, e).map(([i, x]) => `o["m" + (${i} & 1)] = ${x};`)),
    w(2, fc.tuple(c, e).map(([k, x]) => `(${k} ? o : o2).k = ${x};`), "chosen-object"),
    w(1, fc.tuple(e, e).map(([i, x]) => `[o, o2][${i} & 1].k = ${x};`), "chosen-object"),
    w(3, fc.tuple(pick("o.m1", "o2.m0", "o.n.e"), e).map(([p, x]) => `${p} = ${x};`)),
    w(1, pick("delete o.m1;", "delete o2.k;"), "delete"),
    w(1, e.map((x) => `Object.assign(o2, { k: ${x} });`)),
    w(2, fc.tuple(pick("push", "unshift"), e).map(([m, x]) => `if (arr.length < 6) arr.${m}(${x});`)),
    w(1, pick("arr.pop();", "arr.splice(0, 1);", "arr.reverse();", "arr.sort((p, q) => p - q);", "arr.length = Math.min(arr.length, 1);")),
    w(1, fc.tuple(e, e).map(([i, x]) => `arr[Math.min(arr.length, (Math.abs(${i}) % 3) | 0)] = ${x};`)),
    w(sc.calls ? 1 : 0, fc.tuple(pick("f", "h"), e).map(([g, x]) => `${g}(${x});`)),
    w(sc.calls ? 2 : 0, fc.tuple(NUM_VARS, e).map(([v, x]) => `${v} = f(${x});`)),
    w(1, fc.tuple(ob, pick("0", `"z"`)).map(([x, d]) => `{ const { a: c${L} = ${d}, ...r${L} } = ${x}; v0 = Number(c${L}); v2 = Object.keys(r${L}).length; }`), "destructuring"),
    w(1, ar.map((x) => `{ const [c${L} = 0, , ...r${L}] = ${x}; v1 = c${L}; v2 = r${L}.length; }`), "destructuring"),
    w(8, sink.map((x) => `${x};`)),
    w(sc.fn ? 0 : 1, sink.map((x) => `await ${x};`), "await"),
    w(1, fc.tuple(sink, sink).map(([x, y]) => `${sc.fn ? "" : "await "}Promise.all([${x}, ${y}]);`)),
    w(sc.calls && sc.reader ? 1 : 0, s.map((x) => `v2 = query_ai_assistant("How many? " + ${x}, S).n;`), "query"),
    w(1, s.map((x) => `console.log(${x});`)),
    w(1, fc.tuple(c, NUM_VARS, e).map(([k, v, x]) => `${k} && (${v} = ${x});`)),
    w(1, fc.tuple(c, NUM_VARS).map(([k, v]) => `(${k}) || ${v}++;`)),
    w(1, fc.tuple(ar, condExpr(1, withNum(sc, `p${L}`))).map(([x, k]) => `${x}.forEach((p${L}) => { if (${k}) { v1 = p${L}; } });`), "callback-effects"),
    w(sc.calls ? 1 : 0, ar.map((x) => `${x}.forEach(f);`), "callback-effects"),
    w(sc.trying ? 4 : 1, fc.tuple(c, e, pick("Error", "TypeError", "RangeError")).map(([k, x, cls]) => `if (${k}) throw new ${cls}("e" + ${x});`), "throw"),
    w(sc.trying ? 1 : 0, fc.tuple(c, e).map(([k, x]) => `if (${k}) throw ${x};`), "throw"),
    w(sc.trying ? 1 : 0, c.map((k) => `v0 = (${k} ? null : o).k;`)),
  ];
  if (sc.loop) {
    out.push(w(2, c.map((k) => `if (${k}) break;`)), w(1, c.map((k) => `if (${k}) continue;`)));
  }
  for (const label of sc.labels) {
    out.push(w(1, c.map((k) => `if (${k}) break ${label};`), "labelled-jump"));
    if (label.startsWith("L")) out.push(w(1, c.map((k) => `if (${k}) continue ${label};`), "labelled-jump"));
  }
  if (sc.fn) out.push(w(2, fc.tuple(c, e).map(([k, x]) => `if (${k}) return ${x};`)));
  return out;
}

/** Iterables of numbers for for-of loops. */
function iterables(sc: StmtScope): fc.Arbitrary<string> {
  return choose([w(3, pick("u.list", "s.list", "t.list")), w(1, pick("arr", "[1, 2]", "m.map((it) => it.n)")), w(1, arrExpr(1, sc))], sc.avoid);
}

/** Statements with nested blocks: every control-flow construct of the language. */
function compoundStatements(sc: StmtScope): Weighted[] {
  const L = sc.level;
  const e = numExpr(1, sc);
  const c = condExpr(1, sc);
  const s = strExpr(1, sc);
  const ob = objExpr(1, sc);
  const plain = blockArb(inner(sc));
  const x = `x${L}`;
  const loopBody = (extra: Partial<StmtScope> = {}) => blockArb(inner(sc, { loop: true, nums: [...sc.nums, x], ...extra }));
  const callback = blockArb(inner(sc, { loop: false, labels: [], fn: true, nums: [...sc.nums, `p${L}`] }));
  return [
    w(6, fc.tuple(c, plain, plain).map(([k, a, b]) => `if (${k}) { ${a} } else { ${b} }`)),
    w(4, fc.tuple(c, plain).map(([k, a]) => `if (${k}) { ${a} }`)),
    w(1, fc.tuple(c, plain, c, plain).map(([k, a, k2, b]) => `if (${k}) { ${a} } else if (${k2}) { ${b} }`)),
    w(3, fc.tuple(iterables(sc), loopBody()).map(([it, b]) => `for (const ${x} of ${it}) { v1 += ${x}; ${b} }`)),
    w(1, fc.tuple(s, loopBody()).map(([str, b]) => `for (const ch${L} of ${str}.slice(0, 4)) { const ${x} = ch${L}.length; ${b} }`)),
    w(1, loopBody().map((b) => `for (const { n: ${x} } of m) { ${b} }`), "destructuring"),
    w(1, loopBody().map((b) => `for (const [i${L}, ${x}] of u.list.entries()) { v2 += i${L}; ${b} }`)),
    w(1, fc.tuple(e, loopBody()).map(([n, b]) => `for (let ${x} = 0; ${x} < Math.min(3, Math.abs(${n})); ${x}++) { ${b} }`)),
    w(1, fc.tuple(ob, loopBody()).map(([o, b]) => `for (const k${L} in ${o}) { const ${x} = k${L}.length; ${b} }`)),
    w(1, fc.tuple(c, loopBody()).map(([k, b]) => `{ let ${x} = 0; while (${x} < 3 && (${k})) { ${x}++; ${b} } }`)),
    w(1, fc.tuple(c, loopBody()).map(([k, b]) => `{ let ${x} = 0; do { ${x}++; ${b} } while (${x} < 3 && (${k})); }`)),
    w(1, fc.tuple(iterables(sc), loopBody({ labels: [...sc.labels, `L${L}`] })).map(([it, b]) => `L${L}: for (const ${x} of ${it}) { ${b} }`), "labelled-jump"),
    w(1, fc.tuple(c, blockArb(inner(sc, { labels: [...sc.labels, `B${L}`] }))).map(([k, b]) => `B${L}: { if (${k}) break B${L}; ${b} }`), "labelled-jump"),
    w(2, fc.tuple(e, plain, plain).map(([d, a, b]) => `switch (${d}) { case 0: ${a} break; case 1: ${b} default: v2 = 7; }`)),
    w(1, fc.tuple(s, plain).map(([d, a]) => `switch (${d}) { case "yes": ${a} break; case "x": v1 = 3; break; default: v2 += 1; }`)),
    ...tryStatements(sc),
    w(1, fc.tuple(arrExpr(1, sc), callback).map(([it, b]) => `${it}.forEach((p${L}) => { ${b} });`), "callback-effects"),
    w(1, fc.tuple(numExpr(1, withNum(sc, `y${L}`)), blockArb(inner(sc, { loop: false, labels: [], fn: true, nums: [...sc.nums, `y${L}`] })), e).map(
      ([r, b, arg]) => `{ const g${L} = (y${L}) => { ${b} return ${r}; }; v0 = g${L}(${arg}); }`,
    )),
    w(1, fc.tuple(e, blockArb(inner(sc, { nums: [...sc.nums, `c${L}`] }))).map(([v, b]) => `{ const c${L} = ${v}; ${b} }`)),
  ];
}

/** try/catch/finally in its forms, with throws inside. */
function tryStatements(sc: StmtScope): Weighted[] {
  const L = sc.level;
  const c = condExpr(1, sc);
  const e = numExpr(1, sc);
  const body = blockArb(inner(sc, { trying: true }));
  const plain = blockArb(inner(sc));
  const thrower = fc.tuple(c, e).map(([k, x]) => `if (${k}) throw new Error("e" + ${x});`);
  const tag = sc.trying ? "nested-try" : undefined;
  return [
    w(3, fc.tuple(body, thrower, plain).map(([a, t, b]) => `try { ${a} ${t} v0 = 1; } catch (err${L}) { v2 = String(err${L}).length; ${b} }`), tag),
    w(1, fc.tuple(body, plain).map(([a, b]) => `try { ${a} } catch { ${b} }`), tag),
    w(1, fc.tuple(body, thrower).map(([a, t]) => `try { ${a} ${t} } catch ({ message: msg${L} }) { w = String(msg${L}).slice(0, 8); }`), tag),
    w(1, fc.tuple(body, plain, plain).map(([a, b, f]) => `try { ${a} } catch (err${L}) { ${b} } finally { ${f} }`), tag),
  ];
}

/** The body of `f(x)`: statements that read and write the program's variables and may return early. */
export function functionBodyArb(sinks: readonly SinkSpec[], reader: boolean, avoid: readonly string[] = []): fc.Arbitrary<string> {
  const sc: StmtScope = { nums: ["x"], calls: false, reader, avoid, depth: 1, level: 20, loop: false, labels: [], fn: true, trying: false, sinks };
  const early = fc.option(fc.tuple(condExpr(1, sc), numExpr(1, sc)).map(([k, x]) => `if (${k}) return ${x};`), { freq: 2 });
  return fc.tuple(early, fc.array(statementArb(sc), { maxLength: 3 }), numExpr(1, sc)).map(([r0, ss, r]) => [r0 ?? "", ...ss, `return ${r};`].join(" ").trim());
}

/** The body of the arrow function `h(y)`: one expression. */
export function arrowBodyArb(reader: boolean, avoid: readonly string[] = []): fc.Arbitrary<string> {
  return numExpr(1, { nums: ["y"], calls: false, reader, avoid });
}
