/**
 * `JSON.stringify(v, replacerFn)` and `JSON.parse(text, reviverFn)`: the function is called
 * once per key, as a callback. Rule: each call runs under the pc of the whole input (its deep
 * label, which decides which keys there are) and the function's label; the result joins that
 * label and every answer's label, contents included.
 */
import type { Label } from "../../labels/index.js";
import { callBack, upgradeCallback } from "../rules-calls.js";
import { throwError } from "../errors.js";
import { enterPc, join2, keysLabel, leavePc, mayThrowOn, underPc, withContents } from "../rules.js";
import { st, step } from "../state.js";
import { ARR, BOT, DATE, FN, OBJ, RE, type Fn, type Val, elemLabel, enumerableKeys, isRef, setElemLabel } from "../values.js";

/** Runs `walk` under the pc `d` and upgrades what the callback may write when it ends. */
function underCallback<T>(cb: Fn, cbL: Label, d: Label, walk: () => T): T {
  const guarded = !underPc(d);
  const saved = guarded ? enterPc(d) : st.spc;
  try {
    return walk();
  } finally {
    if (guarded) leavePc(saved);
    upgradeCallback(cb, cbL, d);
  }
}

/** Plain JSON data of `v` with `cb(key, value)` applied to every key, as JSON.stringify does. */
export function replaceAll(v: Val, l: Label, cb: Fn, cbL: Label): { data: unknown; l: Label } {
  const d = join2(l, cbL);
  let acc = d;
  const seen = new Set<Val>();
  const call = (key: string, x: Val, xl: Label): Val => {
    step();
    // A Date is turned into its JSON string before the replacer sees it: made of its contents.
    const date = isRef(x) && x.k === DATE;
    const before = date ? (Number.isNaN(x.t) ? null : new Date(x.t).toISOString()) : x;
    // The value passed carries its own label (the part read now), not only the walk's.
    const r = callBack(cb, cbL, [key, before], [acc, join2(acc, date ? withContents(x, xl) : xl)]);
    // Rule (live decisions): what an answer holds decides which keys are walked, and so which
    // calls come next: they run under it.
    raise(withContents(r, st.l));
    return r;
  };
  const raise = (rl: Label): void => {
    if (rl !== BOT && !rl.flowsTo(acc)) {
      acc = join2(acc, rl);
      if (!underPc(acc)) enterPc(acc);
    }
  };
  const walk = (key: string, x: Val, xl: Label): unknown => {
    const r = call(key, x, xl);
    if (!isRef(r)) return typeof r === "number" && !Number.isFinite(r) ? null : r;
    if (r.k === FN) return undefined;
    if (r.k === DATE || r.k === RE) return {};
    if (seen.has(r)) return throwError("TypeError", "Converting circular structure to JSON", acc);
    seen.add(r);
    try {
      // Each step re-joins the container's live labels: the replacer may have changed it.
      if (r.k === ARR) {
        // As in JavaScript, every index below the length read at the start is walked (a part
        // the replacer removed is read as undefined); where the walk ended was decided by the
        // array as it is at the end, after the last answer.
        const len = r.items.length;
        const out: unknown[] = [];
        for (let i = 0; i < len; i++) {
          raise(r.label);
          out.push(walk(String(i), r.items[i], i < r.items.length ? elemLabel(r, i) : BOT) ?? null);
        }
        raise(r.label);
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const k of enumerableKeys(r)) {
        raise(join2(r.label, keysLabel(r)));
        // A key the replacer deleted before its turn is read as undefined, as JavaScript does.
        const slot = r.props.get(k);
        const j = walk(k, slot?.v, slot?.l ?? BOT);
        if (j !== undefined) out[k] = j;
      }
      return out;
    } finally {
      seen.delete(r);
    }
  };
  const saved = st.spc;
  let data: unknown;
  try {
    data = underCallback(cb, cbL, d, () => walk("", v, l));
  } finally {
    leavePc(saved);
    upgradeCallback(cb, cbL, acc);
  }
  // Whether the walk threw (a cycle the replacer's answers closed) was decided by every answer,
  // also when it did not throw.
  mayThrowOn(acc);
  return { data, l: acc };
}

/**
 * Applies a reviver to parsed data, innermost values first: an answer of undefined deletes the
 * key, any other answer replaces the value, as JSON.parse does.
 */
export function revive(v: Val, l: Label, cb: Fn, cbL: Label): { v: Val; l: Label } {
  const d = join2(l, cbL);
  let acc = d;
  const walk = (key: string, x: Val): { v: Val; l: Label } => {
    step();
    if (isRef(x) && x.k === ARR) {
      x.items.forEach((e, i) => {
        const r = walk(String(i), e);
        x.items[i] = r.v;
        setElemLabel(x, i, r.l);
      });
    } else if (isRef(x) && x.k === OBJ) {
      for (const k of enumerableKeys(x)) {
        const r = walk(k, x.props.get(k)?.v);
        if (r.v === undefined) x.props.delete(k);
        else x.props.set(k, { v: r.v, l: r.l });
        // Which keys remain depends on the answer.
        x.shape = join2(x.shape, r.l);
      }
    }
    const out = callBack(cb, cbL, [key, x], [d, d]);
    const ol = join2(d, withContents(out, st.l));
    acc = join2(acc, ol);
    return { v: out, l: ol };
  };
  const top = underCallback(cb, cbL, d, () => walk("", v));
  return { v: top.v, l: join2(acc, top.l) };
}
