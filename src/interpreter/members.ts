/**
 * Property access. There are no prototypes: an object's own properties are all it has, and
 * methods of arrays, strings, numbers, dates and regular expressions come from fixed tables of
 * builtins, so no program can reach or change a host object.
 */
import type { Label } from "../labels/index.js";
import { arrayMethods } from "./builtins/array.js";
import { stringMethods } from "./builtins/string.js";
import { numberMethods } from "./builtins/number.js";
import { dateMethods } from "./builtins/date.js";
import { regexpMethods } from "./builtins/regexp.js";
import { isColl, mapMethods, refuseOwnProperty, setMethods } from "./builtins/collections.js";
import { throwError, typeError } from "./errors.js";
import { join2, mayThrowOn, moved, readElem, readSlot, reshape, stored, withContents, writeElem, writeSlot, writeThrough } from "./rules.js";
import { charge, checkArrayLength, st } from "./state.js";
import { ARR, BOT, DATE, FN, OBJ, RE, type BuiltinFlags, type BuiltinImpl, type Fn, type Val, describe, flagsOf, isRef, toKey } from "./values.js";

const INDEX = /^(?:0|[1-9]\d*)$/;
const NO_METHODS = new Map<string, BuiltinImpl>();

/** A builtin method bound to its receiver. */
export function bind(name: string, impl: BuiltinImpl, self: Val, selfL: Label): Fn {
  return { k: FN, name, label: selfL, builtin: impl, self, selfL };
}

/** The builtin method table for a receiver, if any. */
export function methodTable(v: Val): Map<string, BuiltinImpl> | undefined {
  switch (typeof v) {
    case "string":
      return stringMethods;
    case "number":
      return numberMethods;
    case "object":
      if (v === null) return undefined;
      if (v.k === ARR) return arrayMethods;
      if (v.k === DATE) return dateMethods;
      if (v.k === RE) return regexpMethods;
      if (v.k === OBJ && v.coll !== undefined) return v.coll.kind === "Map" ? mapMethods : setMethods;
      return undefined;
    default:
      return undefined;
  }
}

/** Names of builtin methods and statics by what calling them may do (see {@link builtinEffectNames}). */
export interface BuiltinEffectNames {
  /** Change their receiver, an argument or hidden state (push, Object.assign, Math.random, …). */
  changing: ReadonlySet<string>;
  /** Call a function given to them (map, replace, JSON.parse, …). */
  callsArgs: ReadonlySet<string>;
  /**
   * For each name in `callsArgs`, the argument positions a builtin of that name may call (the
   * union over every builtin so named); absent: every position (one declares none).
   */
  callsAt: ReadonlyMap<string, readonly number[]>;
  /** Either. */
  effectful: ReadonlySet<string>;
}

let effectNames: BuiltinEffectNames | undefined;

/**
 * The builtins' names by effect, read off their flags once (they are the same for every run).
 * A method call under any other name (and not a name the program stores its own functions
 * under) can only run a builtin without effects, whatever object it reaches.
 */
export function builtinEffectNames(globals: Map<string, Val>): BuiltinEffectNames {
  if (effectNames !== undefined) return effectNames;
  const changing = new Set<string>();
  const callsArgs = new Set<string>();
  const callsAt = new Map<string, readonly number[]>();
  const coarse = new Set<string>();
  // An undeclared flag counts as the most a builtin could do (the declared ones are the allowlist).
  const note = (name: string, f: BuiltinFlags) => {
    if (f.writes !== "none") changing.add(name);
    if (f.calls === false) return;
    callsArgs.add(name);
    if (f.callsAt === undefined || coarse.has(name)) (coarse.add(name), callsAt.delete(name));
    else callsAt.set(name, [...new Set([...(callsAt.get(name) ?? []), ...f.callsAt])]);
  };
  for (const table of [stringMethods, numberMethods, arrayMethods, dateMethods, regexpMethods, mapMethods, setMethods]) for (const [name, impl] of table) note(name, impl);
  for (const v of globals.values()) {
    if (!isRef(v) || v.k !== FN) continue;
    for (const [name, s] of v.statics ?? []) if (isRef(s) && s.k === FN) note(name, flagsOf(s));
  }
  effectNames = { changing, callsArgs, callsAt, effectful: new Set([...changing, ...callsArgs]) };
  return effectNames;
}

/** `obj[key]`, with `objL` the reference's label and `keyL` the key's. Sets `st.l`. */
export function getMember(obj: Val, objL: Label, key: Val, keyL: Label): Val {
  // Rule: a key converted from an object (an array, a Date, an Error) is decided by its contents.
  if (isRef(key)) keyL = withContents(key, keyL);
  mayThrowOn(objL);
  if (obj === null || obj === undefined) {
    return typeError(`Cannot read properties of ${obj} (reading '${toKey(key)}')`, join2(objL, keyL));
  }
  return readMember(obj, objL, key, keyL, false);
}

