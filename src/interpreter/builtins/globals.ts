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
import { objectFlags, objectStatics } from "./object.js";
import { PURE, TOTAL, fnValue, ret } from "./util.js";
import { arrayConstructor } from "./array-new.js";
import { structuredCloneOf } from "./clone.js";
import { groupBy } from "./group.js";
import { intlStatics } from "./intl.js";
import { collectionGlobals } from "./collections.js";
// Registers the copying array methods (toSorted, toReversed, toSpliced, with) in the method table.
import "./array-copy.js";
import type { BuiltinFlags } from "../values.js";

type Impl = (args: Val[], argLs: Label[]) => Val;

/**
 * A namespace (Math, JSON, …) whose members are builtins with the given flags (or function values
 * made elsewhere, with their own). Calling the namespace itself throws.
 */
function namespace(name: string, members: Record<string, Impl | Val>, flags: Record<string, BuiltinFlags> = {}): Fn {
  const statics: Record<string, Val> = {};
  for (const [k, v] of Object.entries(members)) statics[k] = typeof v === "function" ? fnValue(`${name}.${k}`, (a, l) => (v as Impl)(a, l), undefined, flags[k] ?? TOTAL) : v;
  return fnValue(name, () => throwError("TypeError", `${name} is not a function`, BOT), statics, PURE);
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

const MATH_FUNCTIONS = ["abs", "floor", "ceil", "round", "trunc", "sign", "sqrt", "cbrt", "max", "min", "pow", "exp", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "atan", "atan2", "asin", "acos", "hypot", "fround", "clz32", "imul"] as const;

const math = namespace("Math", {
  ...Object.fromEntries(MATH_FUNCTIONS.map((k) => [k, numeric(`Math.${k}`, Math[k] as (...xs: number[]) => number)])),
  random: () => ret(random(), st.mutants.hiddenStateUnlabeled ? BOT : st.seedL),
  PI: Math.PI, E: Math.E, LN2: Math.LN2, LN10: Math.LN10, LOG2E: Math.LOG2E, LOG10E: Math.LOG10E, SQRT2: Math.SQRT2, SQRT1_2: Math.SQRT1_2,
}, { random: { writes: "seed", calls: false, throws: false, refine: "seed" } });

const json = namespace("JSON", { stringify, parse }, {
  // Only the replacer and the reviver are called, never the value or the text.
  stringify: { writes: "none", refine: "serialised", callsAt: [1] },
  parse: { writes: "none", refine: "fresh", callsAt: [1] },
});
math.namespaceOnly = json.namespaceOnly = true;

/** Number(), String(), Boolean(): the default rule (the argument, contents included). */
function convert(name: string, f: (v: Val) => Val, statics: Record<string, Impl | Val> = {}): Fn {
  const ns = namespace(name, statics);
  ns.builtin = Object.assign((args: Val[]) => f(args[0]), TOTAL);
  return ns;
}

function errorType(cls: string): Fn {
  return fnValue(cls, (args, argLs) => {
    const l = argLs[0] ?? BOT;
    const e = makeError(cls, args[0] === undefined ? "" : toStr(args[0]), withContents(args[0], l));
    const opts = args[1];
    // Whether there is a cause depends on whether the options are an object (their reference's
    // label decides that) and then on which keys they have.
    e.shape = argLs[1] ?? BOT;
    if (isRef(opts) && opts.k === OBJ) {
      const ol = join2(argLs[1] ?? BOT, opts.label);
      const cause = opts.props.get("cause");
      if (cause !== undefined) e.props.set("cause", { v: cause.v, l: join2(ol, cause.l) });
      e.shape = join2(ol, opts.shape);
    }
    return ret(e, BOT);
  }, undefined, { ...TOTAL, refine: "error" });
}

const IDENTITY: BuiltinFlags = { ...TOTAL, refine: "identity" };

const promise = namespace("Promise", {
  all: (args, argLs) => ret(args[0], argLs[0] ?? BOT),
  resolve: (args, argLs) => ret(args[0], argLs[0] ?? BOT),
  allSettled: (args, argLs) => ret(args[0], argLs[0] ?? BOT),
}, { all: IDENTITY, resolve: IDENTITY, allSettled: IDENTITY });

// console.log writes only the run's log, which no program can read.
const consoleNs = namespace("console", {
  log: (args) => {
    const line = args.map((a) => (typeof a === "string" ? a : isRef(a) && a.k !== 3 ? JSON.stringify(toJsonData(a)) ?? "undefined" : toStr(a))).join(" ");
    charge(2 * line.length);
    if (st.logs.length < 10_000) st.logs.push(checkString(line));
    return ret(undefined, BOT);
  },
}, { log: PURE });
consoleNs.namespaceOnly = true;
for (const alias of ["info", "warn", "error", "debug"]) consoleNs.statics!.set(alias, consoleNs.statics!.get("log")!);

/** The builtin globals, shared by every run (they hold no state a program can change). */
export function builtinGlobals(): Map<string, Val> {
  const g = new Map<string, Val>();
  g.set("Math", math);
  g.set("JSON", json);
  g.set("Object", namespace("Object", { ...objectStatics, groupBy }, { ...objectFlags, groupBy: { writes: "none", callsAt: [1] } }));
  const array = namespace("Array", Object.fromEntries(Object.entries(arrayStatics).map(([k, impl]) => [k, { k: 3, name: `Array.${k}`, label: BOT, builtin: impl } as Fn])));
  array.builtin = arrayConstructor;
  g.set("Array", array);
  g.set("structuredClone", fnValue("structuredClone", structuredCloneOf, undefined, { writes: "none", calls: false, refine: "elements" }));
  const intl = namespace("Intl", intlStatics);
  intl.namespaceOnly = true;
  g.set("Intl", intl);
  g.set("Map", collectionGlobals.Map);
  g.set("Set", collectionGlobals.Set);
  g.set("Number", convert("Number", (v) => toNum(v), {
    ...numberStatics,
    MAX_SAFE_INTEGER: Number.MAX_SAFE_INTEGER, MIN_SAFE_INTEGER: Number.MIN_SAFE_INTEGER, EPSILON: Number.EPSILON,
    MAX_VALUE: Number.MAX_VALUE, MIN_VALUE: Number.MIN_VALUE, POSITIVE_INFINITY: Infinity, NEGATIVE_INFINITY: -Infinity, NaN: NaN,
  }));
  g.set("String", convert("String", (v) => toStr(v), {
    fromCharCode: (args) => String.fromCharCode(...args.map(toNum)),
  }));
  g.set("Boolean", convert("Boolean", (v) => truthy(v)));
  g.set("Date", fnValue("Date", makeDate, Object.fromEntries(Object.entries(dateStatics).map(([k, f]) => [k, fnValue(`Date.${k}`, f as Impl, undefined, TOTAL)])), { ...PURE, refine: "fresh" }));
  for (const cls of ["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "NotEnoughInformationError"]) g.set(cls, errorType(cls));
  g.set("Promise", promise);
  g.set("console", consoleNs);
  // The same functions as Number.parseInt and Number.parseFloat, as in JavaScript.
  g.set("parseInt", (g.get("Number") as Fn).statics!.get("parseInt")!);
  g.set("parseFloat", (g.get("Number") as Fn).statics!.get("parseFloat")!);
  g.set("isNaN", fnValue("isNaN", (args) => Number.isNaN(toNum(args[0])), undefined, TOTAL));
  g.set("isFinite", fnValue("isFinite", (args) => Number.isFinite(toNum(args[0])), undefined, TOTAL));
  g.set("NaN", NaN);
  g.set("Infinity", Infinity);
  return g;
}

void ARR;
void join2;
