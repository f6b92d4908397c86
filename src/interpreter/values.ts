/**
 * The interpreter's value model. Programs never touch a host object: primitives are plain
 * JavaScript primitives, everything else is one of the tagged records below, built only by
 * the interpreter. Containers keep a label per part, so one untrusted email in a trusted list
 * does not taint its neighbours.
 */
import { Label } from "../labels/index.js";
import type { RE2JS } from "re2js";

export const BOT = Label.BOTTOM;

export const OBJ = 1;
export const ARR = 2;
export const FN = 3;
export const DATE = 4;
export const RE = 5;

/** A property: its value and the label of what decided it. */
export interface Slot {
  v: Val;
  l: Label;
}

/**
 * An object. `label` joins into every read (origin, and writes whose key was labelled);
 * `shape` joins into whatever depends on which keys exist.
 */
export interface Obj {
  k: typeof OBJ;
  props: Map<string, Slot>;
  label: Label;
  shape: Label;
  /** Set for Error objects: "Error", "TypeError", … */
  cls?: string;
  /** The pc when the object was made: it exists only where that decision went its way. */
  born?: Label;
  /** Set for a Map or a Set: its entries (builtins/collections.ts has their rules). */
  coll?: Coll;
}

/**
 * A Map's or Set's entries, in insertion order: keys, values (a Set's are its keys), and per
 * entry what decided that its key is there (`kls`) and its value's label (`vls`).
 */
export interface Coll {
  kind: "Map" | "Set";
  keys: Val[];
  vals: Val[];
  kls: Label[];
  vls: Label[];
}

/** An array. `lbls[i]` is element i's label (null when all are bottom); `label` covers length and order. */
export interface Arr {
  k: typeof ARR;
  items: Val[];
  lbls: Label[] | null;
  label: Label;
  /** The pc when the array was made. */
  born?: Label;
  /** A match result's `index`, `input` and `groups` (read-only; JSON and spread do not see them). */
  extra?: Map<string, Slot>;
  /**
   * Built from parts (`[...members, ...senders]`): for the first `n` positions of each cut, the
   * label of what decided which elements are there and in what order, below `label`. Kept only
   * while no change moves a position (rules.ts, {@link Cut}).
   */
  cuts?: Cut[];
}

/** Positions `0 .. n-1` of an array, and what decided them (rules.ts `positionLabel`). */
export interface Cut {
  n: number;
  l: Label;
}

/** How a builtin runs: sets `st.l` to the result's label and returns the result. */
export type BuiltinImpl = ((args: Val[], argLs: Label[], self: Val, selfL: Label) => Val) & BuiltinFlags;

/**
 * What a builtin declares about itself (flags on its implementation function). An undeclared
 * flag means the most it could do: the allowlist is what is declared.
 */
export interface BuiltinFlags {
  /** What it may change: nothing, its receiver, its first argument, the random seed. Undefined: anything. */
  writes?: "none" | "self" | "arg0" | "seed";
  /** Whether it may call functions passed to it. Undefined: it may. */
  calls?: boolean;
  /**
   * When it may call: the argument positions whose functions it may call (JSON.parse's reviver
   * is [1], map's callback [0]); what it does with the others never runs them. Undefined: every
   * position.
   */
  callsAt?: readonly number[];
  /** `false`: it throws only where it passes the deciding label to mayThrowOn first. Undefined: it may throw on any input. */
  throws?: boolean;
  /** The refinement of the default result rule it follows (see REFINEMENTS in rules-calls.ts). Undefined: the default. */
  refine?: string;
}

/** A builtin's flags. */
export function flagsOf(f: Fn): BuiltinFlags {
  return f.builtin ?? {};
}

/** A function: a builtin, a builtin method bound to its receiver, or a closure. */
export interface Fn {
  k: typeof FN;
  name: string;
  label: Label;
  builtin?: BuiltinImpl;
  self?: Val;
  selfL?: Label;
  /**
   * A method called on its receiver by a name the program text gives (`o.m(…)`): which builtin
   * runs is decided by the receiver alone, and a method of that name writes the same in every
   * run that reaches it, so its callee label is the receiver's and decides no stop of its own.
   */
  byName?: true;
  /** Static properties of a builtin used as a namespace (Number.isInteger, Date.UTC). */
  statics?: Map<string, Val>;
  /** A namespace JavaScript has as a plain object (Math, JSON, console): `typeof` says "object". */
  namespaceOnly?: boolean;
  /** A host function (a tool or the quarantined model): its calls leave the interpreter. */
  host?: true;
  closure?: unknown;
}

export interface DateV {
  k: typeof DATE;
  t: number;
  label: Label;
}

export interface ReV {
  k: typeof RE;
  source: string;
  flags: string;
  re: RE2JS;
  label: Label;
  lastIndex: number;
}

export type Ref = Obj | Arr | Fn | DateV | ReV;
export type Val = undefined | null | boolean | number | string | Ref;

export function isRef(v: Val): v is Ref {
  return typeof v === "object" && v !== null;
}

export function newObj(label: Label = BOT): Obj {
  return { k: OBJ, props: new Map(), label, shape: label };
}

export function newArr(items: Val[], lbls: Label[] | null = null, label: Label = BOT): Arr {
  return { k: ARR, items, lbls, label };
}