/**
 * `obj[key]` as a program reads it, without the read's effects (no throw, no pc): what the
 * branch-not-taken rule sees at a path, with the label a read there would have. Undefined (label
 * `objL`) on null and undefined. A method is bound with no receiver label: what calling it may
 * change is upgraded through its path, whose label the upgrade checks once it is done.
 */
export function peekMember(obj: Val, objL: Label, key: string): Val {
  if (obj === null || obj === undefined) return (st.l = objL), undefined;
  return readMember(obj, objL, key, BOT, true);
}

/** The read of getMember on a value that is neither null nor undefined (`peek`: see {@link peekMember}). */
function readMember(obj: Val, objL: Label, key: Val, keyL: Label, peek: boolean): Val {
  if (typeof obj === "object" && obj !== null) {
    if (obj.k === ARR) {
      if (typeof key === "number" && Number.isInteger(key) && key >= 0) return readElem(obj, key, objL, keyL);
      const k = toKey(key);
      if (INDEX.test(k)) return readElem(obj, Number(k), objL, keyL);
      if (k === "length") return (st.l = st.mutants.lengthDropsLabel ? join2(objL, keyL) : join2(join2(objL, keyL), obj.label)), obj.items.length;
      const extra = obj.extra?.get(k);
      // A match result's index, input and groups: parts of the array, read as its elements are.
      if (extra !== undefined) return (st.l = join2(join2(join2(objL, keyL), obj.label), extra.l)), extra.v;
      return methodRead(arrayMethods, k, obj, objL, keyL, peek);
    }
    if (obj.k === OBJ && obj.coll !== undefined) {
      const k = toKey(key);
      // A collection's size is its structure; its own properties are read as an object's.
      if (k === "size") return (st.l = join2(join2(join2(objL, keyL), obj.label), obj.shape)), obj.coll.keys.length;
      // No own property can shadow a method (see refuseOwnProperty).
      if (methodTable(obj)?.has(k)) return methodRead(methodTable(obj)!, k, obj, objL, keyL, peek);
    }
    if (obj.k === OBJ) return readSlot(obj, toKey(key), objL, st.mutants.keyDropsLabel ? BOT : keyL);
    if (obj.k === FN) {
      const k = toKey(key);
      st.l = join2(objL, keyL);
      if (k === "name") return obj.name;
      return obj.statics?.get(k);
    }
    if (obj.k === RE) {
      const k = toKey(key);
      if (k === "source" || k === "flags" || k === "lastIndex" || k === "global") {
        st.l = join2(join2(objL, keyL), obj.label);
        return k === "global" ? obj.flags.includes("g") : obj[k];
      }
    }
    return methodRead(methodTable(obj) ?? NO_METHODS, toKey(key), obj, objL, keyL, peek);
  }
  if (typeof obj === "string") {
    if (typeof key === "number") return (st.l = join2(objL, keyL)), obj[key];
    const k = toKey(key);
    if (k === "length") return (st.l = join2(objL, keyL)), obj.length;
    if (INDEX.test(k)) return (st.l = join2(objL, keyL)), obj[Number(k)];
    return methodRead(stringMethods, k, obj, objL, keyL, peek);
  }
  return methodRead(methodTable(obj) ?? NO_METHODS, toKey(key), obj, objL, keyL, peek);
}

function methodRead(table: Map<string, BuiltinImpl>, k: string, obj: Val, objL: Label, keyL: Label, peek: boolean): Val {
  const impl = table.get(k);
  st.l = join2(objL, keyL);
  // Bound to the receiver's reference alone: the key chose which method, not which receiver, so
  // the call gate sees a key data chose as a choice of function (attack r10-stops).
  return impl === undefined ? undefined : bind(k, impl, obj, peek ? BOT : objL);
}

/**
 * `obj[key] = v`. `computed` says the key is an expression: which part gets written is then
 * not known when the write does not run, so under a pc the whole container takes the pc, as
 * the upgrade of the branch not taken does.
 */
