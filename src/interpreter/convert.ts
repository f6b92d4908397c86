/**
 * The boundary, both ways, in one place.
 *
 * Into the host (tool arguments, query prompts and schemas, the completion value) goes plain
 * data only: objects whose prototype is `Object.prototype` with own enumerable data properties,
 * arrays, strings, finite numbers, booleans and null. A key `__proto__`, a cycle or nesting
 * deeper than {@link MAX_DEPTH} is a catchable error naming the place, never a host object
 * whose prototype the program chose. Every part's label is listed by path.
 *
 * From the host (tool results, reader answers) comes data read without running host code we
 * did not ask for: own enumerable data properties of plain objects and arrays, dates, and
 * `labeled(...)` parts; getters, functions, symbols, class instances, Maps, cycles and the like
 * are refused with an error naming the path ({@link HostDataError}).
 */
import { types } from "node:util";
import { Label, isLabeled, labeled } from "../labels/index.js";
import { throwError } from "./errors.js";
import { join2 } from "./rules.js";
import { charge, checkArrayLength, checkString, limit, st } from "./state.js";
import { ARR, BOT, DATE, FN, OBJ, RE, type Obj, type Val, elemLabel, enumerableKeys, isRef, newArr, newObj, ownKeys } from "./values.js";

/** The deepest nesting a value may have when it crosses the boundary, either way. */
export const MAX_DEPTH = 128;

/** The one key that never reaches the host: assigning it to a host object sets its prototype. */
const PROTO = "__proto__";

/** Approximate bytes the host holds per part of a value it is given. */
const PART_BYTES = 64;

/** Longest text of a thrown value kept in a record, a reason or a program's error. */
const MAX_THROWN_TEXT = 1000;

/**
 * A thrown value in words, whatever host code threw (an Error, a string, an object without a
 * prototype, a symbol): never throws itself, never longer than a thousand characters.
 */
export function thrownText(err: unknown): string {
  let text: string;
  try {
    if (err instanceof Error) text = typeof err.message === "string" ? err.message : "an Error without a message";
    else if (typeof err === "string") text = err;
    else if (err === null || (typeof err !== "object" && typeof err !== "function" && typeof err !== "symbol")) text = `${String(err)} was thrown`;
    else text = `a ${typeof err} that is not an Error was thrown`;
  } catch {
    text = "an error whose message could not be read";
  }
  return text.length > MAX_THROWN_TEXT ? `${text.slice(0, MAX_THROWN_TEXT - 1)}…` : text;
}

/** One labelled leaf (or empty container) of a converted value. */
export interface LabelledPath {
  path: string;
  label: Label;
}

/**
 * A data property on a fresh plain object: never a setter, whatever `Object.prototype` holds.
 * A key `Object.prototype` does not have (nor `__proto__`) meets no setter on assignment, which
 * is several times faster than defining it.
 */
function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== PROTO && !(key in Object.prototype)) obj[key] = value;
  else Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A path for an error message: long keys make long paths, and the message must stay short. */
function showPath(path: string): string {
  if (path === "") return "the top level";
  return `\`${path.length > 80 ? path.slice(0, 79) + "…" : path}\``;
}

interface Outward {
  out: LabelledPath[];
  seen: Set<Val>;
  /** Parts made so far, for reading the clock now and then. */
  parts: number;
  /** Objects cross with their keys in one fixed order (a tool's arguments). */
  ordered: boolean;
}

/**
 * Converts a value to plain data and lists the label of every path: a leaf's label joins its
 * own with every container's on the way to it. Throws a catchable TypeError (a RangeError for
 * depth) when the value cannot be plain data; the error carries the labels of what decided it.
 *
 * The host gets a tree: a part the value shares (`a = [a, a]`) is copied once per place it is
 * reached. What that copy takes is charged to the run before any of it is built, so forty such
 * lines end the run at its memory limit at once instead of building 2^40 parts.
 */
