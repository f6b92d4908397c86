/**
 * Array methods. Elements keep their own labels through slice, concat, sort and the rest;
 * what a callback decides (keep, stop, order) joins the label of the result's structure.
 * The label of an array's length and order is `base` = the reference's label ⊔ the array's.
 */
import type { Label } from "../../labels/index.js";
import { typeError } from "../errors.js";
import { cutsOf, enterPc, join2, leavePc, mayThrowOn, positionLabel, reshape, stored, underPc, withContents, writeThrough } from "../rules.js";
import { callBack, upgradeCallback } from "../rules-calls.js";
import { charge, charsOf, checkArrayLength, checkString, st, step } from "../state.js";
import { ARR, BOT, FN, OBJ, type Arr, type BuiltinFlags, type Val, elemLabel, isRef, joinChecked, newArr, toStr, truthy, toNum, toKey } from "../values.js";
import { type Builtin, argsLabel, asArray, builtin, relIndex, ret, toInt } from "./util.js";
import { iterableOf } from "./collections.js";

/** Flags of the methods that change the array (refinement `mutation`). */
const MUTATION: BuiltinFlags = { writes: "self", calls: false, throws: false, refine: "mutation" };
/** Flags of the methods that call a function per element. */
// The callback is the first argument; thisArg and reduce's initial value are never called.
const CALLBACK = (refine: BuiltinFlags["refine"], callsAt: readonly number[] = [0]): BuiltinFlags => ({ writes: "none", throws: false, refine, callsAt });
const READ = (refine: BuiltinFlags["refine"]): BuiltinFlags => ({ writes: "none", calls: false, throws: false, refine });

const base = (a: Arr, selfL: Label): Label => join2(selfL, a.label);

function lbl(a: Arr, i: number): Label {
  return elemLabel(a, i);
}

/**
 * A callback that is not a function throws when it is first called, that is, when the array is
 * not empty: whether it throws is decided by the callback's label and the array's length.
 */
function checkCallback(cb: Val, cbL: Label, base: Label): void {
  if (!isRef(cb) || cb.k !== FN || cbL !== BOT) mayThrowOn(join2(base, cbL));
}

/**
 * Calls `cb` on each element under the pc of the array's length. `visit` returns true to stop
 * early; the labels of the results that could stop it join `decided` and the pc of later calls.
 * Rule: the decision to take another step reads the live length (the callback may change it),
 * so the array's own label is joined again at every step.
 */
function eachCallback(a: Arr, selfL: Label, cb: Val, cbL: Label, stops: boolean, visit: (i: number, r: Val, rl: Label) => boolean, fromEnd = false): Label {
  // A search from the start that stops at i was decided by the positions up to i (rules.ts positionLabel).
  const fromStart = stops && !fromEnd;
  checkCallback(cb, cbL, base(a, selfL));
  let decided = join2(selfL, fromStart ? positionLabel(a, 0) : a.label);
  const saved = st.spc;
  if (!underPc(join2(decided, cbL))) enterPc(join2(decided, cbL));
  try {
    const len = a.items.length;
    for (let k = 0; ; k++) {
      step();
      const i = fromEnd ? len - 1 - k : k;
      // Rule (live decisions): the step is decided by the length now (by the cut that covers
      // position i, for a search from the start: the positions before the cut are there whatever
      // follows; a callback that moves any forgets the cuts).
      const pl = fromStart && k < len ? positionLabel(a, i) : a.label;
      if (!st.mutants.noLoopPc && pl !== BOT && !pl.flowsTo(decided)) {
        decided = join2(decided, pl);
        if (!underPc(decided)) enterPc(decided);
      }
      if (!(k < len && i < a.items.length)) break;
      const el = join2(decided, lbl(a, i));
      const r = callBack(cb, cbL, [a.items[i], i, a], [el, decided, selfL]);
      const rl = st.l;
      if (visit(i, r, rl)) return (decided = join2(join2(decided, rl), fromStart ? positionLabel(a, i) : a.label));
      if (stops && rl !== BOT && !st.mutants.callbackDropsResult) {
        decided = join2(decided, rl);
        if (!underPc(rl)) enterPc(rl);
      }
    }
    return (decided = join2(decided, a.label));
  } finally {
    leavePc(saved);
    upgradeCallback(cb, cbL, decided);
  }
}

