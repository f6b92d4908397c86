/**
 * `Object.groupBy(items, f)`: an object from each answer of `f` to the items it answered for.
 * The default (coarse) rule: which keys exist, which group an item is in and in what order all
 * depend on every answer, so the result and every part of it carry the inputs (contents
 * included) and every answer (contents included).
 */
import type { Label } from "../../labels/index.js";
import { typeError } from "../errors.js";
import { join2, withContents } from "../rules.js";
import { charge, st } from "../state.js";
import { ARR, BOT, type Arr, type Val, elemLabel, isRef, newObj, toKey } from "../values.js";
import { arrayMethods, fresh } from "./array.js";
import { argsLabel, ret } from "./util.js";
import { iterableOf } from "./collections.js";

/** The items of what groupBy is given, as a new array the callback cannot reach. */
function itemsOf(value: Val, srcL: Label, name: string): Arr {
  const src = iterableOf(value, srcL);
  if (typeof src === "string") return fresh([...src], null, srcL);
  if (isRef(src) && src.k === ARR) return fresh(src.items.slice(), src.items.map((_, i) => elemLabel(src, i)), join2(srcL, src.label));
  return typeError(`${name} needs an array and a function, e.g. ${name}(items, (x) => x.kind)`, srcL);
}

export function groupBy(args: Val[], argLs: Label[]): Val {
  const items = itemsOf(args[0], argLs[0] ?? BOT, "Object.groupBy");
  const keys = arrayMethods.get("map")!([args[1]], [argLs[1] ?? BOT], items, BOT) as Arr;
  let l = join2(join2(argsLabel(args, argLs), st.l), keys.label);
  for (let i = 0; i < keys.items.length; i++) l = join2(l, withContents(keys.items[i], elemLabel(keys, i)));
  const out = newObj(l);
  for (let i = 0; i < items.items.length; i++) {
    const k = toKey(keys.items[i]);
    let group = out.props.get(k)?.v as Arr | undefined;
    if (group === undefined) {
      charge(64 + 2 * k.length);
      group = fresh([], null, l);
      out.props.set(k, { v: group, l });
    }
    charge(16);
    group.items.push(items.items[i]);
    (group.lbls ??= []).push(l);
  }
  return ret(out, l);
}
