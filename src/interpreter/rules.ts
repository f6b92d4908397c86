/**
 * The label rules, in one place. Every compiled construct calls into this file for the label
 * of what it produces and for the implicit flows it opens and closes; auditing the
 * interpreter's security means auditing this file and the call sites that name its rules.
 *
 * Summary of the rules:
 * - Operations: the result joins the labels of all inputs ({@link join2}).
 * - Assignment: the stored label is the value's label joined with the pc ({@link stored}).
 * - Reads: a part's label joins the reference's label, the container's label and the key's
 *   label ({@link readSlot}, {@link readElem}).
 * - Writes: a part written under a pc or through a labelled key or reference carries them, and
 *   a write through a labelled reference taints every later sink, since the other objects it
 *   might have written are unknown ({@link writeSlot}).
 * - Decisions (branches, loops, short circuits, callbacks, catch): code under them runs with
 *   the pc raised; on exit, everything the region could have written is upgraded with the
 *   decision's label, also when it did not run ({@link exitRegion}); jumps out of the region
 *   raise the pc of what follows until their target ends.
 * - Exceptions: inside a try, every operation whose success depends on labelled data raises
 *   the pc of the rest of the try block and of the catch ({@link mayThrowOn}).
 */
import type { Label } from "../labels/index.js";
import type { Env } from "./compile/scope.js";
import { hop } from "./compile/scope.js";
import { SecurityStop, charge, st, syncPc } from "./state.js";
import { ARR, BOT, DATE, FN, OBJ, RE, type Arr, type Cut, type Fn, type Obj, type Val, flagsOf, isRef, setElemLabel, elemLabel } from "./values.js";

/**
 * True when `l` is at least as restrictive as `r` in what decisions read (integrity and
 * readers); sources are provenance for explanations and do not restrict.
 */
function restricts(l: Label, r: Label): boolean {
  if (r.trusted === false && l.trusted) return false;
  if (r.readers === "public") return true;
  if (l.readers === "public") return false;
  const allowed = new Set(r.readers);
  return l.readers.every((p) => allowed.has(p));
}

/** A label in a few words, for messages: at most three sources. */
export function brief(l: Label): string {
  const who = l.readers === "public" ? "public" : `readers ${l.readers.slice(0, 3).join(", ")}${l.readers.length > 3 ? ", …" : ""}`;
  const from = l.sources.length === 0 ? "" : ` from ${l.sources.slice(0, 3).join(", ")}${l.sources.length > 3 ? ` and ${l.sources.length - 3} more` : ""}`;
  return `${l.trusted ? "trusted" : "untrusted"} ${who}${from}`;
}

/** Joins two labels. */
export function join2(a: Label, b: Label): Label {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: fast paths; Label.join answers a for a and for the bottom, and b for the bottom with b
  return a === b || b === BOT ? a : a === BOT ? b : a.join(b);
}

/** True when `l` adds nothing to the current pc (so no implicit-flow bookkeeping is needed). */
export function underPc(l: Label): boolean {
  return l === BOT || l === st.pc || l.flowsTo(st.pc);
}

/** The label a variable or part gets when a value labelled `l` is stored in it now. */
export function stored(l: Label): Label {
  return st.mutants.noPcOnAssign ? l : join2(l, st.pc);
}

/** Raises the floor: every later sink call and the run's value carry `l`. */
export function taintFloor(l: Label): void {
  st.floor = join2(st.floor, l);
}

/** Inside a try block, an operation that fails or not depending on `l` decides what runs next. */
export function mayThrowOn(l: Label): void {
  // Stryker disable next-line ConditionalExpression: joining the bottom changes nothing
  if (st.tryDepth > 0 && l !== BOT && !st.mutants.noThrowPc) {
    st.thr = join2(st.thr, l);
    syncPc();
  }
}

/** Reads property `key` of object `o` reached through a reference labelled `refL` with a key labelled `keyL`. */
export function readSlot(o: Obj, key: string, refL: Label, keyL: Label): Val {
  const slot = o.props.get(key);
  const base = st.mutants.noContainerLabel ? join2(refL, keyL) : join2(join2(refL, keyL), o.label);
  if (slot === undefined) {
    st.l = st.mutants.missingKeyNoShape ? base : join2(base, o.shape);
    return undefined;
  }
  st.l = join2(base, slot.l);
  return slot.v;
}