export function fresh(items: Val[], lbls: Label[] | null, label: Label): Arr {
  checkArrayLength(items.length);
  charge(16 * items.length + 32);
  return newArr(items, lbls !== null && lbls.some((l) => l !== BOT) ? lbls : null, label);
}

const methods: Record<string, Builtin> = {
  push: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "push");
    writeThrough(selfL, a);
    checkArrayLength(a.items.length + args.length);
    for (let i = 0; i < args.length; i++) {
      const l = stored(argLs[i]);
      if (a.lbls !== null || l !== BOT) {
        if (a.lbls === null) a.lbls = new Array(a.items.length).fill(BOT);
        a.lbls.push(l);
      }
      a.items.push(args[i]);
    }
    charge(16 * args.length);
    reshape(a);
    return ret(a.items.length, join2(base(a, selfL), st.pc));
  }, MUTATION),
  pop: builtin((_args, _argLs, self, selfL) => {
    const a = asArray(self, selfL, "pop");
    writeThrough(selfL, a);
    const l = join2(base(a, selfL), lbl(a, a.items.length - 1));
    const v = a.items.pop();
    a.lbls?.pop();
    reshape(a);
    return ret(v, l);
  }, MUTATION),
  shift: builtin((_args, _argLs, self, selfL) => {
    const a = asArray(self, selfL, "shift");
    writeThrough(selfL, a);
    const l = join2(base(a, selfL), lbl(a, 0));
    const v = a.items.shift();
    a.lbls?.shift();
    reshape(a);
    return ret(v, l);
  }, MUTATION),
  unshift: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "unshift");
    writeThrough(selfL, a);
    checkArrayLength(a.items.length + args.length);
    if (a.lbls === null && argLs.some((l) => stored(l) !== BOT)) a.lbls = new Array(a.items.length).fill(BOT);
    a.items.unshift(...args);
    a.lbls?.unshift(...argLs.map(stored));
    reshape(a);
    return ret(a.items.length, join2(base(a, selfL), st.pc));
  }, MUTATION),
  splice: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "splice");
    writeThrough(selfL, a);
    const len = a.items.length;
    const start = relIndex(args[0], len, 0);
    const count = args.length === 0 ? 0 : args.length < 2 ? len - start : Math.min(Math.max(toInt(args[1], 0), 0), len - start);
    const inserted = args.slice(2);
    checkArrayLength(len + inserted.length);
    const b = base(a, selfL);
    if (a.lbls === null && argLs.slice(2).some((l) => stored(l) !== BOT)) a.lbls = new Array(len).fill(BOT);
    const removedLbls = a.lbls ? a.lbls.splice(start, count, ...argLs.slice(2).map(stored)) : null;
    const removed = a.items.splice(start, count, ...inserted);
    reshape(a, argsLabel(args, argLs, 2));
    return ret(fresh(removed, removedLbls, join2(b, argsLabel(args, argLs, 2))), selfL);
  }, MUTATION),
  reverse: builtin((_args, _argLs, self, selfL) => {
    const a = asArray(self, selfL, "reverse");
    writeThrough(selfL, a);
    a.items.reverse();
    a.lbls?.reverse();
    reshape(a);
    return ret(a, selfL);
  }, MUTATION),
  fill: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "fill");
    writeThrough(selfL, a);
    const len = a.items.length;
    const from = relIndex(args[1], len, 0);
    const to = relIndex(args[2], len, len);
    const l = join2(stored(argLs[0] ?? BOT), argsLabel(args, argLs).join(BOT));
    for (let i = from; i < to; i++) {
      a.items[i] = args[0];
      if (a.lbls !== null || l !== BOT) {
        if (a.lbls === null) a.lbls = new Array(len).fill(BOT);
        a.lbls[i] = l;
      }
    }
    reshape(a, join2(argLs[1] ?? BOT, argLs[2] ?? BOT));
    return ret(a, selfL);
  }, MUTATION),
  sort: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "sort");
    writeThrough(selfL, a);
    // The elements are taken at the start, as in JavaScript (a comparator that reshapes the
    // array moves nothing of the sorted copy); the copy is written back over the first ones.
    const items = a.items.slice();
    const lbls = items.map((_, i) => lbl(a, i));
    const order = sortOrder(a, items, lbls, selfL, args[0], argLs[0] ?? BOT);
    const tail = a.items.length > items.length ? a.items.slice(items.length) : [];
    const tailLs = tail.map((_, i) => lbl(a, items.length + i));
    a.items = order.idx.map((i) => items[i]).concat(tail);
    const sortedLs = order.idx.map((i) => lbls[i]).concat(tailLs);
    a.lbls = sortedLs.some((l) => l !== BOT) ? sortedLs : null;
    // Rule: the order depends on what the comparisons saw.
    reshape(a, order.decided);
    return ret(a, selfL);
  }, { writes: "self", throws: false, refine: "order", callsAt: [0] }),
  slice: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "slice");
    const len = a.items.length;
    const from = relIndex(args[0], len, 0);
    const to = relIndex(args[1], len, len);
    const lbls = a.lbls ? a.lbls.slice(from, Math.max(from, to)) : null;
    return ret(fresh(a.items.slice(from, Math.max(from, to)), lbls, join2(base(a, selfL), argsLabel(args, argLs))), selfL);
  }, READ("elements")),
  concat: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "concat");
    const items = a.items.slice();
    const lbls = a.items.map((_, i) => lbl(a, i));
    let structure = base(a, selfL);
    for (let j = 0; j < args.length; j++) {
      const x = args[j];
      if (isRef(x) && x.k === ARR) {
        const xb = join2(argLs[j], x.label);
        structure = join2(structure, xb);
        x.items.forEach((v, i) => (items.push(v), lbls.push(join2(xb, lbl(x, i)))));
      } else {
        // Whether an argument is an array (and so how many elements it adds) is decided by its label.
        items.push(x);
        lbls.push(argLs[j]);
        structure = join2(structure, argLs[j]);
      }
    }
    const out = fresh(items, lbls, structure);
    // Rule (positions, rules.ts positionLabel): the receiver's elements come first, where they
    // were, whatever the arguments are (their count and kinds only decide what follows).
    const cuts = cutsOf([{ n: a.items.length, l: base(a, selfL) }], structure);
    if (cuts !== undefined) out.cuts = cuts;
    return ret(out, selfL);
  }, READ("elements")),
  indexOf: builtin((args, argLs, self, selfL) => search(self, selfL, args, argLs, "indexOf"), READ("search")),
  lastIndexOf: builtin((args, argLs, self, selfL) => search(self, selfL, args, argLs, "lastIndexOf"), READ("search")),
  includes: builtin((args, argLs, self, selfL) => search(self, selfL, args, argLs, "includes"), READ("search")),
  // The default rule: the string is made of every element's text and the separator's.
  join: builtin((args, _argLs, self, selfL) => {
    const a = asArray(self, selfL, "join");
    const sep = args[0] === undefined ? "," : toStr(args[0]);
    // Checked and charged (joinChecked) before the host builds the text.
    return joinChecked(a.items.map((x) => (x === null || x === undefined ? "" : toStr(x))), sep);
  }, READ(undefined)),
  at: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "at");
    let i = toInt(args[0], 0);
    if (i < 0) i += a.items.length;
    return ret(a.items[i], join2(join2(base(a, selfL), argLs[0] ?? BOT), lbl(a, i)));
  }, READ("element")),
  flat: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "flat");
    const depth = args[0] === undefined ? 1 : toInt(args[0], 1);
    const items: Val[] = [];
    const lbls: Label[] = [];
    let structure = join2(base(a, selfL), argLs[0] ?? BOT);
    const walk = (arr: Arr, d: number, outer: Label): void => {
      arr.items.forEach((v, i) => {
        step();
        const l = join2(outer, lbl(arr, i));
        // Whether an element is an array (and is flattened) is decided by its label.
        if (d > 0) structure = join2(structure, l);
        if (d > 0 && isRef(v) && v.k === ARR) {
          structure = join2(structure, join2(l, v.label));
          walk(v, d - 1, join2(l, v.label));
        } else {
          // Checked and charged as it grows: shared parts are copied each time they are reached.
          checkArrayLength(items.length + 1);
          charge(16);
          items.push(v);
          lbls.push(l);
        }
      });
    };
    walk(a, depth, BOT);
    return ret(fresh(items, lbls, structure), selfL);
  }, READ("elements")),
  keys: builtin((_args, _argLs, self, selfL) => {
    const a = asArray(self, selfL, "keys");
    return ret(fresh(a.items.map((_, i) => i), null, base(a, selfL)), selfL);
  }, READ("shape")),
  entries: builtin((_args, _argLs, self, selfL) => {
    const a = asArray(self, selfL, "entries");
    const b = base(a, selfL);
    return ret(fresh(a.items.map((v, i) => newArr([i, v], [BOT, lbl(a, i)], BOT)), null, b), selfL);
  }, READ("elements")),
  forEach: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "forEach");
    eachCallback(a, selfL, args[0], argLs[0] ?? BOT, false, () => false);
    return ret(undefined, BOT);
  }, CALLBACK("eachElement")),
  map: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "map");
    const items: Val[] = [];
    const lbls: Label[] = [];
    const decided = eachCallback(a, selfL, args[0], argLs[0] ?? BOT, false, (_i, r, rl) => (items.push(r), lbls.push(rl), false));
    return ret(fresh(items, lbls, decided), selfL);
  }, CALLBACK("eachElement")),
  filter: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "filter");
    const items: Val[] = [];
    const lbls: Label[] = [];
    let kept = base(a, selfL);
    const decided = eachCallback(a, selfL, args[0], argLs[0] ?? BOT, false, (i, r, rl) => {
      // Rule: which elements remain depends on every callback's answer.
      if (!st.mutants.callbackDropsResult) kept = join2(kept, rl);
      if (truthy(r)) (items.push(a.items[i]), lbls.push(lbl(a, i)));
      return false;
    });
    return ret(fresh(items, lbls, join2(kept, decided)), selfL);
  }, CALLBACK("answers")),
  flatMap: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "flatMap");
    const items: Val[] = [];
    const lbls: Label[] = [];
    let structure = base(a, selfL);
    const decided = eachCallback(a, selfL, args[0], argLs[0] ?? BOT, false, (_i, r, rl) => {
      // Whether an answer is an array (and how many elements it adds) is decided by its label.
      structure = join2(structure, rl);
      if (isRef(r) && r.k === ARR) {
        structure = join2(structure, join2(rl, r.label));
        r.items.forEach((v, j) => (items.push(v), lbls.push(join2(join2(rl, r.label), lbl(r, j)))));
      } else (items.push(r), lbls.push(rl));
      return false;
    });
    return ret(fresh(items, lbls, join2(structure, decided)), selfL);
  }, CALLBACK("eachElement")),
  find: builtin((args, argLs, self, selfL) => findLike(self, selfL, args, argLs, "find"), CALLBACK("answers")),
  findIndex: builtin((args, argLs, self, selfL) => findLike(self, selfL, args, argLs, "findIndex"), CALLBACK("answers")),
  findLast: builtin((args, argLs, self, selfL) => findLike(self, selfL, args, argLs, "findLast"), CALLBACK("answers")),
  findLastIndex: builtin((args, argLs, self, selfL) => findLike(self, selfL, args, argLs, "findLastIndex"), CALLBACK("answers")),
  some: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "some");
    let found = false;
    const decided = eachCallback(a, selfL, args[0], argLs[0] ?? BOT, true, (_i, r) => (found = truthy(r)));
    return ret(found, st.mutants.callbackDropsResult ? base(a, selfL) : decided);
  }, CALLBACK("answers")),
  every: builtin((args, argLs, self, selfL) => {
    const a = asArray(self, selfL, "every");
    let all = true;
    const decided = eachCallback(a, selfL, args[0], argLs[0] ?? BOT, true, (_i, r) => !(all = truthy(r)));
    return ret(all, st.mutants.callbackDropsResult ? base(a, selfL) : decided);
  }, CALLBACK("answers")),
  reduce: builtin((args, argLs, self, selfL) => reduce(self, selfL, args, argLs, false), CALLBACK("fold")),
  reduceRight: builtin((args, argLs, self, selfL) => reduce(self, selfL, args, argLs, true), CALLBACK("fold")),
};

