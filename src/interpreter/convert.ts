/**
 * Crossing the boundary: host data (JSON, with `labeled(...)` parts) into interpreter values,
 * and interpreter values back into plain data with a label for every path.
 */
import { type Label, isLabeled } from "../labels/index.js";
import { join2 } from "./rules.js";
import { charge, checkArrayLength } from "./state.js";
import { ARR, BOT, DATE, FN, OBJ, RE, type Val, elemLabel, isRef, newArr, newObj, ownKeys } from "./values.js";

/**
 * Builds interpreter values from host data. The outermost container carries `label`; a
 * `labeled(v, l)` part carries `l` on its slot, so reads join it with the containers above.
 */
export function toInternal(x: unknown, label: Label, seen: Set<unknown> = new Set()): { v: Val; l: Label } {
  if (isLabeled(x)) {
    const inner = toInternal(x.value, join2(label, x.label), seen);
    return { v: inner.v, l: join2(inner.l, x.label) };
  }
  if (x === null || x === undefined || typeof x === "boolean" || typeof x === "number" || typeof x === "string") return { v: x as Val, l: label };
  if (typeof x === "bigint") return { v: Number(x), l: label };
  if (x instanceof Date) return { v: { k: DATE, t: x.getTime(), label }, l: label };
  if (typeof x !== "object") return { v: undefined, l: label };
  if (seen.has(x)) throw new TypeError("a tool returned a circular structure");
  seen.add(x);
  try {
    if (Array.isArray(x)) {
      checkArrayLength(x.length);
      charge(16 * x.length + 32);
      const items: Val[] = [];
      const lbls: Label[] = [];
      for (const e of x) {
        // Nested containers carry their parents' label too, so a reference to one found
        // through any path is as labelled as the path.
        const part = toInternal(e, label, seen);
        items.push(part.v);
        lbls.push(part.l);
      }
      return { v: newArr(items, lbls.some((l) => l !== BOT) ? lbls : null, label), l: label };
    }
    const o = newObj(label);
    for (const [k, e] of Object.entries(x as Record<string, unknown>)) {
      const part = toInternal(e, label, seen);
      o.props.set(k, { v: part.v, l: part.l });
    }
    charge(48 * o.props.size + 64);
    return { v: o, l: label };
  } finally {
    seen.delete(x);
  }
}

/** One labelled leaf (or empty container) of a converted value. */
export interface LabelledPath {
  path: string;
  label: Label;
}

/**
 * Converts a value to plain data and lists the label of every path: a leaf's label joins its
 * own with every container's on the way to it.
 */
export function toPlain(v: Val, l: Label, path = "", out: LabelledPath[] = [], seen: Set<Val> = new Set()): unknown {
  if (!isRef(v)) {
    out.push({ path, label: l });
    return typeof v === "number" && !Number.isFinite(v) ? null : v;
  }
  if (seen.has(v)) {
    out.push({ path, label: l });
    return "[Circular]";
  }
  seen.add(v);
  try {
    const prefix = path === "" ? "" : `${path}.`;
    switch (v.k) {
      case ARR: {
        const base = join2(l, v.label);
        if (v.items.length === 0) out.push({ path, label: base });
        return v.items.map((x, i) => toPlain(x, join2(base, elemLabel(v, i)), `${prefix}${i}`, out, seen));
      }
      case OBJ: {
        const base = join2(l, v.label);
        const shaped = join2(base, v.shape);
        if (v.cls !== undefined) {
          out.push({ path, label: shaped });
          const msg = v.props.get("message");
          return { name: v.props.get("name")?.v ?? v.cls, message: msg?.v ?? "" };
        }
        // Which keys exist is part of what the value says.
        out.push({ path, label: shaped });
        const obj: Record<string, unknown> = {};
        for (const k of ownKeys(v)) {
          const slot = v.props.get(k)!;
          const plain = toPlain(slot.v, join2(base, slot.l), `${prefix}${k}`, out, seen);
          if (plain !== undefined) obj[k] = plain;
        }
        return obj;
      }
      case DATE:
        out.push({ path, label: join2(l, v.label) });
        return Number.isNaN(v.t) ? null : new Date(v.t).toISOString();
      case RE:
        out.push({ path, label: join2(l, v.label) });
        return `/${v.source}/${v.flags}`;
      case FN:
        out.push({ path, label: l });
        return undefined;
    }
  } finally {
    seen.delete(v);
  }
}
