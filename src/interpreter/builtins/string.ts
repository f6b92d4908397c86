/**
 * String methods. Rule: a string method's result joins the string's label and every
 * argument's label (contents of objects included); split keeps that label on every part.
 * Regular expressions run on RE2 through regexp.ts, in time linear in the input.
 */
import type { Label } from "../../labels/index.js";
import { inputsLabel, upgradeCallback } from "../rules-calls.js";
import { throwError } from "../errors.js";
import { charge, checkArrayLength, checkString, st, step } from "../state.js";
import { ARR, BOT, OBJ, RE, type Val, isRef, newArr, toNum, toStr, type ReV } from "../values.js";
import { callReplacer, expand, matchAll, matchEvery, matchOnce, replaceRe, searchIndex, splitRe, stringPattern } from "./regexp.js";
import { type Builtin, argsLabel, asString, builtin, ret, toInt } from "./util.js";

type Impl = (s: string, args: Val[], l: Label, argLs: Label[]) => Val;

/**
 * Wraps a string method. Its result follows the default rule of the call gate (receiver and
 * arguments, contents included, and the answers of a replacement function); `l` is that label,
 * for the containers and errors a method makes itself.
 */
function m(impl: Impl, flags: { calls?: boolean; throws?: boolean; refine?: "fresh" } = {}): Builtin {
  const declared = { writes: "none", calls: flags.calls ?? false, callsAt: [1], throws: flags.throws ?? false, refine: flags.refine } as const;
  // A method that neither reads `l` (it declares fewer parameters), calls, nor refines: the gate
  // labels its result from the same inputs, so nothing here computes them.
  if (impl.length < 3 && !flags.calls && flags.refine === undefined) {
    return builtin((args, argLs, self, selfL) => impl(asString(self, selfL, "string method"), args, BOT, argLs), declared);
  }
  return builtin((args, argLs, self, selfL) => {
    const s = asString(self, selfL, "string method");
    const l = inputsLabel(args, argLs, s, selfL);
    if (!flags.calls) return ret(impl(s, args, l, argLs), l);
    let v: Val;
    try {
      v = impl(s, args, l, argLs);
    } finally {
      // A replacement function's calls were decided by the text and the pattern.
      upgradeCallback(args[1], argLs[1] ?? BOT, l);
    }
    return ret(v, l);
    // Of the methods that call, only the replacement (the second argument) is ever called.
  }, declared);
}

const str = (v: Val, d = ""): string => (v === undefined ? d : toStr(v));
const isRe = (v: Val): v is ReV => isRef(v) && v.k === RE;

function strArray(parts: Val[], l: Label): Val {
  checkArrayLength(parts.length);
  charge(16 * parts.length);
  return newArr(parts, null, l);
}

/** `rep`'s own label (`repL`) is what chose the replacement function; `l` decides its calls. */
function replaceWith(s: string, args: Val[], l: Label, all: boolean, repL: Label): string {
  const [pat, rep] = args;
  if (isRe(pat) && all && !pat.flags.includes("g")) return throwError("TypeError", "replaceAll must be called with a global RegExp", l);
  if (isRe(pat)) return replaceRe(s, pat, rep, l, all || pat.flags.includes("g"), repL);
  const needle = str(pat);
  const fn = isRef(rep) && rep.k === 3 ? rep : null;
  const text = fn === null ? str(rep) : "";
  let out = "";
  let from = 0;
  for (;;) {
    step();
    const at = s.indexOf(needle, from);
    if (at < 0) break;
    // A function replacement runs once per match, as a callback.
    const piece = fn !== null ? toStr(callReplacer(fn, repL, l, [needle, at, s])) : expand(text, [needle], {}, at, s);
    out = checkString(out + s.slice(from, at) + piece);
    from = at + needle.length;
    if (!all) break;
    if (needle.length === 0) {
      if (from >= s.length) break;
      out += s[from];
      from++;
    }
  }
  return checkString(out + s.slice(from));
}

const COLLATOR_OPTIONS = ["usage", "sensitivity", "ignorePunctuation", "numeric", "caseFirst", "collation"];

/**
 * `localeCompare` with ICU collation, as JavaScript does. The locale defaults to en-US rather
 * than the host's, so a run does not depend on the machine it runs on.
 */
function collate(s: string, t: string, locales: Val, options: Val, l: Label): number {
  const locale = locales === undefined ? "en-US" : isRef(locales) && locales.k === ARR ? locales.items.map((x) => toStr(x)) : toStr(locales);
  const opts: Record<string, string | boolean> = {};
  if (isRef(options) && options.k === OBJ) {
    for (const k of COLLATOR_OPTIONS) {
      const v = options.props.get(k)?.v;
      if (typeof v === "string" || typeof v === "boolean") opts[k] = v;
    }
  }
  try {
    return s.localeCompare(t, locale, opts);
  } catch (err) {
    return throwError("RangeError", (err as Error).message, l);
  }
}