function search(self: Val, selfL: Label, args: Val[], argLs: Label[], kind: "indexOf" | "lastIndexOf" | "includes"): Val {
  const a = asArray(self, selfL, kind);
  const x = args[0];
  // As in JavaScript, lastIndexOf without a start searches from the end; with one given as undefined, from 0.
  const from = toInt(args[1], kind === "lastIndexOf" && args.length < 2 ? a.items.length - 1 : 0);
  // Our values compare as the host's do: primitives by value, references by identity.
  const v = kind === "includes" ? a.items.includes(x, from) : kind === "indexOf" ? a.items.indexOf(x, from) : a.items.lastIndexOf(x, from);
  // Rule: where (and whether) a value is found depends on every element compared, and on the
  // positions up to where it stopped (a search from the start: rules.ts positionLabel).
  // Where it stopped: indexOf's own answer; for includes, the first strictly equal element (a
  // NaN found by SameValueZero has none, and every element joins).
  const fromStart = kind !== "lastIndexOf" && args.length < 2;
  const found = !fromStart ? -1 : kind === "indexOf" ? (v as number) : a.items.indexOf(x);
  const upTo = found < 0 ? a.items.length - 1 : found;
  let l = join2(join2(selfL, found < 0 ? a.label : positionLabel(a, found)), argsLabel(args, argLs));
  for (let i = 0; i <= upTo; i++) l = join2(l, lbl(a, i));
  return ret(v, l);
}