export function toPlain(v: Val, l: Label, path = "", out: LabelledPath[] = [], seen: Set<Val> = new Set(), ordered = false): unknown {
  const size = copySize(v, new Map(), new Set());
  charge(size.fixed + size.rel + 2 * path.length * size.parts);
  return plainOf(v, l, BOT, path, 0, { out, seen, parts: 0, ordered });
}

/** What the plain copy of a value takes: parts listed, bytes, and the bytes of its parts' paths below it. */
interface CopySize {
  parts: number;
  fixed: number;
  /** Twice the characters the parts' paths have below this value. */
  rel: number;
}

const LEAF_SIZE: CopySize = { parts: 1, fixed: PART_BYTES, rel: 0 };

/**
 * The size of the tree {@link plainOf} builds from `v`, computed once per shared part, so it
 * costs what the value holds, not what its copy would. A part that refers back to an ancestor
 * counts as nothing here: the conversion refuses it.
 */
function copySize(v: Val, memo: Map<Val, CopySize>, onPath: Set<Val>): CopySize {
  if (!isRef(v) || v.k === DATE || v.k === RE || v.k === FN) return LEAF_SIZE;
  const known = memo.get(v);
  if (known !== undefined) return known;
  if (onPath.has(v)) return { parts: 0, fixed: 0, rel: 0 };
  onPath.add(v);
  const size: CopySize = { parts: 0, fixed: 0, rel: 0 };
  const add = (key: string, child: CopySize): void => {
    size.parts += child.parts;
    size.fixed += child.fixed;
    // A path below is `key.` and the child's own: the separator counted at the top too, an overestimate of one.
    size.rel += child.rel + 2 * (key.length + 1) * child.parts;
  };
  if (v.k === ARR) {
    size.fixed += 16 * v.items.length;
    if (v.items.length === 0) add("", LEAF_SIZE);
    for (let i = 0; i < v.items.length; i++) add(String(i), copySize(v.items[i], memo, onPath));
  } else {
    const keys = plainKeys(v);
    size.fixed += 48 * keys.length + 64;
    add("", LEAF_SIZE);
    for (const k of keys) {
      const slot = v.props.get(k);
      add(k, slot === undefined ? LEAF_SIZE : copySize(slot.v, memo, onPath));
    }
  }
  onPath.delete(v);
  memo.set(v, size);
  return size;
}

/** The keys an object crosses with: an Error's name and message first, then its own keys. */
function plainKeys(v: Obj): string[] {
  return v.cls === undefined ? ownKeys(v) : ["name", "message", ...enumerableKeys(v).filter((k) => k !== "name" && k !== "message")];
}

/**
 * Rule (key order of a tool's arguments): the order of an object's keys is the history of its
 * writes and deletes (`if (u.c) delete m.cc; m.cc = x` moves `cc` last). A program reading the
 * order gets the shape's label, but a tool gets plain data whose per-key labels say nothing of
 * it, and a policy over the keys it reads would let it through. So every object in a tool's
 * arguments crosses with its keys in one fixed order (integer keys ascending, then the rest by
 * code unit; an Error's name and message first), whatever the labels: JSON's objects are
 * unordered, and the order tells the tool nothing. The run's own value keeps JavaScript's order.
 */
function orderedKeys(v: Obj): string[] {
  const keys = plainKeys(v);
  const head = v.cls === undefined ? 0 : 2;
  const rest = keys.slice(head);
  return [...keys.slice(0, head), ...rest.filter(isIndexKey), ...rest.filter((k) => !isIndexKey(k)).sort()];
}

/** An array index, which JavaScript orders first and ascending (as ownKeys does). */
function isIndexKey(k: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < 2 ** 32 - 1;
}