/** Reads element `i` of array `a`. */
export function readElem(a: Arr, i: number, refL: Label, keyL: Label): Val {
  const base = st.mutants.noContainerLabel ? join2(refL, keyL) : join2(join2(refL, keyL), a.label);
  st.l = join2(base, elemLabel(a, i));
  return a.items[i];
}

/**
 * A write through a reference labelled `refL` into `target`. Which object the reference names
 * was decided by `refL`, and the objects it did not write are unknown; the write is sound only
 * when every read of the target already carries `refL` (its own label covers it), as in
 * no-sensitive-upgrade. Otherwise the run stops rather than leak.
 */
export function writeThrough(refL: Label, target: { label: Label; born?: Label }): void {
  // Whether it stops depends on the object `refL` chose, which another run may choose otherwise.
  // Stryker disable next-line ConditionalExpression: a fast path; mayStopOn of the bottom joins nothing
  if (refL !== BOT) mayStopOn(refL);
  if (mayWriteThrough(refL, target)) return;
  throw new SecurityStop(
    `cannot change an object that untrusted or private data chose (${brief(refL)}); ` +
      "build a new value instead, e.g. `groups[key] = { ...groups[key], n: (groups[key]?.n ?? 0) + 1 }` or `items.map((x) => ({ ...x, done: true }))`",
    // The message quotes the label's sources (written by tools from data): it carries the label.
    refL,
  );
}

/** True when {@link writeThrough} lets the write through (the reference's label is on every read of the target). */
export function mayWriteThrough(refL: Label, target: { label: Label; born?: Label; cuts?: readonly Cut[] }): boolean {
  // An array built from parts is read by the label of its lowest cut (positionLabel): a write
  // the whole label covers may still change what a search in a trusted part answers (attack r15).
  const label = lowestLabel(target);
  if (refL === BOT || st.mutants.noAliasFloor || restricts(label, refL)) return true;
  // An object made under a decision at least as labelled exists only where that decision went
  // its way: no other run has it, and every reference to it carries the decision.
  return target.born !== undefined && restricts(join2(label, target.born), refL);
}

/** Writes `key` of `o` with a value labelled `vl`, through a key labelled `keyL`. */
export function writeSlot(o: Obj, key: string, v: Val, vl: Label, keyL: Label): void {
  const l = join2(stored(vl), keyL);
  chosenBy(v, keyL);
  const slot = o.props.get(key);
  if (slot === undefined) {
    charge(64 + 2 * key.length);
    o.props.set(key, { v, l });
    o.shape = join2(o.shape, join2(st.pc, keyL));
  } else {
    slot.v = v;
    slot.l = l;
  }
  // Stryker disable next-line ConditionalExpression: joining the bottom changes nothing
  if (keyL !== BOT) o.label = join2(o.label, keyL);
}

/** Writes element `i` of `a`. */
export function writeElem(a: Arr, i: number, v: Val, vl: Label, keyL: Label): void {
  chosenBy(v, keyL);
  if (i >= a.items.length) {
    // A sparse write allocates every slot up to it: charged before it is allocated.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: at i === a.items.length the charge is 16 * 0, which changes nothing
    if (i > a.items.length) charge(16 * (i - a.items.length));
    for (let j = a.items.length; j < i; j++) a.items.push(undefined);
    a.items.push(v);
    a.label = join2(a.label, join2(st.pc, keyL));
    // Stryker disable next-line ConditionalExpression: without the padding setElemLabel below still makes lbls as long as items, and the slots between stay holes, which every reader takes as the bottom (elemLabel's ?? BOT, deepLabel's x ?? BOT, fresh's some)
    if (a.lbls !== null) while (a.lbls.length < a.items.length) a.lbls.push(BOT);
  } else a.items[i] = v;
  setElemLabel(a, i, join2(stored(vl), keyL));
  // Stryker disable next-line ConditionalExpression: joining the bottom changes nothing
  if (keyL !== BOT) raiseArray(a, keyL);
}