function findLike(self: Val, selfL: Label, args: Val[], argLs: Label[], kind: string): Val {
  const a = asArray(self, selfL, kind);
  const last = kind.startsWith("findLast");
  let index = -1;
  const decided = eachCallback(a, selfL, args[0], argLs[0] ?? BOT, true, (i, r) => truthy(r) && ((index = i), true), last);
  const l = st.mutants.callbackDropsResult ? base(a, selfL) : decided;
  if (kind.endsWith("Index")) return ret(index, l);
  return ret(index < 0 ? undefined : a.items[index], index < 0 ? l : join2(l, lbl(a, index)));
}

function reduce(self: Val, selfL: Label, args: Val[], argLs: Label[], right: boolean): Val {
  const a = asArray(self, selfL, right ? "reduceRight" : "reduce");
  let b = base(a, selfL);
  const order = a.items.map((_, i) => i);
  if (right) order.reverse();
  let acc: Val;
  let accL: Label;
  let k = 0;
  const cb = args[0];
  const cbL = argLs[0] ?? BOT;
  checkCallback(cb, cbL, b);
  if (args.length >= 2) (acc = args[1]), (accL = argLs[1]);
  else {
    // Without an initial value, an empty array throws: the length decides.
    mayThrowOn(b);
    if (order.length === 0) return typeError("Reduce of empty array with no initial value", b);
    acc = a.items[order[0]];
    accL = join2(b, lbl(a, order[0]));
    k = 1;
  }
  const saved = st.spc;
  if (!underPc(join2(b, cbL))) enterPc(join2(b, cbL));
  try {
    for (; k < order.length; k++) {
      step();
      // Rule (live decisions): the element read now depends on the length now.
      if (a.label !== BOT && !a.label.flowsTo(b)) {
        b = join2(b, a.label);
        if (!underPc(b)) enterPc(b);
      }
      const i = order[k];
      acc = callBack(cb, cbL, [acc, a.items[i], i, a], [accL, join2(b, lbl(a, i)), b, selfL]);
      accL = st.l;
    }
  } finally {
    leavePc(saved);
    b = join2(b, a.label);
    upgradeCallback(cb, cbL, b);
  }
  // Rule: how many steps folded into the result depends on the length.
  return ret(acc, join2(accL, b));
}

