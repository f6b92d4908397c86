/**
 * The Object namespace. Rule: which keys exist is the object's shape; `Object.keys` carries it,
 * `Object.values` keeps each value's own label, `Object.assign` writes like assignments do.
 */
import type { Label } from "../../labels/index.js";
import { throwError } from "../errors.js";
import { join2, keysLabel, mayThrowOn, withContents, writeSlot, writeThrough } from "../rules.js";
import { charge, checkArrayLength } from "../state.js";
import { ARR, BOT, OBJ, type BuiltinFlags, type Obj, type Val, describe, elemLabel, enumerableKeys, isRef, newArr, newObj, toKey } from "../values.js";
import { ret } from "./util.js";
import { isColl, iterableOf, refuseOwnProperty } from "./collections.js";

interface Entry {
  key: string;
  v: Val;
  l: Label;
}

/** The own entries of an object or array, with the label of which keys there are. */
function entriesOf(v: Val, vl: Label, method: string): { entries: Entry[]; shape: Label } {
  // Only null and undefined throw, and the reference's label decides which it is.
  mayThrowOn(vl);
  // Checked and charged before the entries are made.
  const n = typeof v === "string" ? v.length : isRef(v) && v.k === ARR ? v.items.length : isRef(v) && v.k === OBJ ? v.props.size : 0;
  checkArrayLength(n);
  charge(48 * n);
  if (!isRef(v)) {
    if (typeof v === "string") return { entries: [...v].map((ch, i) => ({ key: String(i), v: ch, l: vl })), shape: vl };
    if (v === null || v === undefined) return throwError("TypeError", `Object.${method} needs an object, got ${v}`, vl);
    return { entries: [], shape: vl };
  }
  if (v.k === OBJ) {
    const base = join2(vl, v.label);
    return { entries: enumerableKeys(v).map((k) => ({ key: k, v: v.props.get(k)!.v, l: join2(base, v.props.get(k)!.l) })), shape: join2(base, keysLabel(v)) };
  }
  if (v.k === ARR) {
    const base = join2(vl, v.label);
    return { entries: v.items.map((x, i) => ({ key: String(i), v: x, l: join2(base, elemLabel(v, i)) })), shape: base };
  }
  return { entries: [], shape: vl };
}

/** Every part of `o` could have been overwritten by a copy whose keys `shape` decided. */
export function overwritable(o: Obj, shape: Label): void {
  if (shape === BOT) return;
  for (const slot of o.props.values()) slot.l = join2(slot.l, shape);
}

function arrayOf(items: Val[], lbls: Label[], structure: Label): Val {
  charge(16 * items.length + 32);
  return newArr(items, lbls.some((l) => l !== BOT) ? lbls : null, structure);
}

export const objectStatics = {
  keys: (args: Val[], argLs: Label[]) => {
    const { entries, shape } = entriesOf(args[0], argLs[0] ?? BOT, "keys");
    return ret(arrayOf(entries.map((e) => e.key), [], shape), argLs[0] ?? BOT);
  },
  values: (args: Val[], argLs: Label[]) => {
    const { entries, shape } = entriesOf(args[0], argLs[0] ?? BOT, "values");
    return ret(arrayOf(entries.map((e) => e.v), entries.map((e) => e.l), shape), argLs[0] ?? BOT);
  },
  entries: (args: Val[], argLs: Label[]) => {
    const { entries, shape } = entriesOf(args[0], argLs[0] ?? BOT, "entries");
    const pairs = entries.map((e) => newArr([e.key, e.v], [BOT, e.l], BOT));
    return ret(arrayOf(pairs, [], shape), argLs[0] ?? BOT);
  },
  fromEntries: (args: Val[], argLs: Label[]) => {
    const srcL = argLs[0] ?? BOT;
    const src = iterableOf(args[0], srcL);
    mayThrowOn(srcL);
    if (!isRef(src) || src.k !== ARR) return throwError("TypeError", `Object.fromEntries needs an array of [key, value] pairs, got ${describe(src)}`, srcL);
    const o = newObj(join2(srcL, src.label));
    // Whether an entry is a pair is decided by its label and the array's length.
    mayThrowOn(join2(srcL, src.label));
    src.items.forEach((pair, i) => {
      const pl = join2(join2(srcL, src.label), elemLabel(src, i));
      mayThrowOn(pl);
      if (!isRef(pair) || pair.k !== ARR) return throwError("TypeError", "each entry must be a [key, value] array", pl);
      // The key is converted to a string: an object key's contents decide it.
      const kl = withContents(pair.items[0], join2(join2(pl, pair.label), elemLabel(pair, 0)));
      const vl = join2(join2(pl, pair.label), elemLabel(pair, 1));
      o.props.set(toKey(pair.items[0]), { v: pair.items[1], l: join2(vl, kl) });
      if (kl !== BOT) (o.label = join2(o.label, kl)), (o.shape = join2(o.shape, kl));
    });
    charge(48 * o.props.size + 64);
    return ret(o, srcL);
  },
  assign: (args: Val[], argLs: Label[]) => {
    const target = args[0];
    const tl = argLs[0] ?? BOT;
    mayThrowOn(tl);
    if (!isRef(target) || target.k !== OBJ) return throwError("TypeError", `Object.assign needs an object target, got ${describe(target)}`, tl);
    if (isColl(target)) return refuseOwnProperty(target, tl, "Cannot assign properties");
    writeThrough(tl, target);
    for (let i = 1; i < args.length; i++) {
      // JavaScript skips null and undefined sources; whether one was null still shapes the target.
      if (args[i] === null || args[i] === undefined) {
        target.shape = join2(target.shape, argLs[i] ?? BOT);
        continue;
      }
      const { entries, shape } = entriesOf(args[i], argLs[i] ?? BOT, "assign");
      // Which keys arrive depends on the source's shape: so does whether each key already there
      // keeps its value.
      overwritable(target, shape);
      for (const e of entries) writeSlot(target as Obj, e.key, e.v, e.l, BOT);
      target.shape = join2(target.shape, shape);
    }
    return ret(target, tl);
  },
  freeze: (args: Val[], argLs: Label[]) => ret(args[0], argLs[0] ?? BOT),
  is: (args: Val[], argLs: Label[]) => ret(Object.is(args[0], args[1]), join2(argLs[0] ?? BOT, argLs[1] ?? BOT)),
  hasOwn: (args: Val[], argLs: Label[]) => {
    const o = args[0];
    const l = join2(argLs[0] ?? BOT, withContents(args[1], argLs[1] ?? BOT));
    if (isRef(o) && o.k === OBJ) return ret(o.props.has(toKey(args[1])), join2(join2(l, o.label), o.shape));
    if (isRef(o) && o.k === ARR) return ret(/^\d+$/.test(toKey(args[1])) && Number(toKey(args[1])) < o.items.length, join2(l, o.label));
    return ret(false, l);
  },
};

/** What each static declares (see BuiltinFlags); the label rule each follows is named by `refine`. */
export const objectFlags: Record<keyof typeof objectStatics, BuiltinFlags> = {
  keys: { writes: "none", calls: false, throws: false, refine: "shape" },
  values: { writes: "none", calls: false, throws: false, refine: "elements" },
  entries: { writes: "none", calls: false, throws: false, refine: "elements" },
  fromEntries: { writes: "none", calls: false, throws: false, refine: "elements" },
  assign: { writes: "arg0", calls: false, throws: false, refine: "mutation" },
  freeze: { writes: "none", calls: false, throws: false, refine: "identity" },
  is: { writes: "none", calls: false, throws: false },
  hasOwn: { writes: "none", calls: false, throws: false, refine: "shape" },
};
