/**
 * JSON. Rule: `JSON.stringify` carries the label of everything it serialised (the deep label);
 * `JSON.parse` labels every part it builds with the text's label. Replacer and reviver
 * functions are in json-callbacks.ts.
 */
import type { Label } from "../../labels/index.js";
import { throwError } from "../errors.js";
import { deepLabel, join2, withContents } from "../rules.js";
import { charge, checkArrayLength, checkString, st, step } from "../state.js";
import { ARR, BOT, DATE, FN, OBJ, RE, type Val, isRef, newArr, newObj, enumerableKeys, toNum, toStr } from "../values.js";
import { replaceAll, revive } from "./json-callbacks.js";
import { ret } from "./util.js";

/** The keys an array replacer allows (`JSON.stringify(v, ["a", "b"])`), in its order, once each. */
export type AllowList = string[] | undefined;

export function allowList(replacer: Val): AllowList {
  if (!isRef(replacer) || replacer.k !== ARR) return undefined;
  const keys: string[] = [];
  for (const x of replacer.items) {
    if ((typeof x === "string" || typeof x === "number") && !keys.includes(String(x))) keys.push(String(x));
  }
  return keys;
}

/** Converts a value to plain JSON data (undefined where JSON omits it). */
export function toJsonData(v: Val, seen: Set<Val> = new Set(), allow?: AllowList): unknown {
  if (!isRef(v)) return typeof v === "number" && !Number.isFinite(v) ? null : v;
  // One step and one part's memory per container visited: shared parts are walked each time.
  step();
  charge(32);
  if (seen.has(v)) return throwError("TypeError", "Converting circular structure to JSON", BOT);
  switch (v.k) {
    case FN:
      return undefined;
    case DATE:
      return Number.isNaN(v.t) ? null : new Date(v.t).toISOString();
    case RE:
      return {};
    case ARR: {
      seen.add(v);
      const out = v.items.map((x) => {
        const j = toJsonData(x, seen, allow);
        return j === undefined ? null : j;
      });
      seen.delete(v);
      return out;
    }
    case OBJ: {
      seen.add(v);
      const out: Record<string, unknown> = {};
      // An allow list reads each listed key, enumerable or not (an Error's message too).
      for (const k of allow ?? enumerableKeys(v)) {
        const slot = v.props.get(k);
        const j = slot === undefined ? undefined : toJsonData(slot.v, seen, allow);
        if (j !== undefined) out[k] = j;
      }
      seen.delete(v);
      return out;
    }
  }
}

export function stringify(args: Val[], argLs: Label[]): Val {
  const [v, replacer, space] = args;
  let l = join2(argLs[0] ?? BOT, st.mutants.stringifyShallow ? BOT : deepLabel(v));
  let data: unknown;
  if (isRef(replacer) && replacer.k === FN) ({ data, l } = replaceAll(v, l, replacer, argLs[1] ?? BOT));
  else {
    data = toJsonData(v, new Set(), allowList(replacer));
    l = join2(l, withContents(replacer, argLs[1] ?? BOT));
  }
  // As in JavaScript, only a number or a string indents; any object given as space (an array,
  // an Error, a Date) is ignored, so the indent depends on the argument itself, not its contents.
  const indent = typeof space === "number" ? Math.min(10, space) : typeof space === "string" ? space.slice(0, 10) : undefined;
  const s = data === undefined ? undefined : JSON.stringify(data, null, indent);
  if (s !== undefined) (charge(2 * s.length), checkString(s));
  return ret(s, join2(l, argLs[2] ?? BOT));
}

/** Builds interpreter values from parsed JSON, every part labelled `l`. */
export function fromJsonData(x: unknown, l: Label): Val {
  if (x === null || typeof x !== "object") return x as Val;
  if (Array.isArray(x)) {
    checkArrayLength(x.length);
    charge(16 * x.length + 32);
    return newArr(
      x.map((e) => fromJsonData(e, l)),
      null,
      l,
    );
  }
  const o = newObj(l);
  for (const [k, e] of Object.entries(x)) o.props.set(k, { v: fromJsonData(e, l), l });
  charge(48 * o.props.size + 64);
  return o;
}

export function parse(args: Val[], argLs: Label[]): Val {
  // The text, an object's converted contents included.
  const l = withContents(args[0], argLs[0] ?? BOT);
  let data: unknown;
  const text = toStr(args[0]);
  try {
    data = JSON.parse(text);
  } catch (err) {
    // The host's stack ran out (text nested thousands deep): how deep fits is the host's, not
    // the program's, so it ends the run as a limit rather than being an error it can catch.
    if (err instanceof RangeError) throw err;
    return throwError("SyntaxError", (err as Error).message, l);
  }
  const reviver = args[1];
  if (isRef(reviver) && reviver.k === FN) {
    const out = revive(fromJsonData(data, l), l, reviver, argLs[1] ?? BOT);
    return ret(out.v, out.l);
  }
  return ret(fromJsonData(data, l), l);
}

void toNum;
