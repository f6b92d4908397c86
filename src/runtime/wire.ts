/**
 * What crosses between the main thread and the worker that runs a program: requests, answers
 * and results as plain data a MessagePort can carry. Labels cross as numbers: each side of a
 * run keeps a table, and a label goes over in full only the first time it is sent, so a run that
 * joins the same few labels over and over sends each once. A tool result's `labeled(...)` parts
 * cross as a list of paths beside the bare value. This file is the one place that converts.
 */
import { Label, isLabeled, labeled } from "../labels/index.js";
import type { Execution, HostOutcome, HostRequest } from "../interpreter/program.js";
import type { LabelledPath } from "../interpreter/convert.js";

/** A label's parts, as sent the first time. */
export interface LabelDef {
  id: number;
  readers: "public" | readonly string[];
  trusted: boolean;
  sources: readonly string[];
}

/** Numbers the labels one side sends, within one run. */
export class LabelWriter {
  private ids = new Map<Label, number>([[Label.BOTTOM, 0]]);
  private fresh: LabelDef[] = [];

  /** The label's number; its definition goes with the next message when it is new. */
  id(l: Label): number {
    const known = this.ids.get(l);
    if (known !== undefined) return known;
    const id = this.ids.size;
    this.ids.set(l, id);
    this.fresh.push({ id, readers: l.readers, trusted: l.trusted, sources: l.sources });
    return id;
  }

  /** The definitions made since the last call, for the message being sent. */
  take(): LabelDef[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}

/** Rebuilds the labels the other side numbered, within one run. */
export class LabelReader {
  private table: Label[] = [Label.BOTTOM];

  add(defs: readonly LabelDef[]): void {
    for (const d of defs) this.table[d.id] = Label.of({ readers: d.readers, trusted: d.trusted, sources: d.sources });
  }

  get(id: number): Label {
    const l = this.table[id];
    if (l === undefined) throw new Error(`internal error: label ${id} was never sent`);
    return l;
  }
}

/** A request as it crosses from the worker. */
export interface WireRequest {
  name: string;
  args: unknown[];
  parts: Array<Array<{ path: string; label: number }>>;
  argLabels: number[];
  context: number;
}

export function writeRequest(r: HostRequest, w: LabelWriter): WireRequest {
  return {
    name: r.name,
    args: r.args,
    parts: r.parts.map((ps) => ps.map((p) => ({ path: p.path, label: w.id(p.label) }))),
    argLabels: r.argLabels.map((l) => w.id(l)),
    context: w.id(r.context),
  };
}

export function readRequest(r: WireRequest, rd: LabelReader): HostRequest {
  return {
    name: r.name,
    args: r.args,
    parts: r.parts.map((ps) => ps.map((p): LabelledPath => ({ path: p.path, label: rd.get(p.label) }))),
    argLabels: r.argLabels.map((l) => rd.get(l)),
    context: rd.get(r.context),
  };
}

/** Where a `labeled(...)` part was in a value (keys from the root), and its label. */
interface LabelledAt {
  at: Array<string | number>;
  label: number;
}

/** An answer as it crosses to the worker. */
export type WireOutcome =
  | { kind: "value"; value: unknown; labelled: LabelledAt[]; label: number; failureLabel?: number }
  | { kind: "error"; cls: string; message: string; label: number }
  | { kind: "blocked"; reason: string };

export function writeOutcome(o: HostOutcome, w: LabelWriter): WireOutcome {
  switch (o.kind) {
    case "blocked":
      return o;
    case "error":
      return { kind: "error", cls: o.cls, message: o.message, label: w.id(o.label) };
    case "value": {
      const labelled: LabelledAt[] = [];
      const value = unwrapLabelled(o.value, [], labelled, w);
      const out: WireOutcome = { kind: "value", value, labelled, label: w.id(o.label) };
      if (o.failureLabel !== undefined) out.failureLabel = w.id(o.failureLabel);
      return out;
    }
  }
}

export function readOutcome(o: WireOutcome, rd: LabelReader): HostOutcome {
  switch (o.kind) {
    case "blocked":
      return o;
    case "error":
      return { kind: "error", cls: o.cls, message: o.message, label: rd.get(o.label) };
    case "value": {
      let value = o.value;
      // Innermost first: wrapping a part replaces it in its parent, so its own parts go before it.
      for (let i = o.labelled.length - 1; i >= 0; i--) value = wrapAt(value, o.labelled[i], rd);
      const out: HostOutcome = { kind: "value", value, label: rd.get(o.label) };
      if (o.failureLabel !== undefined) out.failureLabel = rd.get(o.failureLabel);
      return out;
    }
  }
}

/**
 * The value with each `labeled(v, l)` replaced by `v`, listing where each was, outermost
 * first. Host data (readHostData) is a tree of plain arrays, objects and dates.
 */
function unwrapLabelled(x: unknown, at: Array<string | number>, out: LabelledAt[], w: LabelWriter): unknown {
  if (x === null || typeof x !== "object" || x instanceof Date) return x;
  if (isLabeled(x)) {
    out.push({ at: [...at], label: w.id(x.label) });
    return unwrapLabelled(x.value, at, out, w);
  }
  if (Array.isArray(x)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < x.length; i++) {
      at.push(i);
      const v = unwrapLabelled(x[i], at, out, w);
      at.pop();
      if (v !== x[i]) (copy ??= x.slice())[i] = v;
    }
    return copy ?? x;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [k, item] of Object.entries(x)) {
    at.push(k);
    const v = unwrapLabelled(item, at, out, w);
    at.pop();
    if (v !== item) {
      copy ??= copyObject(x as Record<string, unknown>);
      Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
  }
  return copy ?? x;
}

function copyObject(x: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

function wrapAt(root: unknown, part: LabelledAt, rd: LabelReader): unknown {
  const label = rd.get(part.label);
  if (part.at.length === 0) return labeled(root, label);
  let parent = root as Record<string | number, unknown>;
  for (let i = 0; i < part.at.length - 1; i++) parent = parent[part.at[i]] as Record<string | number, unknown>;
  const key = part.at[part.at.length - 1];
  Object.defineProperty(parent, key, { value: labeled(parent[key], label), enumerable: true, writable: true, configurable: true });
  return root;
}

/** A run's end as it crosses from the worker. */
export type WireExecution =
  | { kind: "completed"; value: unknown; label: number; steps: number; logs: string[] }
  | { kind: "threw"; message: string; label: number; line?: number; column?: number; at: number; steps: number; logs: string[] }
  | { kind: "limit"; message: string; steps: number; logs: string[] }
  | { kind: "blocked"; reason: string; steps: number; logs: string[] }
  | { kind: "suspended"; steps: number };

export function writeExecution(ex: Execution, w: LabelWriter): WireExecution {
  switch (ex.kind) {
    case "completed":
      return { ...ex, label: w.id(ex.label) };
    case "threw":
      return { ...ex, label: w.id(ex.label), at: w.id(ex.at) };
    case "suspended":
      return { kind: "suspended", steps: ex.steps };
    default:
      return ex;
  }
}

/** The run's end; a `suspended` one (never made by a run that has an answerer) has no requests. */
export function readExecution(ex: WireExecution, rd: LabelReader): Execution {
  switch (ex.kind) {
    case "completed":
      return { ...ex, label: rd.get(ex.label) };
    case "threw":
      return { ...ex, label: rd.get(ex.label), at: rd.get(ex.at) };
    case "suspended":
      return { kind: "suspended", requests: [], steps: ex.steps };
    default:
      return ex;
  }
}