export function elemLabel(a: Arr, i: number): Label {
  return a.lbls === null ? BOT : a.lbls[i] ?? BOT;
}

export function setElemLabel(a: Arr, i: number, l: Label): void {
  if (a.lbls === null) {
    if (l === BOT) return;
    a.lbls = new Array(a.items.length).fill(BOT);
  }
  a.lbls[i] = l;
}

export function typeOf(v: Val): string {
  if (v === null) return "object";
  const t = typeof v;
  if (t !== "object") return t;
  return (v as Ref).k === FN && !(v as Fn).namespaceOnly ? "function" : "object";
}

export function truthy(v: Val): boolean {
  return typeof v === "object" ? v !== null : !!v;
}

/** Counts one step of a nested conversion (installed by state.ts, which imports this module). */
let walkStep: () => void = () => {};
export function setWalkStep(f: () => void): void {
  walkStep = f;
}

/** Called with the length of a text about to be joined (it ends the run when that is too long). */
let textCheck: (length: number) => void = () => {};
export function setTextCheck(f: (length: number) => void): void {
  textCheck = f;
}

/**
 * Joins converted parts with `sep`, after checking the length the text will have: the host
 * builds it at once, so a text past the limit must end the run before it exists.
 */
export function joinChecked(parts: string[], sep: string): string {
  let n = parts.length === 0 ? 0 : sep.length * (parts.length - 1);
  for (const p of parts) n += p.length;
  textCheck(n);
  return parts.join(sep);
}

/** ToString for primitives and our objects (labels are the caller's concern). */
export function toStr(v: Val): string {
  if (typeof v === "string") return v;
  if (typeof v !== "object" || v === null) return String(v);
  switch (v.k) {
    case ARR:
      return joinChecked(v.items.map((x) => (walkStep(), x === null || x === undefined ? "" : toStr(x))), ",");
    case OBJ:
      if (v.coll !== undefined) return `[object ${v.coll.kind}]`;
      if (v.cls !== undefined) {
        const name = toStr(v.props.get("name")?.v ?? v.cls);
        const msg = toStr(v.props.get("message")?.v ?? "");
        return msg === "" ? name : name === "" ? msg : `${name}: ${msg}`;
      }
      return "[object Object]";
    case FN:
      return `function ${v.name}() { [native code] }`;
    case DATE:
      return String(new Date(v.t));
    case RE:
      return `/${v.source}/${v.flags}`;
  }
}

export function toNum(v: Val): number {
  if (typeof v === "number") return v;
  if (typeof v !== "object" || v === null) return Number(v);
  if (v.k === DATE) return v.t;
  return Number(toStr(v));
}

/** ToPrimitive with the default hint, as `+` and `==` use it. */
export function toPrim(v: Val): Exclude<Val, Ref> {
  if (typeof v !== "object" || v === null) return v;
  if (v.k === DATE) return toStr(v);
  return toStr(v);
}

export function toKey(v: Val): string {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : toStr(v);
}

export function strictEq(a: Val, b: Val): boolean {
  return a === b;
}

export function looseEq(a: Val, b: Val): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == null && b == null;
  const ra = isRef(a);
  const rb = isRef(b);
  if (ra && rb) return false;
  if (ra) return looseEq(toPrim(a), b);
  if (rb) return looseEq(a, toPrim(b));
  // eslint-disable-next-line eqeqeq
  return (a as unknown) == (b as unknown);
}

export function sameValueZero(a: Val, b: Val): boolean {
  return a === b || (typeof a === "number" && typeof b === "number" && a !== a && b !== b);
}

const INDEX = /^(?:0|[1-9]\d*)$/;

/** An object's keys in JavaScript's order: integer keys ascending, then insertion order. */
export function ownKeys(o: Obj): string[] {
  const keys = [...o.props.keys()];
  if (!keys.some((k) => INDEX.test(k))) return keys;
  const ints = keys.filter((k) => INDEX.test(k) && Number(k) < 2 ** 32 - 1).sort((a, b) => Number(a) - Number(b));
  const rest = keys.filter((k) => !(INDEX.test(k) && Number(k) < 2 ** 32 - 1));
  return [...ints, ...rest];
}

/**
 * An Error's `message`, `cause` and `stack` are not enumerable in JavaScript, nor is its `name`
 * until a program assigns another one (which makes it an own, enumerable property).
 */
function hiddenErrorKey(o: Obj, k: string): boolean {
  return k === "message" || k === "cause" || k === "stack" || (k === "name" && o.props.get("name")?.v === o.cls);
}

/** The keys spread, Object.keys, JSON and for-in see: an Error's hidden keys are not among them. */
export function enumerableKeys(o: Obj): string[] {
  const keys = ownKeys(o);
  return o.cls === undefined ? keys : keys.filter((k) => !hiddenErrorKey(o, k));
}

/** Describes a value briefly for error messages. */
export function describe(v: Val): string {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v);
  if (!isRef(v)) return String(v);
  switch (v.k) {
    case ARR:
      return "an array";
    case FN:
      return `function ${v.name}`;
    case DATE:
      return "a Date";
    case RE:
      return "a regular expression";
    default:
      return v.coll !== undefined ? `a ${v.coll.kind}` : v.cls ?? "an object";
  }
}
