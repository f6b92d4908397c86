/** Number methods and the Number namespace. Rule: results join the receiver's and arguments' labels. */
import { join2 } from "../rules.js";
import { throwError } from "../errors.js";
import { BOT, type Val, toNum, toStr } from "../values.js";
import { type Builtin, argsLabel, builtin, ret, toInt } from "./util.js";
import type { Label } from "../../labels/index.js";

function n(impl: (x: number, args: Val[]) => Val): Builtin {
  return builtin((args, argLs, self, selfL) => {
    if (typeof self !== "number") return throwError("TypeError", "number method called on a non-number", selfL);
    const l = join2(selfL, argsLabel(args, argLs));
    try {
      return ret(impl(self, args), l);
    } catch (err) {
      return throwError("RangeError", (err as Error).message, l);
    }
  });
}

export const numberMethods = new Map<string, Builtin>(
  Object.entries({
    toFixed: n((x, a) => x.toFixed(toInt(a[0], 0))),
    toPrecision: n((x, a) => (a[0] === undefined ? String(x) : x.toPrecision(toInt(a[0], 1)))),
    toString: n((x, a) => x.toString(a[0] === undefined ? 10 : toInt(a[0], 10))),
    toLocaleString: n((x, a) => x.toLocaleString("en-US", a[0] === undefined ? undefined : undefined)),
    valueOf: n((x) => x),
  }),
);

/** A numeric function of its arguments, labelled with all of them. */
export function numeric(f: (...xs: number[]) => number): (args: Val[], argLs: Label[]) => Val {
  return (args, argLs) => ret(f(...args.map(toNum)), argsLabel(args, argLs));
}

export function parseIntImpl(args: Val[], argLs: Label[]): Val {
  return ret(Number.parseInt(toStr(args[0]), args[1] === undefined ? undefined : toNum(args[1])), argsLabel(args, argLs));
}

export function parseFloatImpl(args: Val[], argLs: Label[]): Val {
  return ret(Number.parseFloat(toStr(args[0])), argsLabel(args, argLs));
}

export const numberStatics = {
  isInteger: (args: Val[], argLs: Label[]) => ret(Number.isInteger(args[0]), argLs[0] ?? BOT),
  isSafeInteger: (args: Val[], argLs: Label[]) => ret(Number.isSafeInteger(args[0]), argLs[0] ?? BOT),
  isFinite: (args: Val[], argLs: Label[]) => ret(Number.isFinite(args[0]), argLs[0] ?? BOT),
  isNaN: (args: Val[], argLs: Label[]) => ret(Number.isNaN(args[0]), argLs[0] ?? BOT),
  parseInt: parseIntImpl,
  parseFloat: parseFloatImpl,
};
