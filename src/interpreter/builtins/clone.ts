/**
 * `structuredClone(v)`: a deep copy in the value model. Every part keeps its own label, every
 * container its label and shape, so the copy reads exactly as the original does (refinement
 * `elements`); the reference to the copy carries the argument's. Shared parts and cycles are
 * copied as shared parts and cycles. A function anywhere inside is a DataCloneError, which the
 * default throw rule decides by the argument and its contents.
 */
import type { Label } from "../../labels/index.js";
import { throwError } from "../errors.js";
import { withContents } from "../rules.js";
import { charge, checkArrayLength, step } from "../state.js";
import { ARR, BOT, DATE, FN, OBJ, RE, type Arr, type Obj, type Ref, type Val, isRef } from "../values.js";
import { ret } from "./util.js";

function copy(v: Val, seen: Map<Ref, Ref>, whole: Label): Val {
  if (!isRef(v)) return v;
  const done = seen.get(v);
  if (done !== undefined) return done;
  step();
  switch (v.k) {
    case FN:
      return throwError("DataCloneError", `${v.name || "a function"} could not be cloned; structuredClone copies data only`, whole);
    case DATE: {
      const d = { ...v };
      seen.set(v, d);
      return d;
    }
    case RE: {
      const r = { ...v, lastIndex: 0 };
      seen.set(v, r);
      return r;
    }
    case ARR: {
      checkArrayLength(v.items.length);
      charge(16 * v.items.length + 32);
      const out: Arr = { k: ARR, items: [], lbls: v.lbls === null ? null : v.lbls.slice(), label: v.label };
      seen.set(v, out);
      for (const x of v.items) out.items.push(copy(x, seen, whole));
      return out;
    }
    case OBJ: {
      const o: Obj = { k: OBJ, props: new Map(), label: v.label, shape: v.shape };
      if (v.cls !== undefined) o.cls = v.cls;
      // Seen before the entries are copied: a Map or Set may hold itself.
      seen.set(v, o);
      if (v.coll !== undefined) {
        const c = v.coll;
        o.coll = { kind: c.kind, keys: [], vals: [], kls: c.kls.slice(), vls: c.vls.slice() };
        charge(48 * c.keys.length);
        for (let i = 0; i < c.keys.length; i++) (o.coll.keys.push(copy(c.keys[i], seen, whole)), o.coll.vals.push(copy(c.vals[i], seen, whole)));
      }
      for (const [k, slot] of v.props) {
        charge(64 + 2 * k.length);
        o.props.set(k, { v: copy(slot.v, seen, whole), l: slot.l });
      }
      return o;
    }
  }
}

export function structuredCloneOf(args: Val[], argLs: Label[]): Val {
  const l = argLs[0] ?? BOT;
  return ret(copy(args[0], new Map(), withContents(args[0], l)), l);
}
