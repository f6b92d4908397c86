/**
 * Map and Set. A collection is an object (so `typeof`, references, the upgrade of a region not
 * taken and writes through data-chosen references work as for any object) with its entries kept
 * apart, keyed by SameValueZero. The rules mirror an object's, with keys that are values:
 * - entry i has its own labels: `kls[i]`, what decided that its key is there (the pc of the
 *   `set`/`add` that made it and the key's deep label), and `vls[i]`, its value's label;
 * - the collection's `shape` is what decided which keys exist, their order and the size (every
 *   insertion or removal joins the pc and the key's label); its `label` joins every key label a
 *   write or delete was chosen by (a data-chosen key may have hit any entry);
 * - a lookup (`get`, `has`, `delete`'s answer) carries the reference, the label, the key's deep
 *   label and, found, the entry's labels, or, not found, the shape;
 * - `size`, iteration and the arrays keys/values/entries carry the shape; iteration works on a
 *   snapshot taken when it starts (entries added during a loop are not visited, unlike V8).
 * A `set` or `delete` in a region not taken upgrades the whole collection (label and shape), as
 * for any builtin that declares `writes: "self"`.
 */
import type { Label } from "../../labels/index.js";
import { throwError, typeError } from "../errors.js";
import { enterPc, join2, leavePc, mayThrowOn, reshape, stored, underPc, withContents, writeThrough } from "../rules.js";
import { callBack, upgradeCallback } from "../rules-calls.js";
import { charge, checkArrayLength, step, st } from "../state.js";
import { ARR, BOT, FN, OBJ, type Arr, type BuiltinFlags, type Coll, type Obj, type Val, describe, elemLabel, isRef, newArr, newObj, sameValueZero } from "../values.js";
import { type Builtin, builtin, fnValue, ret } from "./util.js";

const CHANGE: BuiltinFlags = { writes: "self", calls: false, throws: false, refine: "mutation" };
const LOOKUP: BuiltinFlags = { writes: "none", calls: false, throws: false, refine: "element" };
const LIST: BuiltinFlags = { writes: "none", calls: false, throws: false, refine: "elements" };

/** True when `v` is a Map or a Set. */
export function isColl(v: Val): v is Obj & { coll: Coll } {
  return isRef(v) && v.k === OBJ && v.coll !== undefined;
}

/**
 * A Map or Set has no own properties here (in JavaScript it may): so a method read always finds
 * the method, and nothing data decided can shadow one (`m[key] = 1` where `key` may be "get").
 * Whether this throws is decided by the reference alone: every key throws.
 */
export function refuseOwnProperty(o: Obj & { coll: Coll }, l: Label, what: string): never {
  const how = o.coll.kind === "Map" ? "store entries with map.set(key, value) and read them with map.get(key)" : "add values with set.add(value)";
  return typeError(`${what} of a ${o.coll.kind}: a ${o.coll.kind} has no properties of its own in plans; ${how}, or use a plain object`, l);
}

function asColl(self: Val, selfL: Label, kind: "Map" | "Set", method: string): Obj & { coll: Coll } {
  if (!isColl(self) || self.coll.kind !== kind) return typeError(`${kind}.prototype.${method} called on something else`, selfL);
  return self;
}

function find(c: Coll, key: Val): number {
  for (let i = 0; i < c.keys.length; i++) if (sameValueZero(c.keys[i], key)) return i;
  return -1;
}

/** What a lookup of `key` reads: the reference, the label, the key, and the entry or the shape. */
function lookupLabel(o: Obj & { coll: Coll }, selfL: Label, i: number, keyL: Label): Label {
  const l = join2(join2(selfL, o.label), keyL);
  return i < 0 ? join2(l, o.shape) : join2(l, o.coll.kls[i]);
}

/** Adds or overwrites an entry: the rule of an object's write, with a key that is a value. */
function put(o: Obj & { coll: Coll }, key: Val, keyL: Label, v: Val, vl: Label): void {
  const c = o.coll;
  const kl = withContents(key, keyL);
  const i = find(c, key);
  if (i < 0) {
    checkArrayLength(c.keys.length + 1);
    charge(48);
    c.keys.push(key === 0 ? 0 : key);
    c.vals.push(v);
    c.kls.push(join2(st.pc, kl));
    c.vls.push(join2(stored(vl), kl));
    o.shape = join2(o.shape, join2(st.pc, kl));
  } else {
    c.vals[i] = v;
    c.vls[i] = join2(stored(vl), kl);
  }
  // A data-chosen key may have hit any entry: every read of the collection carries it.
  if (kl !== BOT) o.label = join2(o.label, kl);
}