/**
 * A stable merge order of indices; `decided` joins what every comparison saw. Which pairs are
 * compared next depends on the answers so far: each comparator call runs under them.
 */
export function sortOrder(a: Arr, items: Val[], lbls: Label[], selfL: Label, cmp: Val, cmpL: Label): { idx: number[]; decided: Label } {
  const idx = items.map((_, i) => i);
  // Whether there is a comparator at all (and which) was decided by its reference label, on
  // the default order as much as on the comparator's.
  let decided = join2(base(a, selfL), cmpL);
  if (cmp === undefined) {
    for (let i = 0; i < items.length; i++) decided = join2(decided, withContents(items[i], lbls[i]));
    const keys = items.map((v) => (v === undefined ? undefined : toStr(v)));
    idx.sort((x, y) => {
      step();
      return keys[x] === undefined ? 1 : keys[y] === undefined ? -1 : keys[x]! < keys[y]! ? -1 : keys[x]! > keys[y]! ? 1 : 0;
    });
    return { idx, decided };
  }
  checkCallback(cmp, cmpL, decided);
  const saved = st.spc;
  if (!underPc(join2(decided, cmpL))) enterPc(join2(decided, cmpL));
  try {
    idx.sort((x, y) => {
      step();
      // Each value with its own label, from the copy taken at the start.
      const r = callBack(cmp, cmpL, [items[x], items[y]], [join2(decided, lbls[x]), join2(decided, lbls[y])]);
      const rl = withContents(r, st.l);
      if (!st.mutants.callbackDropsResult && rl !== BOT && !rl.flowsTo(decided)) {
        decided = join2(decided, rl);
        if (!underPc(decided)) enterPc(decided);
      }
      const n = toNum(r);
      return Number.isNaN(n) ? 0 : n;
    });
  } finally {
    leavePc(saved);
    upgradeCallback(cmp, cmpL, decided);
  }
  return { idx, decided };
}