/**
 * An object stored under a labelled key will be found again through references carrying that
 * label: it and everything reachable from it carry the label themselves, so that writes through
 * those references (`groups[key].inner.n = 1`) stay sound without a stop. A raise made in one
 * run only would itself be a leak, so under a decision only objects that exist only where it
 * went this way (made under it, or already carrying it) are raised; an outside object stored
 * there (`if (c) groups[k] = item`) keeps its label, and a write through that reference stops.
 */
function chosenBy(v: Val, keyL: Label): void {
  // Stryker disable next-line ConditionalExpression: a fast path; the walk would join the bottom everywhere
  if (keyL === BOT) return;
  const todo: Val[] = [v];
  const seen = new Set<Val>();
  const pc = st.pc;
  while (todo.length > 0) {
    const x = todo.pop();
    if (!isRef(x) || (x.k !== OBJ && x.k !== ARR) || seen.has(x)) continue;
    seen.add(x);
    // An array built from parts carries the decision only if its lowest cut does (positionLabel).
    if (pc === BOT || restricts(join2(lowestLabel(x), x.born ?? BOT), pc)) {
      if (x.k === ARR) raiseArray(x, keyL);
      else x.label = join2(x.label, keyL);
    }
    if (x.k === OBJ) for (const slot of x.props.values()) todo.push(slot.v);
    else for (const item of x.items) todo.push(item);
  }
}

/**
 * What decides which keys an object enumerates (spread, rest, Object.keys, for…in): its shape,
 * and for an Error also its `name`, which is enumerable only once it differs from the class.
 */
export function keysLabel(o: Obj): Label {
  if (o.cls === undefined) return o.shape;
  const name = o.props.get("name");
  return name === undefined ? o.shape : join2(o.shape, name.l);
}

/**
 * Rule (a spread over keys already there): `{ a: x, ...v }` overwrites `a` when v has it, and
 * which keys v has was decided by `keysL`, so a key v may have carries `keysL` in both runs,
 * overwritten or not. `keys` bounds the keys v can have in any run, read from the program text
 * (`c ? { location: y } : {}` can only bring `location`), or is null when the text does not
 * bound them (a variable, a computed key, a spread inside, `a ?? b`): then every key may be
 * overwritten. Sound because a key outside the bound is written by neither run, so its value
 * and label are what they were before the spread in both. Which keys the result has, and in
 * what order (existing keys keep their place; new ones follow v's order), is still decided by
 * `keysL`: the caller joins it into the shape, which Object.keys, for…in, a spread of the
 * result and JSON.stringify read ({@link keysLabel}, {@link deepLabel}).
 */
export function spreadOverwrites(o: Obj, keysL: Label, keys: ReadonlySet<string> | null): void {
  // Stryker disable next-line ConditionalExpression: a fast path; the loop would join the bottom
  if (keysL === BOT) return;
  // Stryker disable next-line ConditionalExpression: the planted-leak switch is off outside the mutant suite
  if (keys !== null && st.mutants.spreadKeysNone) return;
  for (const [k, slot] of o.props) if (keys === null || keys.has(k)) slot.l = join2(slot.l, keysL);
}

/** A change to a container's structure (push, pop, sort, delete, …) under the current pc. */
export function reshape(o: Obj | Arr, extra: Label = BOT): void {
  if (o.k === ARR) moved(o);
  const l = join2(st.pc, extra);
  if (l === BOT) return;
  // Stryker disable next-line ConditionalExpression: the label is raised by the same l, and every read of an object's shape (a missing key, `in`, keysLabel's callers, a Map lookup, conversion) joins its label too
  if (o.k === OBJ) o.shape = join2(o.shape, l);
  o.label = join2(o.label, l);
}

/**
 * Rule (positions of an array built from parts): in `[...a, ...b]` the first `a.length`
 * positions, and which of a's elements stand there in what order, are decided by a's label
 * alone, whatever b holds; later parts only append. So a search that stops at position i (find,
 * findIndex, some, every, indexOf, includes) is decided by the cut that covers i, not by the
 * whole array's `label` (issue 15: a handle found among the members before the untrusted
 * senders). Sound only while every position stays where it was put: any change that may move one
 * (every reshape of an array: push, pop, shift, unshift, splice, sort, reverse, fill, a computed
 * key, a length write; a delete; and the upgrade of such a change not made) forgets the cuts
 * ({@link moved}), decided by the kind of change alone, so the run that makes it and the run that
 * does not agree; a raise of the array's label that moves nothing raises every cut too
 * ({@link raiseArray}). A write at a static index moves nothing (past the end it appends): its
 * element label says what it wrote.
 */