/** `reach` joins the shapes of the containers above: which keys led here, so the path in an error carries them. */
function plainOf(v: Val, l: Label, reach: Label, path: string, depth: number, cx: Outward): unknown {
  const part = (label: Label): void => {
    // Charged beforehand by toPlain; a big copy still ends at the run's time limit.
    if ((++cx.parts & 1023) === 0 && Date.now() > st.deadline) limit(`the program ran past its time limit of ${st.limits.timeMs} ms`);
    cx.out.push({ path, label });
  };
  if (!isRef(v)) {
    part(l);
    if (v === undefined) return undefined;
    return typeof v === "number" && !Number.isFinite(v) ? null : v;
  }
  const here = join2(l, reach);
  if (cx.seen.has(v)) return throwError("TypeError", `a value given to the host refers back to itself at ${showPath(path)}; tools and results take plain data, which has no cycles`, here);
  if (depth >= MAX_DEPTH) return throwError("RangeError", `a value given to the host nests deeper than ${MAX_DEPTH} levels at ${showPath(path)}`, here);
  cx.seen.add(v);
  try {
    const prefix = path === "" ? "" : `${path}.`;
    switch (v.k) {
      case ARR: {
        const base = join2(l, v.label);
        if (v.items.length === 0) part(base);
        const items = new Array<unknown>(v.items.length);
        for (let i = 0; i < v.items.length; i++) {
          items[i] = plainOf(v.items[i], join2(base, elemLabel(v, i)), join2(reach, base), `${prefix}${i}`, depth + 1, cx);
        }
        return items;
      }
      case OBJ:
        return plainObject(v, l, reach, path, depth, cx, part);
      case DATE:
        part(join2(l, v.label));
        return Number.isNaN(v.t) ? null : new Date(v.t).toISOString();
      case RE:
        part(join2(l, v.label));
        return `/${v.source}/${v.flags}`;
      case FN:
        part(l);
        return undefined;
    }
  } finally {
    cx.seen.delete(v);
  }
}

/**
 * An object, or an Error as `{ name, message, ...its own keys }`: each part under its own path
 * with its own label, so an error built from a secret is as secret as the secret.
 */
function plainObject(v: Obj, l: Label, reach: Label, path: string, depth: number, cx: Outward, part: (label: Label) => void): Record<string, unknown> {
  const prefix = path === "" ? "" : `${path}.`;
  const base = join2(l, v.label);
  // Which keys exist is part of what the value says.
  const shaped = join2(base, v.shape);
  part(shaped);
  const keys = cx.ordered ? orderedKeys(v) : plainKeys(v);
  if (keys.includes(PROTO)) {
    return throwError(
      "TypeError",
      `a value given to the host has the key "${PROTO}" at ${showPath(path)}; the host would take it for the object's prototype, so use another key`,
      join2(join2(shaped, reach), l),
    );
  }
  const obj: Record<string, unknown> = {};
  const inner = join2(reach, shaped);
  for (const k of keys) {
    const slot = v.props.get(k);
    // An Error always has a name and a message; a missing one is its class's, decided by its shape.
    const value = slot === undefined ? (k === "name" ? v.cls : "") : slot.v;
    const plain = plainOf(value, slot === undefined ? shaped : join2(base, slot.l), inner, `${prefix}${k}`, depth + 1, cx);
    if (plain !== undefined) define(obj, k, plain);
  }
  return obj;
}

/** Host data that cannot cross into a program; `path` says where in the value. */
export class HostDataError extends Error {
  constructor(
    readonly problem: string,
    readonly path: string,
    notData = false,
  ) {
    super(`${problem} at ${showPath(path)}${notData ? `; ${PLAIN_DATA}` : ""}`);
    this.name = "HostDataError";
  }
}

/** One node of host data, read through property descriptors only (no getter ever runs). */
type HostNode =
  | { kind: "leaf"; value: null | undefined | boolean | number | string }
  | { kind: "labeled"; value: unknown; label: Label }
  | { kind: "date"; time: number }
  | { kind: "array"; items: unknown[] }
  | { kind: "object"; entries: Array<[string, unknown]> };

const PLAIN_DATA = "tools and readers give plain data (objects, arrays, strings, numbers, booleans, null, dates)";