export const arrayMethods = new Map<string, Builtin>(Object.entries(methods));

/** `Array.isArray`, `Array.from`, `Array.of`. */
export const arrayStatics: Record<string, Builtin> = {
  isArray: builtin((args, argLs) => ret(isRef(args[0]) && args[0].k === ARR, argLs[0] ?? BOT), READ("typeOf")),
  of: builtin((args, argLs) => ret(fresh(args.slice(), argLs.slice(), BOT), BOT), READ("elements")),
  from: builtin((args, argLs) => {
    const srcL = argLs[0] ?? BOT;
    // As in JavaScript, nothing to copy from is a TypeError (other primitives give []).
    mayThrowOn(srcL);
    if (args[0] === null || args[0] === undefined) return typeError(`Array.from needs an array, a string, a Map, a Set or an object with a length, got ${args[0]}`, srcL);
    const src = iterableOf(args[0], srcL);
    let arr: Arr;
    if (typeof src === "string") {
      const chars = charsOf(src, 16);
      arr = fresh(chars, chars.map(() => srcL), srcL);
    }
    else if (isRef(src) && src.k === ARR) arr = fresh(src.items.slice(), src.items.map((_, i) => lbl(src, i)), join2(srcL, src.label));
    else if (isRef(src) && src.k === OBJ) {
      // An array-like: whether it has a length, and which indices it has, are its shape.
      const b = join2(join2(srcL, src.label), src.shape);
      const len = src.props.get("length");
      if (len === undefined) arr = fresh([], null, b);
      else {
        const n = Math.max(0, Math.min(toInt(len.v, 0), st.limits.arrayLength + 1));
        checkArrayLength(n);
        const items: Val[] = [];
        const lbls: Label[] = [];
        for (let i = 0; i < n; i++) {
          const slot = src.props.get(toKey(i));
          items.push(slot?.v);
          lbls.push(slot === undefined ? b : join2(b, slot.l));
        }
        arr = fresh(items, lbls, join2(b, withContents(len.v, len.l)));
      }
    } else arr = fresh([], null, srcL);
    if (args[1] !== undefined) return arrayMethods.get("map")!([args[1]], [argLs[1] ?? BOT], arr, BOT);
    return ret(arr, BOT);
  }, CALLBACK("elements", [1])),
};