export function positionLabel(a: Arr, i: number): Label {
  const cuts = a.cuts;
  // Stryker disable next-line ConditionalExpression: a fast path; the loop finds no cut either
  if (cuts === undefined) return a.label;
  for (const c of cuts) if (i < c.n) return c.l;
  return a.label;
}

/** The label reads of `x` may get at the least: its lowest cut's for an array built from parts. */
function lowestLabel(x: { label: Label; cuts?: readonly Cut[] }): Label {
  return x.cuts === undefined ? x.label : x.cuts[0].l;
}

/** Positions of `a` may have moved: what decided them is its label again. */
export function moved(a: Arr): void {
  if (a.cuts !== undefined) a.cuts = undefined;
}

/** Raises `a`'s label, and every cut's with it, by `l` (nothing moved). */
export function raiseArray(a: Arr, l: Label): void {
  a.label = join2(a.label, l);
  if (a.cuts !== undefined) a.cuts = a.cuts.map((c) => ({ n: c.n, l: join2(c.l, l) }));
}

/**
 * The cuts of an array built from parts (a literal's spreads, concat's receiver): how many
 * positions there were after a part and the label of what decided them. Only cuts below the
 * whole array's label are kept.
 */
export function cutsOf(cuts: Cut[], label: Label): Cut[] | undefined {
  const kept = cuts.filter((c) => c.n > 0 && c.l !== label && !label.flowsTo(c.l));
  return kept.length === 0 ? undefined : kept;
}

// ---------------------------------------------------------------------------------------------
// The branch not taken

/** A compiled access path: a variable (or builtin) followed by static property names. */
export interface SitePath {
  root: { hops: number; index: number } | { value: Val };
  keys: string[];
}

/** What a region may change, resolved against the environment where its decision is made. */
export interface SiteEffects {
  vars: Array<{ hops: number; index: number }>;
  heap: Array<{ path: SitePath; key: string | null; deletes: boolean }>;
  /**
   * Calls: the callee's path (null: a builtin method of a local, only its arguments matter), and
   * whether a data-chosen path could name a function whose effects differ (`chosen`). Where the
   * function is not chosen (or null), `at` holds the positions any builtin of the method's name
   * may call (undefined: every one); where it is, the function named decides, and `spread` says
   * an argument is spread (positions unknown).
   */
  calls: Array<{ callee: SitePath | null; args: Array<SitePath | "inert" | "opaque">; chosen?: boolean; at?: readonly number[]; spread?: boolean }>;
  unknown: boolean;
  breaks: boolean;
  returns: boolean;
  mayThrow: boolean;
  /** At the top level: the region may set the program's completion value. */
  completes: boolean;
}

/** A closure's summary and the environment it was created in. */
export interface ClosureEffects {
  summary: SiteEffects;
  env: Env;
}

/** Evaluates a path without side effects (a callee a summary names). */
export function resolvePath(p: SitePath, env: Env): Val {
  const saved = st.l;
  const v = evalPath(p, env);
  st.l = saved;
  return v;
}

/** Evaluates a path without side effects; sets `st.l` to the reference's label. Undefined when it fails. */
function evalPath(p: SitePath, env: Env): Val {
  let v: Val;
  let l: Label;
  if ("value" in p.root) {
    v = p.root.value;
    l = BOT;
  } else {
    const e = hop(env, p.root.hops);
    v = e.v[p.root.index];
    l = e.l[p.root.index] ?? BOT;
  }
  // Each key is read as the program reads it (getMember's label rule, a missing key's shape
  // included): where the region did not run, the heap differs exactly at the paths it writes.
  for (const key of p.keys) {
    v = peekMember(v, l, key);
    l = st.l;
  }
  st.l = l;
  return v;
}