function whatIs(x: object): string {
  if (typeof x === "function") return "a function";
  const tag = Object.prototype.toString.call(x).slice(8, -1);
  const ctor = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(x) ?? {}, "constructor")?.value;
  const name = typeof ctor === "function" && typeof ctor.name === "string" && ctor.name !== "" ? ctor.name : tag;
  return /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`;
}

function dataValue(x: object, key: string | symbol, where: Where): unknown {
  const d = Object.getOwnPropertyDescriptor(x, key);
  if (d === undefined) return undefined;
  if (!("value" in d)) throw new HostDataError(`a getter or setter was found`, where(), true);
  return d.value;
}

/** The path of the part being read, made only for an error message (most reads never need it). */
type Where = () => string;

/** What one host value is, read without running its code; throws {@link HostDataError}. */
function inspect(x: unknown, where: Where, budget?: { left: number }): HostNode {
  if (x === null || x === undefined || typeof x === "boolean" || typeof x === "number" || typeof x === "string") return { kind: "leaf", value: x };
  if (typeof x === "bigint") {
    if (Number.isSafeInteger(Number(x))) return { kind: "leaf", value: Number(x) };
    throw new HostDataError(`a bigint too large for a number (${x.toString().slice(0, 30)}) was found`, where());
  }
  if (typeof x !== "object") throw new HostDataError(`${typeof x === "function" ? "a function" : `a ${typeof x}`} was found`, where(), true);
  if (isLabeled(x)) {
    const label = dataValue(x, "label", where);
    if (!(label instanceof Label)) throw new HostDataError("a labeled(...) part without a Label was found", where());
    return { kind: "labeled", value: dataValue(x, "value", where), label };
  }
  if (Array.isArray(x)) {
    const length = dataValue(x, "length", where) as number;
    if (budget !== undefined) spend(budget, 16 * length + 32, where);
    const items = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      const d = Object.getOwnPropertyDescriptor(x, i);
      if (d !== undefined && !("value" in d)) throw new HostDataError(`a getter or setter was found`, childPath(where(), i), true);
      items[i] = d === undefined ? undefined : d.value;
    }
    return { kind: "array", items };
  }
  if (x instanceof Date || Object.prototype.toString.call(x) === "[object Date]") {
    try {
      return { kind: "date", time: Date.prototype.getTime.call(x) };
    } catch {
      throw new HostDataError(`an object posing as a Date was found`, where(), true);
    }
  }
  const proto = Object.getPrototypeOf(x);
  if (proto !== Object.prototype && proto !== null) throw new HostDataError(`${whatIs(x)} was found`, where(), true);
  const entries: Array<[string, unknown]> = [];
  // Own enumerable string keys (Object.keys runs no getter), each read by its descriptor: about
  // three times faster than walking Reflect.ownKeys for a result of many small objects. Not for a
  // Proxy, whose descriptor trap Object.keys would call once more per key (review of 4e73adc).
  for (const key of types.isProxy(x) ? Reflect.ownKeys(x) : Object.keys(x)) {
    if (typeof key !== "string") continue;
    const d = Object.getOwnPropertyDescriptor(x, key);
    if (d === undefined || !d.enumerable) continue;
    if (!("value" in d)) throw new HostDataError(`a getter or setter was found`, childPath(where(), key), true);
    entries.push([key, d.value]);
    if (budget !== undefined) spend(budget, 48 + 2 * key.length, where);
  }
  return { kind: "object", entries };
}

function childPath(path: string, key: string | number): string {
  return path === "" ? String(key) : `${path}.${key}`;
}

/** Options of {@link readHostData}. */
export interface HostReadOptions {
  /** `"keep"` keeps `labeled(...)` parts (tool results); `"strip"` keeps only their values (answers, records). */
  labels: "keep" | "strip";
  /** Refuse data that would take more than about this many bytes in a run (default: no bound). */
  maxBytes?: number;
}

/** A `labeled(...)` part of a tool's result: where it was (keys from the root) and its label. */
export interface HostPart {
  at: Array<string | number>;
  label: Label;
}

interface Inward {
  /** `"parts"`: values only, each labelled part listed in `parts` by where it was. */
  labels: "keep" | "strip" | "parts";
  left: number;
  seen: Set<object>;
  /** The keys from the root to the part being read. */
  at: Array<string | number>;
  parts: HostPart[];
  where: Where;
  /** Freeze every container made (readHostParts: one copy shared by the record, the label function and the program). */
  freeze: boolean;
}

function inward(labels: Inward["labels"], maxBytes: number | undefined): Inward {
  const at: Array<string | number> = [];
  return { labels, left: maxBytes ?? Infinity, seen: new Set(), at, parts: [], where: () => at.join("."), freeze: labels === "parts" };
}

/**
 * Reads a tool's result or a reader's answer into fresh plain data, once, so every replay of
 * the run sees the same value and no host object stays reachable. Throws {@link HostDataError}
 * naming the path of what cannot be data, or when the data is larger than `maxBytes`.
 */
export function readHostData(x: unknown, options: HostReadOptions): unknown {
  return readNode(x, 0, inward(options.labels, options.maxBytes));
}

/**
 * Reads a tool's result as {@link readHostData} does, in one pass, into frozen plain data without its
 * `labeled(...)` parts (what the call record keeps) and the list of where each part was: what
 * crosses to the worker, and what {@link fromHostParts} builds the program's value from.
 */
export function readHostParts(x: unknown, options: { maxBytes?: number } = {}): { value: unknown; parts: HostPart[] } {
  const cx = inward("parts", options.maxBytes);
  const value = readNode(x, 0, cx);
  return { value, parts: cx.parts };
}

function spend(cx: { left: number }, bytes: number, where: Where): void {
  cx.left -= bytes;
  if (cx.left < 0) throw new HostDataError("the value is larger than the run's memory limit", where());
}

function readNode(x: unknown, depth: number, cx: Inward): unknown {
  // Most parts are leaves: read at once, as inspect would.
  if (typeof x === "string") {
    spend(cx, 2 * x.length, cx.where);
    return x;
  }
  if (typeof x === "number" || typeof x === "boolean" || x === null || x === undefined) return x;
  // Most containers are plain arrays and objects: read without a HostNode (readPlain).
  if (typeof x === "object" && depth < MAX_DEPTH && !isLabeled(x) && !types.isProxy(x)) {
    if (Array.isArray(x)) return readPlain(x, depth, cx, true);
    const proto = Object.getPrototypeOf(x);
    // An object that says it is a Date (Symbol.toStringTag) is inspect's to refuse.
    if ((proto === Object.prototype || proto === null) && !(Symbol.toStringTag in x)) return readPlain(x, depth, cx, false);
  }
  let node: HostNode;
  try {
    node = inspect(x, cx.where, cx);
  } catch (err) {
    if (err instanceof HostDataError) throw err;
    throw new HostDataError(`reading the value failed (${thrownText(err)})`, cx.where());
  }
  if (node.kind === "leaf") {
    if (typeof node.value === "string") spend(cx, 2 * node.value.length, cx.where);
    return node.value;
  }
  if (node.kind === "date") return cx.freeze ? Object.freeze(new Date(node.time)) : new Date(node.time);
  if (depth >= MAX_DEPTH) throw new HostDataError(`the value nests deeper than ${MAX_DEPTH} levels`, cx.where());
  const obj = x as object;
  if (cx.seen.has(obj)) throw new HostDataError("the value refers back to itself (a cycle)", cx.where());
  cx.seen.add(obj);
  const { at } = cx;
  try {
    switch (node.kind) {
      case "labeled": {
        // Outermost first, as the parts are wrapped: a part inside a part is listed after it.
        if (cx.labels === "parts") cx.parts.push({ at: at.slice(), label: node.label });
        const value = readNode(node.value, depth + 1, cx);
        return cx.labels === "keep" ? labeled(value, node.label) : value;
      }
      case "array": {
        const items = node.items;
        const out = new Array<unknown>(items.length);
        for (let i = 0; i < items.length; i++) {
          at.push(i);
          out[i] = readNode(items[i], depth + 1, cx);
          at.pop();
        }
        return cx.freeze ? Object.freeze(out) : out;
      }
      case "object": {
        const out: Record<string, unknown> = {};
        for (const [k, item] of node.entries) {
          at.push(k);
          define(out, k, readNode(item, depth + 1, cx));
          at.pop();
        }
        return cx.freeze ? Object.freeze(out) : out;
      }
    }
  } finally {
    cx.seen.delete(obj);
  }
}

/**
 * A plain array or object, read as inspect and readNode read it (the same checks, errors, budget
 * and order: every own part of this level first, then the parts inside them), without the
 * HostNode and its entry pairs: a tool's result of many small objects is read several times
 * faster (benchmarks, the createRuntime row).
 */
function readPlain(x: object, depth: number, cx: Inward, isArray: boolean): unknown {
  const { at } = cx;
  let keys: string[] | undefined;
  let vals: unknown[];
  if (isArray) {
    const length = (x as unknown[]).length;
    spend(cx, 16 * length + 32, cx.where);
    vals = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      const d = Object.getOwnPropertyDescriptor(x, i);
      if (d !== undefined && !("value" in d)) throw new HostDataError(`a getter or setter was found`, childPath(cx.where(), i), true);
      vals[i] = d === undefined ? undefined : d.value;
    }
  } else {
    keys = [];
    vals = [];
    for (const key of Object.keys(x)) {
      const d = Object.getOwnPropertyDescriptor(x, key);
      if (d === undefined || !d.enumerable) continue;
      if (!("value" in d)) throw new HostDataError(`a getter or setter was found`, childPath(cx.where(), key), true);
      keys.push(key);
      vals.push(d.value);
      spend(cx, 48 + 2 * key.length, cx.where);
    }
  }
  if (cx.seen.has(x)) throw new HostDataError("the value refers back to itself (a cycle)", cx.where());
  cx.seen.add(x);
  try {
    if (keys === undefined) {
      for (let i = 0; i < vals.length; i++) {
        at.push(i);
        vals[i] = readNode(vals[i], depth + 1, cx);
        at.pop();
      }
      return cx.freeze ? Object.freeze(vals) : vals;
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      at.push(keys[i]);
      define(out, keys[i], readNode(vals[i], depth + 1, cx));
      at.pop();
    }
    return cx.freeze ? Object.freeze(out) : out;
  } finally {
    cx.seen.delete(x);
  }
}

/**
 * Builds interpreter values from host data (as {@link readHostData} gives it). The outermost
 * container carries `label`; a `labeled(v, l)` part carries `l` on its slot, so reads join it
 * with the containers above. Data that is not plain is a catchable TypeError labelled `label`;
 * strings and arrays over the run's limits end the run as limits do.
 */
export function toInternal(x: unknown, label: Label, path = "", depth = 0, seen: Set<object> = new Set()): { v: Val; l: Label } {
  let node: HostNode;
  try {
    if (depth >= MAX_DEPTH && x !== null && typeof x === "object") throw new HostDataError(`the value nests deeper than ${MAX_DEPTH} levels`, path);
    if (x !== null && typeof x === "object" && seen.has(x)) throw new HostDataError("the value refers back to itself (a cycle)", path);
    node = inspect(x, () => path);
  } catch (err) {
    return throwError("TypeError", err instanceof HostDataError ? `a host value could not be read: ${err.message}` : "a host value could not be read", label);
  }
  switch (node.kind) {
    case "leaf":
      if (typeof node.value === "string") {
        checkString(node.value);
        charge(2 * node.value.length);
      }
      return { v: node.value, l: label };
    case "date":
      return { v: { k: DATE, t: node.time, label }, l: label };
    case "labeled": {
      const inner = toInternal(node.value, join2(label, node.label), path, depth, seen);
      return { v: inner.v, l: join2(inner.l, node.label) };
    }
  }
  const obj = x as object;
  seen.add(obj);
  try {
    if (node.kind === "array") {
      checkArrayLength(node.items.length);
      charge(16 * node.items.length + 32);
      const items: Val[] = [];
      const lbls: Label[] = [];
      node.items.forEach((e, i) => {
        // Nested containers carry their parents' label too, so a reference to one found
        // through any path is as labelled as the path.
        const part = toInternal(e, label, childPath(path, i), depth + 1, seen);
        items.push(part.v);
        lbls.push(part.l);
      });
      return { v: newArr(items, lbls.some((l) => l !== BOT) ? lbls : null, label), l: label };
    }
    const o = newObj(label);
    for (const [k, e] of node.entries) {
      const part = toInternal(e, label, childPath(path, k), depth + 1, seen);
      o.props.set(k, { v: part.v, l: part.l });
    }
    charge(48 * o.props.size + 64);
    return { v: o, l: label };
  } finally {
    seen.delete(obj);
  }
}

/** The labelled parts of a value as a tree of keys: each node joins the labels listed at its path. */
interface PartNode {
  label: Label;
  kids: Map<string, PartNode> | undefined;
}

function partTree(parts: readonly HostPart[]): PartNode {
  const root: PartNode = { label: BOT, kids: undefined };
  for (const p of parts) {
    let n = root;
    for (const key of p.at) {
      const kids = (n.kids ??= new Map());
      const k = String(key);
      let next = kids.get(k);
      if (next === undefined) kids.set(k, (next = { label: BOT, kids: undefined }));
      n = next;
    }
    n.label = join2(n.label, p.label);
  }
  return root;
}

/** The label of the part {@link fromPart} built last. */
let partL: Label = BOT;

/**
 * Builds interpreter values from plain data and the list of its labelled parts, as
 * {@link readHostParts} gives them and the worker receives them (a structured clone: plain
 * objects, arrays, dates and primitives only, no getter, no cycle, checked by the host). The
 * values and labels are those {@link toInternal} gives for the same data with each part wrapped
 * in `labeled(...)`: a part's label joins into its slot and into every container below it.
 */
export function fromHostParts(x: unknown, label: Label, parts: readonly HostPart[]): { v: Val; l: Label } {
  const v = fromPart(x, label, parts.length === 0 ? undefined : partTree(parts), 0);
  return { v, l: partL };
}

/** A part: its own label (a `labeled(...)` at its path) joins into it and everything below it. */
function fromPart(x: unknown, label: Label, node: PartNode | undefined, depth: number): Val {
  return node === undefined ? fromPlain(x, label, undefined, depth) : fromPlain(x, join2(label, node.label), node.kids, depth);
}

function fromPlain(x: unknown, label: Label, kids: Map<string, PartNode> | undefined, depth: number): Val {
  partL = label;
  if (typeof x !== "object" || x === null) {
    if (typeof x === "string") {
      checkString(x);
      charge(2 * x.length);
    }
    return x as Val;
  }
  if (x instanceof Date) return { k: DATE, t: x.getTime(), label };
  if (depth >= MAX_DEPTH) return throwError("TypeError", `a host value could not be read: the value nests deeper than ${MAX_DEPTH} levels`, label);
  if (Array.isArray(x)) {
    checkArrayLength(x.length);
    charge(16 * x.length + 32);
    const items = new Array<Val>(x.length);
    let lbls: Label[] | null = null;
    for (let i = 0; i < x.length; i++) {
      items[i] = fromPart(x[i], label, kids?.get(String(i)), depth + 1);
      if (partL !== BOT) (lbls ??= new Array<Label>(x.length).fill(BOT))[i] = partL;
    }
    partL = label;
    return newArr(items, lbls, label);
  }
  const o = newObj(label);
  for (const k of Object.keys(x)) {
    const v = fromPart((x as Record<string, unknown>)[k], label, kids?.get(k), depth + 1);
    o.props.set(k, { v, l: partL });
  }
  charge(48 * o.props.size + 64);
  partL = label;
  return o;
}
