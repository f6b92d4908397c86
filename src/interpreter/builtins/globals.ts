/**
 * The names a program can use without declaring them. Every one is a builtin of our own;
 * no host function or object is ever handed to a program.
 */
import type { Label } from "../../labels/index.js";
import { throwError, makeError } from "../errors.js";
import { join2, withContents } from "../rules.js";
import { charge, checkString, st } from "../state.js";
import { ARR, BOT, OBJ, type Fn, type Val, isRef, toNum, toStr, truthy } from "../values.js";
import { arrayStatics } from "./array.js";
import { dateStatics, makeDate } from "./date.js";
import { parse, stringify, toJsonData } from "./json.js";
import { numberStatics, numeric } from "./number.js";
import { objectStatics } from "./object.js";
import { argsLabel, fnValue, ret } from "./util.js";

type Impl = (args: Val[], argLs: Label[]) => Val;

function namespace(name: string, members: Record<string, Impl | Val>): Fn {
  const statics: Record<string, Val> = {};
  for (const [k, v] of Object.entries(members)) statics[k] = typeof v === "function" ? fnValue(`${name}.${k}`, (a, l) => (v as Impl)(a, l)) : v;
  return fnValue(name, () => throwError("TypeError", `${name} is not a function`, BOT), statics);
}

/**
 * The next number of the run's generator. Which number comes next depends on every call made
 * so far, so the seed carries the pc of each call and the number carries the seed's label.
 */
function random(): number {
  st.seedL = join2(st.seedL, st.pc);
  // xorshift32: deterministic per run, so a replayed run takes the same path.
  let x = st.seed;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  st.seed = x >>> 0;
  return st.seed / 2 ** 32;
}

const math = namespace("Math", {
  abs: numeric(Math.abs), floor: numeric(Math.floor), ceil: numeric(Math.ceil), round: numeric(Math.round),
  trunc: numeric(Math.trunc), sign: numeric(Math.sign), sqrt: numeric(Math.sqrt), cbrt: numeric(Math.cbrt),
  max: numeric(Math.max), min: numeric(Math.min), pow: numeric(Math.pow), exp: numeric(Math.exp),
  log: numeric(Math.log), log2: numeric(Math.log2), log10: numeric(Math.log10), log1p: numeric(Math.log1p),
  sin: numeric(Math.sin), cos: numeric(Math.cos), tan: numeric(Math.tan), atan: numeric(Math.atan),
  atan2: numeric(Math.atan2), asin: numeric(Math.asin), acos: numeric(Math.acos), hypot: numeric(Math.hypot),
  fround: numeric(Math.fround), clz32: numeric(Math.clz32), imul: numeric(Math.imul),
  random: () => ret(random(), st.mutants.hiddenStateUnlabeled ? BOT : st.seedL),
  PI: Math.PI, E: Math.E, LN2: Math.LN2, LN10: Math.LN10, LOG2E: Math.LOG2E, LOG10E: Math.LOG10E, SQRT2: Math.SQRT2, SQRT1_2: Math.SQRT1_2,
});
(math.statics?.get("random") as Fn).mutates = "seed";

const json = namespace("JSON", { stringify, parse });
math.namespaceOnly = json.namespaceOnly = true;

function convert(name: string, f: (v: Val) => Val, statics: Record<string, Impl | Val> = {}): Fn {
  const ns = namespace(name, statics);
  ns.builtin = (args, argLs) => ret(f(args[0]), withContents(args[0], argLs[0] ?? BOT));
  return ns;
}

function errorType(cls: string): Fn {
  return fnValue(cls, (args, argLs) => {
    const l = argLs[0] ?? BOT;
    const e = makeError(cls, args[0] === undefined ? "" : toStr(args[0]), withContents(args[0], l));
    const opts = args[1];
    if (isRef(opts) && opts.k === OBJ) {
      const ol = join2(argLs[1] ?? BOT, opts.label);
      const cause = opts.props.get("cause");
      if (cause !== undefined) e.props.set("cause", { v: cause.v, l: join2(ol, cause.l) });
      // Whether there is a cause depends on which keys the options have.
      e.shape = join2(ol, opts.shape);
    }
    return ret(e, BOT);
  });
}

const promise = namespace("Promise", {
  all: (args, argLs) => ret(args[0], argLs[0] ?? BOT),
  resolve: (args, argLs) => ret(args[0], argLs[0] ?? BOT),
  allSettled: (args, argLs) => ret(args[0], argLs[0] ?? BOT),
});

const consoleNs = namespace("console", {
  log: (args) => {
    const line = args.map((a) => (typeof a === "string" ? a : isRef(a) && a.k !== 3 ? JSON.stringify(toJsonData(a)) ?? "undefined" : toStr(a))).join(" ");
    charge(2 * line.length);
    if (st.logs.length < 10_000) st.logs.push(checkString(line));
    return ret(undefined, BOT);
  },
});
consoleNs.namespaceOnly = true;
for (const alias of ["info", "warn", "error", "debug"]) consoleNs.statics!.set(alias, consoleNs.statics!.get("log")!);

/** The builtin globals, shared by every run (they hold no state a program can change). */
export function builtinGlobals(): Map<string, Val> {
  const g = new Map<string, Val>();
  g.set("Math", math);
  g.set("JSON", json);
  g.set("Object", namespace("Object", objectStatics));
  g.set("Array", namespace("Array", arrayStatics));
  g.set("Number", convert("Number", (v) => toNum(v), {
    ...numberStatics,
    MAX_SAFE_INTEGER: Number.MAX_SAFE_INTEGER, MIN_SAFE_INTEGER: Number.MIN_SAFE_INTEGER, EPSILON: Number.EPSILON,
    MAX_VALUE: Number.MAX_VALUE, MIN_VALUE: Number.MIN_VALUE, POSITIVE_INFINITY: Infinity, NEGATIVE_INFINITY: -Infinity, NaN: NaN,
  }));
  g.set("String", convert("String", (v) => (v === undefined && false ? "" : toStr(v)), {
    fromCharCode: (args, argLs) => ret(String.fromCharCode(...args.map(toNum)), argsLabel(args, argLs)),
  }));
  g.set("Boolean", convert("Boolean", (v) => truthy(v)));
  g.set("Date", fnValue("Date", makeDate, Object.fromEntries(Object.entries(dateStatics).map(([k, f]) => [k, fnValue(`Date.${k}`, f as Impl)]))));
  for (const cls of ["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "NotEnoughInformationError"]) g.set(cls, errorType(cls));
  ((g.get("Object") as Fn).statics!.get("assign") as Fn).mutates = "arg0";
  ((g.get("Array") as Fn).statics!.get("from") as Fn).callsArgs = true;
  for (const name of ["stringify", "parse"]) (json.statics!.get(name) as Fn).callsArgs = true;
  g.set("Promise", promise);
  g.set("console", consoleNs);
  // The same functions as Number.parseInt and Number.parseFloat, as in JavaScript.
  g.set("parseInt", (g.get("Number") as Fn).statics!.get("parseInt")!);
  g.set("parseFloat", (g.get("Number") as Fn).statics!.get("parseFloat")!);
  g.set("isNaN", fnValue("isNaN", (args, argLs) => ret(Number.isNaN(toNum(args[0])), argsLabel(args, argLs))));
  g.set("isFinite", fnValue("isFinite", (args, argLs) => ret(Number.isFinite(toNum(args[0])), argsLabel(args, argLs))));
  g.set("NaN", NaN);
  g.set("Infinity", Infinity);
  return g;
}

void ARR;
void join2;
