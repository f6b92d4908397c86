/**
 * Regular expressions on RE2 (re2js): matching takes time linear in the input, so untrusted
 * text cannot hang a run. Rule: a match result carries the labels of the text and the pattern.
 */
import type { Label } from "../../labels/index.js";
import { RE2JS } from "re2js";
import { callBack, inputsLabel } from "../rules-calls.js";
import { throwError } from "../errors.js";
import { enterPc, join2, leavePc, mayStopOn, underPc, writeThrough } from "../rules.js";
import { charge, checkArrayLength, checkString, expectWork, st, step, work } from "../state.js";
import { BOT, RE, type Arr, type BuiltinFlags, type ReV, type Val, newArr, newObj, toStr } from "../values.js";
import { type Builtin, TOTAL, builtin, ret } from "./util.js";

function asRe(self: Val, selfL: Label): ReV {
  if (typeof self !== "object" || self === null || self.k !== 5) throw new Error("not a regexp");
  void selfL;
  return self;
}

function groups(m: ReturnType<RE2JS["matcher"]>, count: number): Val[] {
  const out: Val[] = [];
  for (let g = 0; g <= count; g++) out.push(m.group(g) ?? undefined);
  return out;
}

/**
 * A match as JavaScript gives it: the groups, and `index`, `input` and `groups` (the named
 * groups, or undefined when the pattern names none). Every part carries the match's label.
 */
export function matchResult(m: ReturnType<RE2JS["matcher"]>, re: ReV, s: string, l: Label): Arr {
  const g = groups(m, re.re.groupCount());
  charge(16 * g.length + 96);
  const a = newArr(g, null, l);
  const names = Object.entries(re.re.namedGroups());
  let named: Val;
  if (names.length > 0) {
    const o = newObj(l);
    for (const [name, i] of names) o.props.set(name, { v: g[i], l: BOT });
    named = o;
  }
  a.extra = new Map([["index", { v: m.start(), l: BOT }], ["input", { v: s, l: BOT }], ["groups", { v: named, l: BOT }]]);
  return a;
}

/** `s.match(re)` without the g flag, and `re.exec(s)`: the first match and its groups, or null. */
export function matchOnce(s: string, re: ReV, l: Label, from = 0): Val {
  const m = matcherFor(re, s);
  if (!m.find(from)) return null;
  return matchResult(m, re, s, l);
}

/** `s.matchAll(re)`: every match with its groups, as an array (iterating it is what programs do). */
export function matchEvery(s: string, re: ReV, l: Label): Val {
  const m = matcherFor(re, s);
  const out: Val[] = [];
  while (m.find()) {
    step();
    checkArrayLength(out.length + 1);
    out.push(matchResult(m, re, s, l));
  }
  return newArr(out, null, l);
}

/** `s.match(re)` with the g flag: every match, or null. */
export function matchAll(s: string, re: ReV, l: Label): Val {
  const m = matcherFor(re, s);
  const out: string[] = [];
  while (m.find()) {
    step();
    out.push(m.group(0) ?? "");
    checkArrayLength(out.length);
  }
  charge(16 * out.length);
  return out.length === 0 ? null : newArr(out, null, l);
}

/**
 * Expands `$1`/`$01`, `$&`, `` $` ``, `$'`, `$<name>`, `$$` in a replacement string as
 * GetSubstitution does: a group number past the last group, and `$0`, stay literal text.
 */
export function expand(rep: string, g: Val[], named: Record<string, number>, at: number, s: string): string {
  if (!rep.includes("$")) return rep;
  const m = g.length - 1;
  const group = (i: number): string => toStr(g[i] ?? "");
  return rep.replace(/\$(\$|&|`|'|\d\d?|<[^>]*>)/g, (all, k: string) => {
    if (k === "$") return "$";
    if (k === "&") return group(0);
    if (k === "`") return s.slice(0, at);
    if (k === "'") return s.slice(at + toStr(g[0] ?? "").length);
    if (k.startsWith("<")) {
      if (Object.keys(named).length === 0) return all;
      const i = named[k.slice(1, -1)];
      return i === undefined ? "" : group(i);
    }
    const two = Number(k);
    if (k.length === 2 && two >= 1 && two <= m) return group(two);
    const one = Number(k[0]);
    if (one >= 1 && one <= m) return group(one) + k.slice(1);
    return all;
  });
}