export function setMember(obj: Val, objL: Label, key: Val, keyL: Label, v: Val, vl: Label, computed = false): void {
  if (isRef(key)) keyL = withContents(key, keyL);
  mayThrowOn(objL);
  if (typeof obj !== "object" || obj === null) {
    typeError(`Cannot set properties of ${describe(obj)} (setting '${toKey(key)}')`, join2(objL, keyL));
  }
  if (isColl(obj)) return refuseOwnProperty(obj, join2(objL, keyL), `Cannot set property '${toKey(key)}'`);
  writeThrough(objL, obj);
  if (computed && (obj.k === OBJ || obj.k === ARR)) reshape(obj);
  if (obj.k === OBJ) return writeSlot(obj, toKey(key), v, vl, keyL);
  // Rule: on anything but a plain object, whether the write throws is decided by the key.
  mayThrowOn(keyL);
  if (obj.k === ARR) {
    const i = typeof key === "number" ? key : INDEX.test(toKey(key)) ? Number(toKey(key)) : NaN;
    if (Number.isInteger(i) && i >= 0) {
      checkArrayLength(i + 1);
      return writeElem(obj, i, v, vl, keyL);
    }
    if (toKey(key) === "length") {
      // ... and for an array's length, by the value.
      mayThrowOn(vl);
      if (!(typeof v === "number" && Number.isInteger(v) && v >= 0)) {
        // As in JavaScript, a RangeError; its message quotes the value, which carries its label.
        return throwError("RangeError", `Invalid array length ${describe(v)}; set the length to a whole number of at least 0`, join2(join2(objL, keyL), isRef(v) ? withContents(v, vl) : vl));
      }
      checkArrayLength(v);
      reshape(obj, join2(vl, keyL));
      if (v < obj.items.length) {
        obj.items.length = v;
        if (obj.lbls !== null) obj.lbls.length = v;
      } else {
        // Charged before it is allocated: growth is memory as much as a literal's elements.
        charge(16 * (v - obj.items.length));
        while (obj.items.length < v) (obj.items.push(undefined), obj.lbls?.push(BOT));
      }
      return;
    }
    return typeError(`Cannot set property '${toKey(key)}' of an array; use an index or push()`, join2(objL, keyL));
  }
  if (obj.k === RE && toKey(key) === "lastIndex") {
    obj.lastIndex = Number(v);
    obj.label = join2(obj.label, join2(stored(vl), keyL));
    return;
  }
  typeError(`Cannot set properties of ${describe(obj)}`, join2(objL, keyL));
}

/**
 * Whether {@link setMember} on `obj` with `key` may throw a catchable error whatever the value:
 * anything but a plain object (a Map or Set is not one), an array's index, and a regex's lastIndex. For the write not
 * made (a logical assignment that keeps its value): its throw is decided as the write's is.
 */
export function setMayThrow(obj: Val, key: Val): boolean {
  if (!isRef(obj)) return true;
  // A Map or Set refuses every own property (refuseOwnProperty; attack r13: `m.size &&= 0`).
  if (isColl(obj)) return true;
  if (obj.k === OBJ) return false;
  const k = toKey(key);
  if (obj.k === ARR) return !(typeof key === "number" ? Number.isInteger(key) && key >= 0 : INDEX.test(k));
  return !(obj.k === RE && k === "lastIndex");
}

/** `delete obj[key]`. */
export function deleteMember(obj: Val, objL: Label, key: Val, keyL: Label): boolean {
  if (isRef(key)) keyL = withContents(key, keyL);
  mayThrowOn(objL);
  if (typeof obj !== "object" || obj === null) return typeError(`Cannot delete properties of ${describe(obj)}`, join2(objL, keyL));
  // A collection has no own properties: nothing to delete, nothing changes (JavaScript's answer).
  if (isColl(obj)) return true;
  writeThrough(objL, obj);
  if (obj.k === OBJ) {
    obj.props.delete(toKey(key));
    // Which keys exist changed (the shape), as the upgrade of the branch not taken assumes;
    // the values of the other keys did not, unless the key itself was chosen by data.
    obj.shape = join2(obj.shape, join2(st.pc, keyL));
    if (keyL !== BOT) obj.label = join2(obj.label, keyL);
    // As in JavaScript, true whether or not the key was there: the answer says nothing of the shape.
    return true;
  }
  if (obj.k === ARR) {
    const k = toKey(key);
    // Whether it moves anything depends on the length: it forgets how the array was built either way.
    moved(obj);
    if (INDEX.test(k) && Number(k) < obj.items.length) {
      obj.items[Number(k)] = undefined;
      reshape(obj, keyL);
    }
    return true;
  }
  return true;
}

/** `key in obj`. Sets `st.l`. */
export function hasMember(key: Val, keyL: Label, obj: Val, objL: Label): boolean {
  if (isRef(key)) keyL = withContents(key, keyL);
  mayThrowOn(objL);
  // The message quotes the key: it carries the key's label.
  if (typeof obj !== "object" || obj === null) return typeError(`Cannot use 'in' to search for '${toKey(key)}' in ${describe(obj)}`, join2(objL, keyL));
  const k = toKey(key);
  const base = join2(objL, keyL);
  if (isColl(obj)) {
    // Its methods and size, whatever it holds: the answer is decided by which kind it is.
    st.l = base;
    return k === "size" || methodTable(obj)!.has(k);
  }
  if (obj.k === OBJ) {
    st.l = st.mutants.hasDropsShape ? join2(base, obj.label) : join2(join2(base, obj.label), obj.shape);
    return obj.props.has(k);
  }
  if (obj.k === ARR) {
    st.l = join2(base, obj.label);
    return (INDEX.test(k) && Number(k) < obj.items.length) || k === "length" || arrayMethods.has(k);
  }
  st.l = base;
  return methodTable(obj)?.has(k) ?? false;
}