/**
 * What the write (or delete) of `key` would have changed: the part, or which parts exist. A
 * delete that did not run leaves the key, but one that ran changed the shape, so both count.
 *
 * The write a logical assignment did not make rests on this (compile/calls.ts `notSet`, attack
 * r14): every way code can raise an object's label when it runs (a computed-key write, a push or
 * other reshape, a builtin that writes its receiver or argument, lastIndex, a Date setter) is
 * raised here too, on the object's label and not only one part's, when that code did not run.
 * A builtin that raises a label must declare `writes`, or this upgrade misses it.
 */
// Stryker disable next-line BooleanLiteral: every call with a key passes deletes; with a null key neither case reads it
export function upgradeObject(target: Val, key: string | null, l: Label, deletes = false): void {
  if (!isRef(target)) return;
  if (target.k === OBJ) {
    // Stryker disable next-line ConditionalExpression: props holds string keys only, so props.get(null) is undefined as well
    const slot = key === null ? undefined : target.props.get(key);
    if (slot !== undefined && deletes) target.shape = join2(target.shape, l);
    if (slot !== undefined) slot.l = join2(slot.l, l);
    else if (key !== null) target.shape = join2(target.shape, l);
    else {
      target.label = join2(target.label, l);
      target.shape = join2(target.shape, l);
    }
  } else if (target.k === ARR) {
    // Stryker disable next-line Regex: a key with anything but digits is NaN as a number, never below the length
    if (!deletes && key !== null && /^\d+$/.test(key) && Number(key) < target.items.length) setElemLabel(target, Number(key), join2(elemLabel(target, Number(key)), l));
    else {
      // As the change made would have: a write past the end appends and moves no position
      // (writeElem); anything else may have moved one (reshape, deleteMember).
      if (deletes || key === null || !/^\d+$/.test(key)) moved(target);
      target.label = join2(target.label, l);
    }
  } else if (target.k === DATE) target.label = join2(target.label, l);
  // Any regex's lastIndex can be assigned; only a global or sticky one's is moved by test and exec.
  else if (target.k === RE && (key !== null || /[gy]/.test(target.flags))) target.label = join2(target.label, l);
}

/** Reads a member as the program would, without the read's effects (members.ts peekMember; set there to keep the stage order). */
let peekMember: (v: Val, objL: Label, key: string) => Val = () => undefined;
export function setMemberLookup(fn: (v: Val, objL: Label, key: string) => Val): void {
  peekMember = fn;
}

/** Resolves a function value to the effects it may have, for the upgrade of a call not made. */
export type ClosureEffectsOf = (f: Fn) => ClosureEffects | undefined;
let effectsOfClosure: ClosureEffectsOf = () => undefined;
export function setClosureEffects(fn: ClosureEffectsOf): void {
  effectsOfClosure = fn;
}

/**
 * Upgrades with `l` what builtin `f` may change (its declared `writes`): its receiver, its first
 * argument (`args`, when known), the random seed; an undeclared effect raises the floor.
 * `ran`: `f` was called, on this receiver (the alternatives of a call `l` decided). A receiver
 * reached through a labelled reference may be another object in another run, which the floor
 * covers for a call not made; for one made, every alternative that writes wrote an object whose
 * label covers the reference it was reached through (writeThrough), or stopped, so every read
 * of it carries that label in every run, and a floor raised by the writer alone would be raised
 * in one run only (attack r11-bind: `u.list[u.c ? "push" : "at"](1)`).
 */
export function upgradeWrites(f: Fn, args: readonly Val[] | null, l: Label, ran = false): void {
  const w = flagsOf(f).writes;
  if (w === "none") return;
  if (w === "seed") st.seedL = join2(st.seedL, l);
  else if (w === "self") {
    if (!ran && f.selfL !== undefined && f.selfL !== BOT) taintFloor(join2(l, f.selfL));
    upgradeObject(f.self, null, l);
  } else if (w === "arg0" && args !== null) upgradeObject(args[0], null, l);
  else taintFloor(l);
}

/** Whether something that may throw ran was decided by `l`: where the run may end and, inside a try, the pending throw. */
export function mayHaveThrown(l: Label): void {
  st.endL = join2(st.endL, l);
  if (st.tryDepth > 0 && !st.mutants.noThrowPc) {
    st.thr = join2(st.thr, l);
    syncPc();
  }
}