/** The longest pattern a string may give `match` or `search`. */
const MAX_PATTERN = 4096;

/** A string where a pattern is expected (`match`, `search`) means `new RegExp(string)`. */
export function stringPattern(p: string, l: Label): ReV {
  // Compiling takes time and memory in proportion to the pattern, outside every step: a
  // pattern made from data is capped (a literal regex in the program is not).
  if (p.length > MAX_PATTERN) return throwError("SyntaxError", `Invalid regular expression: the pattern is longer than ${MAX_PATTERN} characters; search for a shorter text or use includes()/indexOf()`, l);
  work(p.length >> 2);
  try {
    return { k: RE, source: p, flags: "", re: RE2JS.compile(RE2JS.translateRegExp(p), 0), label: l, lastIndex: 0 };
  } catch (err) {
    if (err instanceof RangeError) throw err;
    return throwError("SyntaxError", `Invalid regular expression: /${p}/: ${(err as Error).message}`, l);
  }
}

/**
 * Function replacements are callbacks: whether and how often they run depends on the text and
 * the pattern (`l`), so they run under that label; their answers join the result (the default
 * rule of the call gate, through callBack), and what they could write is upgraded afterwards.
 */
export function callReplacer(fn: Val, fnL: Label, l: Label, args: Val[]): Val {
  const saved = st.spc;
  if (!underPc(l)) enterPc(l);
  try {
    // The function was chosen by its own reference (`fnL`), not by the text it is called on.
    return callBack(fn, fnL, args, args.map(() => l));
  } finally {
    leavePc(saved);
  }
}

/** `s.replace(re, rep)`: a string replacement or a function called per match (a callback). */
export function replaceRe(s: string, re: ReV, rep: Val, l: Label, all: boolean, repL: Label): string {
  const m = matcherFor(re, s);
  const named = re.re.namedGroups();
  let out = "";
  let last = 0;
  while (m.find()) {
    step();
    const g = groups(m, re.re.groupCount());
    const start = m.start();
    const end = m.end();
    out += s.slice(last, start);
    if (typeof rep === "object" && rep !== null && rep.k === 3) {
      const r = callReplacer(rep, repL, l, [...g, start, s]);
      out += toStr(r);
    } else out += expand(toStr(rep), g, named, start, s);
    checkString(out);
    last = end;
    if (!all) break;
  }
  return out + s.slice(last);
}

/**
 * `s.split(re, limit)` as JavaScript's splitter does it: an empty match where the current piece
 * starts is skipped, and a match is only looked for at positions before the end.
 */
export function splitRe(s: string, re: ReV, limit = 2 ** 32 - 1): Val[] {
  if (limit === 0) return [];
  const m = matcherFor(re, s);
  if (s.length === 0) return m.find() ? [] : [s];
  const out: Val[] = [];
  let p = 0;
  let q = 0;
  while (q < s.length) {
    step();
    if (!m.find(q) || m.start() >= s.length) break;
    const end = m.end();
    if (end === p) {
      q = advance(s, m.start(), re.flags.includes("u"));
      continue;
    }
    out.push(s.slice(p, m.start()));
    if (out.length === limit) return out;
    for (let g = 1; g <= re.re.groupCount(); g++) {
      out.push(m.group(g) ?? undefined);
      if (out.length === limit) return out;
    }
    checkArrayLength(out.length);
    p = q = end;
  }
  out.push(s.slice(p));
  return out;
}

/** The next position after `i`, stepping over a surrogate pair in unicode mode. */
function advance(s: string, i: number, unicode: boolean): number {
  if (!unicode || i + 1 >= s.length) return i + 1;
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
}

