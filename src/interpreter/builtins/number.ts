/**
 * Number methods and the Number namespace. They follow the default rule of the call gate
 * (receiver and arguments; a host RangeError becomes the program's, with the same label).
 */
import { throwError } from "../errors.js";
import { BOT, type Val, toNum, toStr } from "../values.js";
import { type Builtin, PURE, TOTAL, builtin, fnValue, ret, toInt } from "./util.js";
import type { Label } from "../../labels/index.js";

function n(impl: (x: number, args: Val[]) => Val, throws = true): Builtin {
  return builtin((args, _argLs, self, selfL) => {
    if (typeof self !== "number") return throwError("TypeError", "number method called on a non-number", selfL);
    return impl(self, args);
  }, throws ? PURE : TOTAL);
}

export const numberMethods = new Map<string, Builtin>(
  Object.entries({
    toFixed: n((x, a) => x.toFixed(toInt(a[0], 0))),
    toPrecision: n((x, a) => (a[0] === undefined ? String(x) : x.toPrecision(toInt(a[0], 1)))),
    toString: n((x, a) => x.toString(a[0] === undefined ? 10 : toInt(a[0], 10))),
    toLocaleString: n((x) => x.toLocaleString("en-US"), false),
    valueOf: n((x) => x, false),
  }),
);

/** A numeric function of its arguments (the default rule: labelled with all of them). */
export function numeric(name: string, f: (...xs: number[]) => number) {
  return fnValue(name, (args) => f(...args.map(toNum)), undefined, TOTAL);
}

const TYPE_TEST = { ...TOTAL, refine: "typeOf" };

/** Number.isInteger and the like read only the argument's type and value, not its contents. */
function typeTest(name: string, f: (v: unknown) => boolean) {
  return fnValue(`Number.${name}`, (args, argLs) => ret(f(args[0]), argLs[0] ?? BOT), undefined, TYPE_TEST);
}

export const numberStatics = {
  isInteger: typeTest("isInteger", Number.isInteger),
  isSafeInteger: typeTest("isSafeInteger", Number.isSafeInteger),
  isFinite: typeTest("isFinite", Number.isFinite),
  isNaN: typeTest("isNaN", Number.isNaN),
  parseInt: fnValue("parseInt", (args) => Number.parseInt(toStr(args[0]), args[1] === undefined ? undefined : toNum(args[1])), undefined, TOTAL),
  parseFloat: fnValue("parseFloat", (args) => Number.parseFloat(toStr(args[0])), undefined, TOTAL),
};

void BOT;
void ({} as Label);