/**
 * Upgrades what a function value may do with `l`: a callback whose calls were decided by `l`
 * (what it writes, what it calls, and, inside a try, whether it threw).
 */
export function upgradeCallee(f: Val, l: Label): void {
  if (l === BOT || underPc(l)) return;
  upgradeFunction(f, l);
}

/** {@link upgradeCallee} whatever the pc (a region's exit runs before its pc is lowered). */
function upgradeFunction(f: Val, l: Label, seen?: Seen): void {
  if (!isRef(f) || f.k !== FN) return;
  if (f.builtin !== undefined) {
    const fx = flagsOf(f);
    upgradeWrites(f, null, l);
    // A builtin that calls its arguments was passed the elements or keys of whatever called it.
    if (fx.calls !== false) taintFloor(l);
    // Whether it was called at all was decided by `l`, and `throws: false` says only that it
    // labels its own throws by its inputs, not that it cannot throw (`Object.keys(null)`, attack
    // r11-calls: `u.list.reduce(Object.keys, null)`): any builtin here may have thrown.
    mayHaveThrown(l);
    return;
  }
  const c = effectsOfClosure(f);
  // Stryker disable next-line ConditionalExpression: every function without a builtin is a closure compiled in compile/functions.ts, whose effects effectsOfClosure always finds
  if (c === undefined) return taintFloor(l);
  upgradeEffects(c.summary, c.env, l, seen);
  // Inside a try, whether the callback ran (and so could throw) was decided by `l`, as for a
  // region's exit: otherwise the try's pending-throw label differs between the runs.
  if (c.summary.mayThrow) mayHaveThrown(l);
}

/**
 * One upgrade in progress: the summaries already upgraded, each with the environments it was
 * upgraded in, and the paths of the functions it resolved (callees and callbacks).
 */
interface Seen {
  envs: Map<SiteEffects, Set<Env>>;
  /**
   * Paths whose label decides the floor, evaluated once everything is upgraded: a labelled
   * reference raises it, whatever it names then (where the region ran it may have named another).
   */
  paths: Array<{ path: SitePath; env: Env }>;
}

/**
 * Upgrades everything `fx` may write with `l` (the rule for regions that did or did not run).
 * A write or call through a labelled reference may have reached other objects or functions,
 * which raises the floor. Whether a reference is labelled is decided once everything is
 * upgraded, so that both runs decide it alike: where the region ran, its later writes labelled
 * a path's prefix under the pc (`o.p.k = 1; o.p = {}`); where it did not, the upgrade of those
 * writes does, in whatever order. Likewise a function is resolved by its path as it is now, but
 * the region may have put another one there before calling it, through a write the upgrade
 * reaches only later (a closure, Object.assign): a path whose label the upgrade raised may have
 * named another function, whose effects are unknown here.
 */
export function upgradeEffects(fx: SiteEffects, env: Env, l: Label, seen?: Seen): void {
  if (seen !== undefined) return upgradeWithin(fx, env, l, seen);
  const top: Seen = { envs: new Map(), paths: [] };
  upgradeWithin(fx, env, l, top);
  for (const { path, env: e } of top.paths) {
    evalPath(path, e);
    if (st.l !== BOT) taintFloor(join2(l, st.l));
  }
}

