/** Small helpers shared by the builtin tables. */
import type { Label } from "../../labels/index.js";
import { typeError } from "../errors.js";
import { join2, withContents } from "../rules.js";
import { st } from "../state.js";
import { ARR, BOT, FN, type Arr, type BuiltinFlags, type BuiltinImpl, type Fn, type Val, describe, isRef } from "../values.js";

/** A builtin with the flags it declares (see BuiltinFlags: an undeclared flag means the most it could do). */
export type Builtin = BuiltinImpl;

type Impl = (args: Val[], argLs: Label[], self: Val, selfL: Label) => Val;

/** Declares a builtin's implementation with its flags. */
export function builtin(impl: Impl, flags: BuiltinFlags = {}): Builtin {
  return Object.assign(impl, flags);
}

/** Flags of a builtin that changes nothing and calls nothing; it may still throw unless `throws: false` is added. */
export const PURE: BuiltinFlags = { writes: "none", calls: false };

/** Flags of a builtin that changes nothing, calls nothing and throws only on a wrong receiver. */
export const TOTAL: BuiltinFlags = { writes: "none", calls: false, throws: false };

/** A builtin function value (a global or a static of a namespace). */
export function fnValue(name: string, impl: Impl, statics?: Record<string, Val>, flags: BuiltinFlags = {}): Fn {
  return { k: FN, name, label: BOT, builtin: builtin(impl, flags), statics: statics ? new Map(Object.entries(statics)) : undefined };
}

/** The join of the first `n` argument labels (all when n is omitted), contents of objects included. */
export function argsLabel(args: Val[], argLs: Label[], n = argLs.length): Label {
  let l: Label = BOT;
  for (let i = 0; i < n && i < argLs.length; i++) l = join2(l, withContents(args[i], argLs[i] ?? BOT));
  return l;
}

/** Returns `v` labelled `l`. */
export function ret<T extends Val>(v: T, l: Label): T {
  st.l = l;
  return v;
}

export function asArray(self: Val, selfL: Label, method: string): Arr {
  if (!isRef(self) || self.k !== ARR) return typeError(`${method} needs an array, got ${describe(self)}`, selfL);
  return self;
}

export function asString(self: Val, selfL: Label, method: string): string {
  if (typeof self !== "string") return typeError(`${method} needs a string, got ${describe(self)}`, selfL);
  return self;
}

export function toInt(v: Val, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Math.trunc(Number(typeof v === "object" ? NaN : v));
  return Number.isNaN(n) ? 0 : n;
}

/** Resolves a relative index as slice() does. */
export function relIndex(v: Val, len: number, fallback: number): number {
  const n = toInt(v, fallback);
  return n < 0 ? Math.max(len + n, 0) : Math.min(n, len);
}