function remove(o: Obj & { coll: Coll }, key: Val, keyL: Label): boolean {
  const c = o.coll;
  const kl = withContents(key, keyL);
  const i = find(c, key);
  if (i >= 0) for (const part of [c.keys, c.vals, c.kls, c.vls] as unknown[][]) part.splice(i, 1);
  o.shape = join2(o.shape, join2(st.pc, kl));
  if (kl !== BOT) o.label = join2(o.label, kl);
  return i >= 0;
}

/** The structure label of a collection reached through `l`: size, order, which keys exist. */
export function collStructure(o: Obj, l: Label): Label {
  return join2(join2(l, o.label), o.shape);
}

/** A snapshot of the entries, as iteration sees them: a Set's values, a Map's [key, value] pairs. */
export function entriesArray(o: Obj & { coll: Coll }, l: Label, part: "entries" | "keys" | "values" = o.coll.kind === "Set" ? "values" : "entries"): Arr {
  const c = o.coll;
  checkArrayLength(c.keys.length);
  charge(16 * c.keys.length + 32);
  const items: Val[] = [];
  const lbls: Label[] = [];
  for (let i = 0; i < c.keys.length; i++) {
    if (part === "entries") {
      charge(48);
      items.push(newArr([c.keys[i], c.vals[i]], [BOT, c.vls[i]], BOT));
    } else items.push(part === "keys" ? c.keys[i] : c.vals[i]);
    lbls.push(part === "values" ? join2(c.kls[i], c.vls[i]) : c.kls[i]);
  }
  return newArr(items, lbls, collStructure(o, l));
}

/** What for…of, spread, destructuring, Array.from and Object.fromEntries iterate: a collection's snapshot, or the value itself. */
export function iterableOf(v: Val, l: Label): Val {
  return isColl(v) ? entriesArray(v, l) : v;
}

/** Calls `cb(value, key, collection)` for each entry of a snapshot taken now (changes made by the calls are not seen). */
function forEachEntry(o: Obj & { coll: Coll }, selfL: Label, cb: Val, cbL: Label): void {
  // As in JavaScript, a callback that is not a function throws before any step, empty or not:
  // whether it throws is the callback's alone.
  mayThrowOn(cbL);
  if (!isRef(cb) || cb.k !== FN) return typeError(`${o.coll.kind}.prototype.forEach needs a function, got ${describe(cb)}`, cbL);
  const c = o.coll;
  const keys = c.keys.slice();
  const vals = c.vals.slice();
  const kls = c.kls.slice();
  const vls = c.vls.slice();
  // How many calls, and in what order: the structure, as it was when the walk started.
  const decided = join2(collStructure(o, selfL), cbL);
  const saved = st.spc;
  if (!underPc(decided)) enterPc(decided);
  try {
    for (let i = 0; i < keys.length; i++) {
      step();
      const kl = join2(decided, kls[i]);
      callBack(cb, cbL, [vals[i], keys[i], o], [join2(kl, vls[i]), kl, selfL]);
    }
  } finally {
    leavePc(saved);
    // The gate's rule for callbacks (a callback data chose is left alone), not a copy of it.
    upgradeCallback(cb, cbL, join2(decided, o.shape));
  }
}

const shared = (kind: "Map" | "Set"): Record<string, Builtin> => ({
  has: builtin((args, argLs, self, selfL) => {
    const o = asColl(self, selfL, kind, "has");
    const i = find(o.coll, args[0]);
    return ret(i >= 0, lookupLabel(o, selfL, i, withContents(args[0], argLs[0] ?? BOT)));
  }, LOOKUP),
  delete: builtin((args, argLs, self, selfL) => {
    const o = asColl(self, selfL, kind, "delete");
    writeThrough(selfL, o);
    const kl = withContents(args[0], argLs[0] ?? BOT);
    const l = lookupLabel(o, selfL, find(o.coll, args[0]), kl);
    return ret(remove(o, args[0], argLs[0] ?? BOT), join2(l, st.pc));
  }, CHANGE),
  clear: builtin((_args, _argLs, self, selfL) => {
    const o = asColl(self, selfL, kind, "clear");
    writeThrough(selfL, o);
    for (const part of [o.coll.keys, o.coll.vals, o.coll.kls, o.coll.vls] as unknown[][]) part.length = 0;
    reshape(o);
    return ret(undefined, BOT);
  }, CHANGE),
  forEach: builtin((args, argLs, self, selfL) => {
    forEachEntry(asColl(self, selfL, kind, "forEach"), selfL, args[0], argLs[0] ?? BOT);
    return ret(undefined, BOT);
  }, { writes: "none", throws: false, refine: "eachElement", callsAt: [0] }),
  keys: builtin((_a, _l, self, selfL) => ret(entriesArray(asColl(self, selfL, kind, "keys"), selfL, "keys"), selfL), LIST),
  values: builtin((_a, _l, self, selfL) => ret(entriesArray(asColl(self, selfL, kind, "values"), selfL, "values"), selfL), LIST),
  entries: builtin((_a, _l, self, selfL) => {
    const o = asColl(self, selfL, kind, "entries");
    if (kind === "Map") return ret(entriesArray(o, selfL, "entries"), selfL);
    // A Set's entries are [value, value].
    const vs = entriesArray(o, selfL, "values");
    return ret(newArr(vs.items.map((v) => newArr([v, v], [BOT, BOT], BOT)), vs.lbls, vs.label), selfL);
  }, LIST),
});