const methods: Record<string, Builtin> = {
  charAt: m((s, a) => s.charAt(toInt(a[0], 0))),
  charCodeAt: m((s, a) => s.charCodeAt(toInt(a[0], 0))),
  codePointAt: m((s, a) => s.codePointAt(toInt(a[0], 0))),
  at: m((s, a) => s.at(toInt(a[0], 0))),
  indexOf: m((s, a) => s.indexOf(str(a[0], "undefined"), toInt(a[1], 0))),
  // A missing or NaN position means "from the end", as JavaScript's ToNumber gives it.
  lastIndexOf: m((s, a) => s.lastIndexOf(str(a[0], "undefined"), a[1] === undefined ? Infinity : toNum(a[1]))),
  includes: m((s, a) => s.includes(str(a[0], "undefined"), toInt(a[1], 0))),
  startsWith: m((s, a) => s.startsWith(str(a[0], "undefined"), toInt(a[1], 0))),
  endsWith: m((s, a) => (a[1] === undefined ? s.endsWith(str(a[0], "undefined")) : s.endsWith(str(a[0], "undefined"), toInt(a[1], s.length)))),
  slice: m((s, a) => s.slice(toInt(a[0], 0), a[1] === undefined ? undefined : toInt(a[1], s.length))),
  substring: m((s, a) => s.substring(toInt(a[0], 0), a[1] === undefined ? undefined : toInt(a[1], s.length))),
  substr: m((s, a) => s.substr(toInt(a[0], 0), a[1] === undefined ? undefined : toInt(a[1], s.length))),
  toLowerCase: m((s) => s.toLowerCase()),
  toUpperCase: m((s) => s.toUpperCase()),
  toLocaleLowerCase: m((s) => s.toLowerCase()),
  toLocaleUpperCase: m((s) => s.toUpperCase()),
  trim: m((s) => s.trim()),
  trimStart: m((s) => s.trimStart()),
  trimEnd: m((s) => s.trimEnd()),
  padStart: m((s, a) => checkString(s.padStart(Math.min(toInt(a[0], 0), st.limits.stringLength + 1), a[1] === undefined ? " " : str(a[1])))),
  padEnd: m((s, a) => checkString(s.padEnd(Math.min(toInt(a[0], 0), st.limits.stringLength + 1), a[1] === undefined ? " " : str(a[1])))),
  repeat: m((s, a) => {
    const n = toInt(a[0], 0);
    if (n < 0 || !Number.isFinite(n)) return throwError("RangeError", `Invalid count value: ${n}`, BOT);
    if (s.length * n > st.limits.stringLength) checkString("x".repeat(st.limits.stringLength + 1));
    return s.repeat(n);
  }, { throws: true }),
  concat: m((s, a) => checkString(s + a.map((x) => toStr(x)).join(""))),
  split: m((s, a, l) => {
    // ToUint32, so a negative limit means "no limit".
    const limit = a[1] === undefined ? undefined : toNum(a[1]) >>> 0;
    if (a[0] === undefined) return strArray(limit === 0 ? [] : [s], l);
    const parts = isRe(a[0]) ? splitRe(s, a[0], limit) : s.split(str(a[0]), limit);
    return strArray(parts, l);
  }, { refine: "fresh" }),
  replace: m((s, a, l, ls) => replaceWith(s, a, l, false, ls[1] ?? BOT), { calls: true }),
  replaceAll: m((s, a, l, ls) => replaceWith(s, a, l, true, ls[1] ?? BOT), { calls: true, throws: true }),
  match: m((s, a, l) => {
    const re = isRe(a[0]) ? a[0] : stringPattern(str(a[0]), l);
    return re.flags.includes("g") ? matchAll(s, re, l) : matchOnce(s, re, l);
  }, { refine: "fresh", throws: true }),
  matchAll: m((s, a, l) => {
    if (isRe(a[0]) && !a[0].flags.includes("g")) return throwError("TypeError", "matchAll needs a regular expression with the g flag, e.g. /(?<n>\\d+)/g", l);
    return matchEvery(s, isRe(a[0]) ? a[0] : stringPattern(str(a[0]), l), l);
  }, { refine: "fresh", throws: true }),
  search: m((s, a, l) => searchIndex(s, isRe(a[0]) ? a[0] : stringPattern(str(a[0]), l)), { throws: true }),
  localeCompare: m((s, a, l) => collate(s, str(a[0], "undefined"), a[1], a[2], l), { throws: true }),
  normalize: m((s, a) => s.normalize(a[0] === undefined ? "NFC" : (str(a[0]) as "NFC")), { throws: true }),
  toString: m((s) => s),
  valueOf: m((s) => s),
};

export const stringMethods = new Map<string, Builtin>(Object.entries(methods));
