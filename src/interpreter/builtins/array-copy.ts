/**
 * The copying array methods (toSorted, toReversed, toSpliced, with): each returns a new array
 * and leaves its receiver alone. Their rules are those of the methods they copy: elements keep
 * their own labels (refinement `elements`), and the structure carries what decided positions
 * and length; toSorted's order carries what every comparison saw (refinement `order`).
 */
import type { Label } from "../../labels/index.js";
import { throwError } from "../errors.js";
import { join2, mayThrowOn } from "../rules.js";
import { checkArrayLength } from "../state.js";
import { BOT, type Arr, type BuiltinFlags, elemLabel } from "../values.js";
import { arrayMethods, fresh, sortOrder } from "./array.js";
import { type Builtin, argsLabel, asArray, builtin, relIndex, ret, toInt } from "./util.js";

const COPY: BuiltinFlags = { writes: "none", calls: false, throws: false, refine: "elements" };

const base = (a: Arr, selfL: Label): Label => join2(selfL, a.label);
const labelsOf = (a: Arr): Label[] => a.items.map((_, i) => elemLabel(a, i));

const copies: Record<string, Builtin> = {
  toReversed: builtin((_args, _argLs, self, selfL) => {
    const a = asArray(self, selfL, "toReversed");
    return ret(fresh(a.items.slice().reverse(), labelsOf(a).reverse(), base(a, selfL)), selfL);
  }, COPY),
  toSorted: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "toSorted");
    // The elements are taken at the start, as in JavaScript: a comparator that reshapes the
    // array changes nothing of the sorted copy.
    const items = a.items.slice();
    const lbls = labelsOf(a);
    const order = sortOrder(a, items, lbls, selfL, args[0], argLs[0] ?? BOT);
    // Rule (order): the positions carry what every comparison saw.
    return ret(fresh(order.idx.map((i) => items[i]), order.idx.map((i) => lbls[i]), join2(base(a, selfL), order.decided)), selfL);
  }, { writes: "none", throws: false, refine: "order", callsAt: [0] }),
  toSpliced: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "toSpliced");
    const len = a.items.length;
    const start = relIndex(args[0], len, 0);
    const count = args.length === 0 ? 0 : args.length < 2 ? len - start : Math.min(Math.max(toInt(args[1], 0), 0), len - start);
    const inserted = args.slice(2);
    checkArrayLength(len - count + inserted.length);
    const items = a.items.slice();
    const lbls = labelsOf(a);
    items.splice(start, count, ...inserted);
    lbls.splice(start, count, ...argLs.slice(2));
    // Where the cut is and how long it is were decided by start and count.
    return ret(fresh(items, lbls, join2(base(a, selfL), argsLabel(args, argLs, 2))), selfL);
  }, COPY),
  with: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "with");
    const len = a.items.length;
    let i = toInt(args[0], 0);
    if (i < 0) i += len;
    // Whether the index is in range is decided by it and by the length.
    const where = join2(base(a, selfL), argsLabel(args, argLs, 1));
    mayThrowOn(where);
    if (!(i >= 0 && i < len)) return throwError("RangeError", `Invalid index : ${toInt(args[0], 0)}; with() needs an index from ${-len} to ${len - 1}`, where);
    const items = a.items.slice();
    const lbls = labelsOf(a);
    items[i] = args[1];
    lbls[i] = argLs[1] ?? BOT;
    // Which element was replaced is decided by the index: the structure carries it.
    return ret(fresh(items, lbls, where), selfL);
  }, COPY),
};

for (const [name, impl] of Object.entries(copies)) arrayMethods.set(name, impl);

