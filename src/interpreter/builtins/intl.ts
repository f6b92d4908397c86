/**
 * `Intl.NumberFormat`, `Intl.DateTimeFormat`, and the locale methods of numbers and dates
 * (`toLocaleString`, `toLocaleDateString`, `toLocaleTimeString`), for a fixed list of locales.
 * Output is deterministic: the locale is always explicit (en-US when none is given, never the
 * host's), the time zone is UTC unless the program names one, and only options with primitive
 * values from a fixed list reach the host's ICU, which turns numbers and dates into strings.
 * Rule: the default one (a result carries the receiver, the locale, the options and the value);
 * a formatter's `format` carries the label of what built it.
 */
import type { Label } from "../../labels/index.js";
import { throwError } from "../errors.js";
import { join2 } from "../rules.js";
import { st } from "../state.js";
import { BOT, DATE, OBJ, type Fn, type Val, isRef, newObj, toNum, toStr } from "../values.js";
import { dateMethods } from "./date.js";
import { numberMethods } from "./number.js";
import { PURE, TOTAL, argsLabel, builtin, fnValue, ret } from "./util.js";

/** The locales programs may name; a language alone means its first region here. */
export const LOCALES = ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "nl-NL", "pt-BR", "ja-JP"] as const;
const BY_LANGUAGE = new Map<string, string>([["en", "en-US"], ["de", "de-DE"], ["fr", "fr-FR"], ["es", "es-ES"], ["it", "it-IT"], ["nl", "nl-NL"], ["pt", "pt-BR"], ["ja", "ja-JP"]]);

const NUMBER_OPTIONS = [
  "style", "currency", "currencyDisplay", "currencySign", "unit", "unitDisplay", "minimumIntegerDigits", "minimumFractionDigits",
  "maximumFractionDigits", "minimumSignificantDigits", "maximumSignificantDigits", "useGrouping", "notation", "compactDisplay",
  "signDisplay", "roundingMode",
];
const DATE_OPTIONS = [
  "dateStyle", "timeStyle", "weekday", "era", "year", "month", "day", "hour", "minute", "second", "fractionalSecondDigits",
  "hour12", "hourCycle", "timeZone", "timeZoneName",
];

/** The locale a program asked for, as one of {@link LOCALES}; a RangeError names the choices. */
function localeOf(v: Val, l: Label): string {
  if (v === undefined) return "en-US";
  const first = isRef(v) && v.k === 2 ? v.items[0] : v;
  if (typeof first !== "string") return throwError("TypeError", "a locale is a string such as \"en-US\"", l);
  const exact = LOCALES.find((x) => x.toLowerCase() === first.toLowerCase());
  const locale = exact ?? BY_LANGUAGE.get(first.toLowerCase());
  if (locale === undefined) return throwError("RangeError", `the locale "${first.slice(0, 20)}" is not available; use one of ${LOCALES.join(", ")}`, l);
  return locale;
}

/** The options object as plain host data: listed keys with primitive values only. */
function optionsOf(v: Val, l: Label, keys: readonly string[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (v === undefined || v === null) return out;
  if (!isRef(v) || v.k !== OBJ) return throwError("TypeError", "the options of a formatter are an object such as { maximumFractionDigits: 2 }", l);
  for (const k of keys) {
    const x = v.props.get(k)?.v;
    if (x === undefined) continue;
    out[k] = typeof x === "number" || typeof x === "boolean" ? x : toStr(x);
  }
  return out;
}

/** Runs a host formatting step; its errors (a bad option) become the program's, decided by `l`. */
function host<T>(f: () => T, l: Label): T {
  try {
    return f();
  } catch (e) {
    return throwError(e instanceof RangeError ? "RangeError" : "TypeError", e instanceof Error ? e.message : String(e), l);
  }
}

function numberFormat(locale: Val, options: Val, l: Label): Intl.NumberFormat {
  const loc = localeOf(locale, l);
  const opts = optionsOf(options, l, NUMBER_OPTIONS);
  return host(() => new Intl.NumberFormat(loc, opts), l);
}

/** `kind` picks the default fields, as toLocaleDateString, toLocaleTimeString and toLocaleString do. */
function dateFormat(locale: Val, options: Val, l: Label, kind: "any" | "date" | "time" | "both" = "any"): Intl.DateTimeFormat {
  const loc = localeOf(locale, l);
  const opts: Record<string, string | number | boolean> = { timeZone: "UTC", ...optionsOf(options, l, DATE_OPTIONS) };
  const fields = ["weekday", "year", "month", "day", "hour", "minute", "second", "dateStyle", "timeStyle", "fractionalSecondDigits"].some((k) => k in opts);
  if (!fields && kind === "date") Object.assign(opts, { year: "numeric", month: "numeric", day: "numeric" });
  if (!fields && (kind === "time" || kind === "both")) Object.assign(opts, { hour: "numeric", minute: "numeric", second: "numeric" });
  if (!fields && kind === "both") Object.assign(opts, { year: "numeric", month: "numeric", day: "numeric" });
  return host(() => new Intl.DateTimeFormat(loc, opts), l);
}

function timeOf(v: Val): number {
  return isRef(v) && v.k === DATE ? v.t : v === undefined ? NaN : toNum(v);
}

/** A formatter object: its `format` reads the formatter built when it was made. */
function formatter(format: (v: Val) => string, throws: boolean): Val {
  const o = newObj();
  const f: Fn = fnValue("format", (args) => format(args[0]), undefined, throws ? PURE : TOTAL);
  o.props.set("format", { v: f, l: BOT });
  return o;
}

export const intlStatics: Record<string, Val> = {
  NumberFormat: fnValue("Intl.NumberFormat", (args, argLs) => {
    const l = argsLabel(args, argLs);
    const nf = numberFormat(args[0], args[1], l);
    return ret(formatter((v) => nf.format(toNum(v)), false), l);
  }, undefined, { writes: "none", calls: false }),
  DateTimeFormat: fnValue("Intl.DateTimeFormat", (args, argLs) => {
    const l = argsLabel(args, argLs);
    const df = dateFormat(args[0], args[1], l);
    // An invalid date is a RangeError, decided by the date (the default rule's inputs).
    // format() without a date formats now: the run's clock, as `new Date()` gives it.
    return ret(formatter((v) => df.format(v === undefined ? st.now : timeOf(v)), true), l);
  }, undefined, { writes: "none", calls: false }),
};

// The locale methods of numbers and dates, with their locale and options honoured.
numberMethods.set("toLocaleString", builtin((args, argLs, self, selfL) => {
  if (typeof self !== "number") return throwError("TypeError", "number method called on a non-number", selfL);
  const l = join2(selfL, argsLabel(args, argLs));
  return ret(numberFormat(args[0], args[1], l).format(self), l);
}, PURE));

for (const [name, kind] of [["toLocaleString", "both"], ["toLocaleDateString", "date"], ["toLocaleTimeString", "time"]] as const) {
  dateMethods.set(name, builtin((args, argLs, self, selfL) => {
    if (!isRef(self) || self.k !== DATE) return throwError("TypeError", "this is not a Date", selfL);
    const l = join2(join2(selfL, self.label), argsLabel(args, argLs));
    if (Number.isNaN(self.t)) return ret("Invalid Date", l);
    return ret(dateFormat(args[0], args[1], l, kind).format(self.t), l);
  }, PURE));
}

