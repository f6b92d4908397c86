/**
 * `Array(n)` and `new Array(n)`: n empty slots (undefined here, as `fill` and `map` then see
 * them), and `Array(a, b, …)` / `Array("x")`: those elements, as `Array.of`. Whether the one
 * argument is a length or an element is decided by it: the new array's structure carries its
 * label (refinement `elements`). A length is checked and charged before anything is allocated.
 */
import { throwError } from "../errors.js";
import { mayThrowOn } from "../rules.js";
import { charge, checkArrayLength } from "../state.js";
import { BOT, newArr } from "../values.js";
import { fresh } from "./array.js";
import { type Builtin, builtin, ret } from "./util.js";

export const arrayConstructor: Builtin = builtin((args, argLs) => {
  if (args.length !== 1) return ret(fresh(args.slice(), argLs.slice(), BOT), BOT);
  const l = argLs[0] ?? BOT;
  const n = args[0];
  // A number is a length, and a bad length throws: both decided by the argument.
  mayThrowOn(l);
  if (typeof n !== "number") return ret(fresh([n], [l], l), BOT);
  if (!(Number.isInteger(n) && n >= 0 && n < 2 ** 32)) return throwError("RangeError", `Invalid array length ${n}; Array(n) needs a whole number of at least 0`, l);
  checkArrayLength(n);
  charge(16 * n + 32);
  return ret(newArr(new Array<undefined>(n).fill(undefined), null, l), BOT);
}, { writes: "none", calls: false, throws: false, refine: "elements" });