export const mapMethods = new Map<string, Builtin>(Object.entries({
  ...shared("Map"),
  get: builtin((args, argLs, self, selfL) => {
    const o = asColl(self, selfL, "Map", "get");
    const i = find(o.coll, args[0]);
    const l = lookupLabel(o, selfL, i, withContents(args[0], argLs[0] ?? BOT));
    return ret(i < 0 ? undefined : o.coll.vals[i], i < 0 ? l : join2(l, o.coll.vls[i]));
  }, LOOKUP),
  set: builtin((args, argLs, self, selfL) => {
    const o = asColl(self, selfL, "Map", "set");
    writeThrough(selfL, o);
    put(o, args[0], argLs[0] ?? BOT, args[1], argLs[1] ?? BOT);
    return ret(o, selfL);
  }, CHANGE),
}));

export const setMethods = new Map<string, Builtin>(Object.entries({
  ...shared("Set"),
  add: builtin((args, argLs, self, selfL) => {
    const o = asColl(self, selfL, "Set", "add");
    writeThrough(selfL, o);
    // A Set's value is its key: the entry's labels are the key's.
    put(o, args[0], argLs[0] ?? BOT, args[0], BOT);
    return ret(o, selfL);
  }, CHANGE),
}));

/** `new Map(entries)` / `new Set(items)`: from an array, a string, or another collection. */
function construct(kind: "Map" | "Set") {
  return (args: Val[], argLs: Label[]): Val => {
    const coll: Coll = { kind, keys: [], vals: [], kls: [], vls: [] };
    const o = Object.assign(newObj(), { coll });
    const srcL = argLs[0] ?? BOT;
    // Which entries exist, how many, in what order: decided by the source whatever it is (an
    // empty string, undefined or null adds no entry, and nothing else would record that choice).
    o.shape = srcL;
    // Whether the argument can be iterated (and so whether this throws) is decided by its label.
    const src = iterableOf(args[0], srcL);
    if (src === undefined || src === null) return ret(o, BOT);
    if (typeof src === "string" && kind === "Set") {
      for (const ch of src) put(o, ch, srcL, ch, BOT);
      return ret(o, BOT);
    }
    if (!isRef(src) || src.k !== ARR) return throwError("TypeError", `new ${kind}(...) needs ${kind === "Map" ? "an array of [key, value] pairs" : "an array"}, got something else`, srcL);
    const base = join2(srcL, src.label);
    o.shape = join2(o.shape, base);
    // The entries' positions and number are the source's structure: every entry carries it.
    for (let i = 0; i < src.items.length; i++) {
      step();
      const el = join2(base, elemLabel(src, i));
      const item = src.items[i];
      if (kind === "Set") {
        put(o, item, el, item, BOT);
        continue;
      }
      if (!isRef(item) || item.k !== ARR) return throwError("TypeError", "each entry of new Map(...) must be a [key, value] array", el);
      const pl = join2(el, item.label);
      put(o, item.items[0], join2(pl, elemLabel(item, 0)), item.items[1], join2(pl, elemLabel(item, 1)));
    }
    return ret(o, BOT);
  };
}

export const collectionGlobals: Record<"Map" | "Set", Val> = {
  Map: fnValue("Map", construct("Map"), undefined, { writes: "none", calls: false, refine: "elements" }),
  Set: fnValue("Set", construct("Set"), undefined, { writes: "none", calls: false, refine: "elements" }),
};
