/**
 * Regular expressions on RE2 (re2js): matching takes time linear in the input, so untrusted
 * text cannot hang a run. Rule: a match result carries the labels of the text and the pattern.
 */
import type { Label } from "../../labels/index.js";
import { RE2JS } from "re2js";
import { callFunction } from "../compile/functions.js";
import { join2 } from "../rules.js";
import { charge, checkArrayLength, checkString, st, step } from "../state.js";
import { BOT, type ReV, type Val, newArr, toStr } from "../values.js";
import { type Builtin, asString, builtin, ret } from "./util.js";

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

/** `s.match(re)` without the g flag, and `re.exec(s)`: the first match and its groups, or null. */
export function matchOnce(s: string, re: ReV | string, l: Label, from = 0): Val {
  if (typeof re === "string") {
    const at = s.indexOf(re);
    return at < 0 ? null : newArr([re], null, l);
  }
  const m = re.re.matcher(s);
  if (!m.find(from)) return null;
  return newArr(groups(m, re.re.groupCount()), null, l);
}

/** `s.match(re)` with the g flag: every match, or null. */
export function matchAll(s: string, re: ReV, l: Label): Val {
  const m = re.re.matcher(s);
  const out: string[] = [];
  while (m.find()) {
    step();
    out.push(m.group(0) ?? "");
    checkArrayLength(out.length);
  }
  charge(16 * out.length);
  return out.length === 0 ? null : newArr(out, null, l);
}

/** Expands `$1`, `$&`, `$<name>`, `$$` in a replacement string. */
function expand(rep: string, g: Val[], named: Record<string, number>): string {
  return rep.replace(/\$(\$|&|\d{1,2}|<[^>]*>)/g, (all, k: string) => {
    if (k === "$") return "$";
    if (k === "&") return toStr(g[0] ?? "");
    if (k.startsWith("<")) {
      const i = named[k.slice(1, -1)];
      return i === undefined ? all : toStr(g[i] ?? "");
    }
    const i = Number(k);
    return i < g.length ? toStr(g[i] ?? "") : all;
  });
}

/** `s.replace(re, rep)`: a string replacement or a function called per match (a callback). */
export function replaceRe(s: string, re: ReV, rep: Val, l: Label, all: boolean): string {
  const m = re.re.matcher(s);
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
      const r = callFunction(rep, l, [...g, start, s], [...g.map(() => l), l, l]);
      out += toStr(r);
    } else out += expand(toStr(rep), g, named);
    checkString(out);
    last = end;
    if (!all) break;
  }
  return out + s.slice(last);
}

export function splitRe(s: string, re: ReV, limit?: number): string[] {
  const m = re.re.matcher(s);
  const out: string[] = [];
  let last = 0;
  while (m.find()) {
    step();
    if (m.end() === m.start() && (m.start() === 0 || m.start() === s.length)) continue;
    if (m.end() === m.start() && m.start() === last && out.length === 0 && last === 0) continue;
    out.push(s.slice(last, m.start()));
    for (let g = 1; g <= re.re.groupCount(); g++) out.push(m.group(g) ?? (undefined as unknown as string));
    last = m.end();
    if (limit !== undefined && out.length >= limit) return out.slice(0, limit);
  }
  out.push(s.slice(last));
  return limit !== undefined ? out.slice(0, limit) : out;
}

const methods: Record<string, Builtin> = {
  test: builtin((args, argLs, self, selfL) => {
    const re = asRe(self, selfL);
    const s = asString(toStr(args[0]), argLs[0] ?? BOT, "test");
    const l = join2(join2(selfL, re.label), argLs[0] ?? BOT);
    if (!re.flags.includes("g")) return ret(re.re.matcher(s).find(), l);
    const m = re.re.matcher(s);
    const found = re.lastIndex <= s.length && m.find(re.lastIndex);
    re.lastIndex = found ? m.end() : 0;
    return ret(found, l);
  }),
  exec: builtin((args, argLs, self, selfL) => {
    const re = asRe(self, selfL);
    const s = toStr(args[0]);
    const l = join2(join2(selfL, re.label), argLs[0] ?? BOT);
    const global = re.flags.includes("g");
    const from = global ? re.lastIndex : 0;
    if (from > s.length) return (re.lastIndex = 0), ret(null, l);
    const m = re.re.matcher(s);
    if (!m.find(from)) {
      re.lastIndex = 0;
      return ret(null, l);
    }
    if (global) re.lastIndex = m.end() === m.start() ? m.end() + 1 : m.end();
    return ret(newArr(groups(m, re.re.groupCount()), null, l), l);
  }),
  toString: builtin((_a, _l, self, selfL) => {
    const re = asRe(self, selfL);
    return ret(`/${re.source}/${re.flags}`, selfL);
  }),
};

export const regexpMethods = new Map<string, Builtin>(Object.entries(methods));

/** Used by `String.prototype.search`. */
export function searchIndex(s: string, re: ReV): number {
  const m = re.re.matcher(s);
  return m.find() ? m.start() : -1;
}

void st;