function upgradeWithin(fx: SiteEffects, env: Env, l: Label, seen: Seen): void {
  // Closures of one literal share a summary but not an environment: each pair is upgraded once.
  let envs = seen.envs.get(fx);
  if (envs === undefined) seen.envs.set(fx, (envs = new Set()));
  if (envs.has(env)) return;
  envs.add(env);
  if (fx.unknown && !st.mutants.unknownNoFloor) taintFloor(l);
  // The completion value is the top level's one implicit variable.
  if (fx.completes) st.cvl = join2(st.cvl, l);
  for (const { hops, index } of fx.vars) {
    const e = hop(env, hops);
    e.l[index] = join2(e.l[index] ?? BOT, l);
  }
  if (st.mutants.noHeapUpgrade) return;
  for (const { path, key, deletes } of fx.heap) {
    const target = evalPath(path, env);
    seen.paths.push({ path, env });
    upgradeObject(target, key, l, deletes);
  }
  for (const { callee, args, chosen, at, spread } of fx.calls) {
    if (callee === null) {
      upgradeArgs(calledArgs(args, at), env, l, seen);
      continue;
    }
    if (chosen === false) {
      // Every builtin of that name only calls its arguments: what the path names now (where the
      // region ran it may have named another) does not matter, the arguments' paths do.
      upgradeArgs(calledArgs(args, at), env, l, seen);
      continue;
    }
    const f = evalPath(callee, env);
    if (!isRef(f) || f.k !== FN) {
      // The path names no function now, but the region may have put one there before calling
      // it (`o.f = g; o.f()`): what that one does is unknown here.
      taintFloor(l);
      continue;
    }
    seen.paths.push({ path: callee, env });
    if (f.builtin === undefined) {
      const c = effectsOfClosure(f);
      // Stryker disable next-line ConditionalExpression: every function without a builtin is a closure compiled in compile/functions.ts, whose effects effectsOfClosure always finds
      if (c === undefined) taintFloor(l);
      else upgradeEffects(c.summary, c.env, l, seen);
      continue;
    }
    const w = flagsOf(f).writes;
    if (w === "arg0") {
      const first = args[0];
      if (first === undefined || first === "opaque") taintFloor(l);
      else if (first !== "inert") {
        const target = evalPath(first, env);
        seen.paths.push({ path: first, env });
        upgradeObject(target, null, l);
      }
    } else upgradeWrites(f, null, l);
    if (flagsOf(f).calls !== false) upgradeArgs(calledArgs(args, spread === true ? undefined : flagsOf(f).callsAt), env, l, seen);
  }
}

/**
 * Rule (positions a builtin may call): an argument at a position the builtin never calls cannot
 * run, whatever it is (`JSON.parse(v)` calls no `v`, `xs.map(f, v)` no `v`); `at` undefined
 * (a builtin that declares none, a spread argument): every position may be called.
 */
function calledArgs(args: SiteEffects["calls"][number]["args"], at: readonly number[] | undefined): SiteEffects["calls"][number]["args"] {
  if (at === undefined) return args;
  const shift = st.mutants.calledPositionShifted ? 1 : 0;
  return args.filter((_, i) => at.includes(i - shift));
}

/** The closures passed to a builtin that calls them may run: upgrade their effects too. */
function upgradeArgs(args: Array<SitePath | "inert" | "opaque">, env: Env, l: Label, seen: Seen): void {
  for (const a of args) {
    if (a === "inert") continue;
    if (a === "opaque") {
      taintFloor(l);
      continue;
    }
    const f = evalPath(a, env);
    // A path that names no function now may have named one where the region ran (`o.cb = f;
    // xs.map(o.cb)`): its label decides the floor in both runs alike.
    if (!isRef(f) || f.k !== FN) {
      seen.paths.push({ path: a, env });
      continue;
    }
    // The path's label decides the floor once everything is upgraded, whatever it names: where
    // the region ran, it may have put this function there (a builtin for a closure or back).
    seen.paths.push({ path: a, env });
    // Stryker disable next-line ConditionalExpression: true sends closures through upgradeFunction, which adds only mayHaveThrown(l); the summary holding this call may throw (a call is not in effects.ts's CANNOT_THROW), so its upgrader (joinMayEnd or upgradeFunction) joins the same l there, and the pc is resynced before it is read
    if (f.builtin !== undefined) {
      // A builtin passed as a callback (`xs.forEach(out.push)`).
      upgradeFunction(f, l, seen);
      continue;
    }
    const c = effectsOfClosure(f);
    // Stryker disable next-line ConditionalExpression: every function without a builtin is a closure compiled in compile/functions.ts, whose effects effectsOfClosure always finds
    if (c === undefined) taintFloor(l);
    else upgradeEffects(c.summary, c.env, l, seen);
  }
}

/**
 * Rule (a function's exit): what decided where a body stopped (a return taken or not) decided
 * whether the code it skipped ran, so whether that code threw: as at a region's exit, `l` joins
 * the place the run may end at and, inside a try, the pending throw. Without it a `return` on
 * secret data before code that may throw let the planner see which line the run failed at.
 */
export function exitFunction(fx: SiteEffects, env: Env, l: Label): void {
  upgradeEffects(fx, env, l);
  joinMayEnd(fx, l);
}

