/**
 * Date. The clock is the run's: `new Date()` and `Date.now()` give the instant the runtime fixed
 * when the run started (`createRuntime({ now })`, else the real time then), trusted and public,
 * so a run depends only on its inputs and that instant. Rule: results join the date's and the
 * arguments' labels; the clock itself is a constant of the run and carries no label.
 */
import type { Label } from "../../labels/index.js";
import { throwError } from "../errors.js";
import { join2, writeThrough } from "../rules.js";
import { st } from "../state.js";
import { BOT, DATE, type DateV, type Val, toNum, toStr } from "../values.js";
import { type Builtin, PURE, TOTAL, argsLabel, builtin, ret } from "./util.js";

function asDate(self: Val, selfL: Label): DateV {
  if (typeof self !== "object" || self === null || self.k !== DATE) return throwError("TypeError", "this is not a Date", selfL);
  return self;
}

const GETTERS = [
  "getTime", "valueOf", "getFullYear", "getMonth", "getDate", "getDay", "getHours", "getMinutes", "getSeconds",
  "getMilliseconds", "getTimezoneOffset", "getUTCFullYear", "getUTCMonth", "getUTCDate", "getUTCDay", "getUTCHours",
  "getUTCMinutes", "getUTCSeconds", "getUTCMilliseconds", "toISOString", "toJSON", "toString", "toDateString",
  "toTimeString", "toUTCString",
] as const;

const SETTERS = [
  "setFullYear", "setMonth", "setDate", "setHours", "setMinutes", "setSeconds", "setMilliseconds", "setTime",
  "setUTCFullYear", "setUTCMonth", "setUTCDate", "setUTCHours", "setUTCMinutes", "setUTCSeconds",
] as const;

const methods: Record<string, Builtin> = {};
for (const name of GETTERS) {
  methods[name] = builtin((_args, _argLs, self, selfL) => {
    const d = asDate(self, selfL);
    const l = join2(selfL, d.label);
    const host = new Date(d.t);
    if (name === "toISOString" && Number.isNaN(d.t)) return throwError("RangeError", "Invalid time value", l);
    if (name === "toJSON") return ret(Number.isNaN(d.t) ? null : host.toISOString(), l);
    return ret((host[name] as () => Val).call(host), l);
  }, name === "toISOString" ? PURE : TOTAL);
}
for (const name of SETTERS) {
  methods[name] = builtin((args, argLs, self, selfL) => {
    const d = asDate(self, selfL);
    writeThrough(selfL, d);
    const host = new Date(d.t);
    const t = (host[name] as (...xs: number[]) => number).apply(host, args.map(toNum));
    d.t = t;
    // The time now held depends on the arguments and on the decisions that led here.
    d.label = join2(d.label, join2(argsLabel(args, argLs), st.pc));
    return ret(t, join2(selfL, d.label));
  }, { writes: "self", calls: false, throws: false, refine: "mutation" });
}
for (const name of ["toLocaleDateString", "toLocaleTimeString", "toLocaleString"] as const) {
  methods[name] = builtin((args, argLs, self, selfL) => {
    const d = asDate(self, selfL);
    const host = new Date(d.t);
    const locale = args[0] === undefined ? "en-US" : toStr(args[0]);
    return ret(host[name](locale, { timeZone: "UTC" }), join2(join2(selfL, d.label), argsLabel(args, argLs)));
  }, PURE);
}

export const dateMethods = new Map<string, Builtin>(Object.entries(methods));

/** `Date(...)` / `new Date(...)`: from a timestamp, a date string, or year, month, … */
export function makeDate(args: Val[], argLs: Label[]): Val {
  // The run's clock: the same instant, trusted, for every call of the run.
  if (args.length === 0) return ret({ k: DATE, t: st.now, label: BOT }, BOT);
  let t: number;
  if (args.length === 1) {
    const a = args[0];
    // The host's Date applies TimeClip: out of range is NaN, fractions are cut.
    t = typeof a === "object" && a !== null && a.k === DATE ? a.t : typeof a === "string" ? Date.parse(a) : new Date(toNum(a)).getTime();
  } else t = new Date(...(args.map(toNum) as [number, number])).getTime();
  const l = argsLabel(args, argLs);
  return ret({ k: DATE, t, label: l }, l);
}

export const dateStatics = {
  UTC: (args: Val[], argLs: Label[]) => ret(Date.UTC(...(args.map(toNum) as [number, number])), argsLabel(args, argLs)),
  parse: (args: Val[], argLs: Label[]) => ret(Date.parse(toStr(args[0])), argsLabel(args, argLs)),
  now: () => ret(st.now, BOT),
};