/**
 * A global regex keeps where its last match ended (lastIndex), so every later match depends on
 * the strings it was run on and on the decisions that ran it: its label takes both.
 */
function advanced(re: ReV, l: Label): void {
  if (!st.mutants.hiddenStateUnlabeled) re.label = join2(re.label, join2(l, st.pc));
}

/** test and exec move a global regex's lastIndex (refinement `lastIndex`). */
const LAST_INDEX: BuiltinFlags = { writes: "self", calls: false, throws: false, refine: "lastIndex" };

/**
 * What a call of test or exec reads: the regex (its state included), the text (contents of an
 * object converted to it included). A global regex is changed: a data-chosen one may not be, as
 * for any write through a labelled reference.
 */
function start(re: ReV, args: Val[], argLs: Label[], selfL: Label): Label {
  // Whether the write stops depends on the regex `selfL` chose, global or not.
  if (re.flags.includes("g")) writeThrough(selfL, re);
  else if (selfL !== BOT) mayStopOn(selfL);
  return join2(join2(selfL, re.label), inputsLabel(args.slice(0, 1), argLs.slice(0, 1), undefined, BOT));
}

/** Nanoseconds per character of text a scan is expected to take (measured on re2js). */
const NS_PER_CHAR = 500;

/**
 * About to scan `s` in one host call: a long text counts steps in proportion and must leave time
 * for the scan before the deadline (RE2 in JavaScript takes up to about half a microsecond per
 * character), so a scan too long for the time left ends the run first.
 */
function scanning(s: string): void {
  if (s.length >= 4096) expectWork(s.length >> 4, s.length * NS_PER_CHAR * 1e-6);
}

/** The one way to a matcher over `s`: every scan is checked against the time left first ({@link scanning}). */
function matcherFor(re: ReV, s: string): ReturnType<ReV["re"]["matcher"]> {
  scanning(s);
  return re.re.matcher(s);
}


/** JavaScript's ToLength: where a match starts, whatever number a program put in lastIndex. */
function toLength(n: number): number {
  return Number.isNaN(n) ? 0 : Math.min(Math.max(Math.trunc(n), 0), Number.MAX_SAFE_INTEGER);
}

const methods: Record<string, Builtin> = {
  test: builtin((args, argLs, self, selfL) => {
    const re = asRe(self, selfL);
    const s = toStr(args[0]);
    const l = start(re, args, argLs, selfL);
    if (!re.flags.includes("g")) {
      const hit = matcherFor(re, s).find();
      return ret(hit, l);
    }
    const m = matcherFor(re, s);
    const from = toLength(re.lastIndex);
    const found = from <= s.length && m.find(from);
    re.lastIndex = found ? m.end() : 0;
    advanced(re, l);
    return ret(found, l);
  }, LAST_INDEX),
  exec: builtin((args, argLs, self, selfL) => {
    const re = asRe(self, selfL);
    const s = toStr(args[0]);
    const l = start(re, args, argLs, selfL);
    const global = re.flags.includes("g");
    if (global) advanced(re, l);
    const from = global ? toLength(re.lastIndex) : 0;
    if (from > s.length) return (re.lastIndex = 0), ret(null, l);
    const m = matcherFor(re, s);
    const hit = m.find(from);
    if (!hit) {
      if (global) re.lastIndex = 0;
      return ret(null, l);
    }
    if (global) re.lastIndex = m.end() === m.start() ? m.end() + 1 : m.end();
    return ret(matchResult(m, re, s, l), l);
  }, LAST_INDEX),
  toString: builtin((_a, _l, self, selfL) => {
    const re = asRe(self, selfL);
    return ret(`/${re.source}/${re.flags}`, selfL);
  }, TOTAL),
};

export const regexpMethods = new Map<string, Builtin>(Object.entries(methods));

/** Used by `String.prototype.search`. */
export function searchIndex(s: string, re: ReV): number {
  const m = matcherFor(re, s);
  return m.find() ? m.start() : -1;
}