/**
 * Leaves a region whose running was decided by `l`: upgrades what it may write, and lets
 * jumps it may take raise the pc of what follows until their target ends.
 */
export function exitRegion(fx: SiteEffects, env: Env, l: Label): void {
  if (st.mutants.noUntakenUpgrade) return;
  upgradeEffects(fx, env, l);
  let changed = joinMayEnd(fx, l);
  if (fx.breaks && !st.mutants.noJumpPc) (st.brk = join2(st.brk, l)), (changed = true);
  if (fx.returns && !st.mutants.noJumpPc) (st.ret = join2(st.ret, l)), (changed = true);
  // Stryker disable next-line ConditionalExpression: syncPc recomputes st.pc from spc, brk, ret and thr; when none changed it sets the same label
  if (changed) syncPc();
}

/**
 * Code decided by `l` that may throw: `l` decides where the run may end (`endL`) and, inside a
 * try, what the pending throw carries. True when the pending throw changed (the pc must follow).
 */
function joinMayEnd(fx: SiteEffects, l: Label): boolean {
  if (!fx.mayThrow) return false;
  st.endL = join2(st.endL, l);
  // Stryker disable next-line BooleanLiteral: only exitRegion reads the answer, and a syncPc when the pending throw did not change sets the same pc
  if (st.tryDepth === 0 || st.mutants.noThrowPc) return false;
  st.thr = join2(st.thr, l);
  return true;
}

/**
 * Rule (a guard that ends the run): a branch that can only throw (`if (!found) throw …`), decided
 * by `l` and not taken, where a throw would end the run before any more of the program runs: no
 * try is open at any depth and no finally waits after a catch block. Every run that goes on past
 * it did not take it, so the other branch and what follows run at the pc as it is, and nothing
 * the guard's branch may do is upgraded; `l` joins only what decides where the run ends (`endL`).
 * Whether the run went on is the termination channel (docs/security-model.md).
 */
export function guardEndsRun(l: Label): boolean {
  if (st.tryDepth > 0 && !st.mutants.guardIgnoresTry) return false;
  st.endL = join2(st.endL, l);
  return true;
}

/**
 * A stop that `l` may decide here: whether it fires depends on which function or object `l`
 * chose, and another run may choose one that fires (or not), so `l` decides where the run may
 * end whether or not this run stops. A stop is not catchable: no pending throw to raise.
 */
export function mayStopOn(l: Label): void {
  if (st.mutants.stopNoEnd) return;
  st.endL = join2(st.endL, l);
}

/** Raises the structured pc by `l`, returning the previous value to restore with {@link leavePc}. */
export function enterPc(l: Label): Label {
  const saved = st.spc;
  if (!st.mutants.noBranchPc) {
    st.spc = join2(saved, l);
    syncPc();
  }
  return saved;
}

export function leavePc(saved: Label): void {
  st.spc = saved;
  syncPc();
}

/** The label of a container's whole content, everything nested included. */
export function deepLabel(v: Val, seen: Set<Val> = new Set()): Label {
  if (!isRef(v) || seen.has(v)) return BOT;
  seen.add(v);
  let l: Label = v.label;
  if (v.k === OBJ) {
    l = join2(l, v.shape);
    for (const slot of v.props.values()) l = join2(join2(l, slot.l), deepLabel(slot.v, seen));
    // A Map's or Set's entries are its contents too.
    const c = v.coll;
    if (c !== undefined) for (let i = 0; i < c.keys.length; i++) l = join2(join2(join2(l, c.kls[i]), c.vls[i]), join2(deepLabel(c.keys[i], seen), deepLabel(c.vals[i], seen)));
  } else if (v.k === ARR) {
    if (v.lbls !== null) for (const x of v.lbls) l = join2(l, x ?? BOT);
    // Stryker disable next-line ConditionalExpression: deepLabel of a value that is not a reference is the bottom
    for (const x of v.items) if (isRef(x)) l = join2(l, deepLabel(x, seen));
  }
  return l;
}

/** A value's label including its contents: what string conversion of it depends on. */
export function withContents(v: Val, l: Label): Label {
  return isRef(v) && !st.mutants.noDeepLabel ? join2(l, deepLabel(v)) : l;
}
