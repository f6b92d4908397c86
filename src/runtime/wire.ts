/**
 * What crosses between the main thread and the worker that runs a program: requests, answers
 * and results as plain data a MessagePort can carry. Labels cross as numbers: each side of a
 * run keeps a table, and a label goes over in full only the first time it is sent, so a run that
 * joins the same few labels over and over sends each once. A tool result's `labeled(...)` parts
 * cross as a list of paths beside the bare value (as the host read it, readHostParts), and the
 * worker builds the program's value from the two (fromHostParts). This file is the one place
 * that converts.
 */
import { Label } from "../labels/index.js";
import type { Execution, HostOutcome, HostRequest } from "../interpreter/program.js";
import { type LabelledPath, readHostParts } from "../interpreter/convert.js";

/** A label's parts, as sent the first time. */
export interface LabelDef {
  id: number;
  readers: "public" | readonly string[];
  trusted: boolean;
  sources: readonly string[];
}

/** The same text for labels with the same parts, and only for them (JSON keeps it unambiguous). */
function partsKey(trusted: boolean, readers: LabelDef["readers"], sources: readonly string[]): string {
  const head = trusted ? "t" : "u";
  // The usual label of a tool's result, public with one source, without JSON: after "*" the
  // general form goes on with "[", so "\u0001" cannot begin any other label's text.
  if (readers === "public" && sources.length === 1) return `${head}*\u0001${sources[0]}`;
  return `${head}${readers === "public" ? "*" : JSON.stringify(readers)}${JSON.stringify(sources)}`;
}

/** Numbers the labels one side sends, within one run. */
export class LabelWriter {
  private ids = new Map<Label, number>([[Label.BOTTOM, 0]]);
  // A tool's label function makes a new label per call, mostly with parts sent before: those
  // take the number already sent instead of a definition in every answer.
  private byParts = new Map<string, number>();
  private next = 1;
  private fresh: LabelDef[] = [];

  /**
   * The label's number; its definition goes with the next message when it is new. `shared`
   * (a result's own label, which a tool's label function makes anew each call) also looks for
   * one with the same parts; the labels of a result's labelled parts do not: they are many,
   * mostly different from one another, and the key would cost more than it saves.
   */
  id(l: Label, shared = false): number {
    const known = this.ids.get(l);
    if (known !== undefined) return known;
    if (!shared) return this.define(l);
    const key = partsKey(l.trusted, l.readers, l.sources);
    const same = this.byParts.get(key);
    if (same !== undefined) {
      this.ids.set(l, same);
      return same;
    }
    const id = this.define(l);
    this.byParts.set(key, id);
    return id;
  }

  private define(l: Label): number {
    const id = this.next++;
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

/**
 * Labels rebuilt so far on this thread, by their parts, across runs. A label is an immutable
 * value, so runs may share one; what they gain is its memo of joins (labels/label.ts): a run
 * that joins the same labels a run before it joined answers from the memo, as in-process runs
 * of one runtime always have. Emptied when it grows past {@link MAX_INTERNED}.
 */
const interned = new Map<string, Label>();
const MAX_INTERNED = 20_000;

function internLabel(d: LabelDef): Label {
  const key = partsKey(d.trusted, d.readers, d.sources);
  let l = interned.get(key);
  if (l === undefined) {
    if (interned.size >= MAX_INTERNED) interned.clear();
    l = Label.of({ readers: d.readers, trusted: d.trusted, sources: d.sources });
    interned.set(key, l);
  }
  return l;
}

/** Rebuilds the labels the other side numbered, within one run. */
export class LabelReader {
  private table: Label[] = [Label.BOTTOM];

  add(defs: readonly LabelDef[]): void {
    for (const d of defs) this.table[d.id] = internLabel(d);
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

/**
 * Where each `labeled(...)` part was in a value and its label, flat: for each part the number of
 * keys from the root, the keys, then the label's number. Primitives in one array clone several
 * times faster than an object and a list of keys per part (a result of 500 labelled emails).
 */
type LabelledAt = Array<string | number>;

function writeParts(parts: readonly { at: Array<string | number>; label: Label }[], w: LabelWriter): LabelledAt {
  const out: LabelledAt = [];
  for (const p of parts) {
    out.push(p.at.length);
    for (const key of p.at) out.push(key);
    out.push(w.id(p.label));
  }
  return out;
}

function readParts(flat: LabelledAt, rd: LabelReader): Array<{ at: Array<string | number>; label: Label }> {
  const parts: Array<{ at: Array<string | number>; label: Label }> = [];
  let i = 0;
  while (i < flat.length) {
    const n = flat[i++] as number;
    const at = flat.slice(i, i + n);
    i += n;
    parts.push({ at, label: rd.get(flat[i++] as number) });
  }
  return parts;
}

/** An answer as it crosses to the worker. */
export type WireOutcome =
  | { kind: "value"; value: unknown; labelled: LabelledAt; label: number; failureLabel?: number }
  | { kind: "error"; cls: string; message: string; label: number; call?: { tool: string; kind: string } }
  | { kind: "blocked"; reason: string };

export function writeOutcome(o: HostOutcome, w: LabelWriter): WireOutcome {
  switch (o.kind) {
    case "blocked":
      return o;
    case "error":
      return { kind: "error", cls: o.cls, message: o.message, label: w.id(o.label), ...(o.call === undefined ? {} : { call: { tool: o.call.tool, kind: o.call.kind } }) };
    case "value": {
      // The host reads every result with its parts listed; a value that still holds its parts is read here.
      const { value, parts } = o.parts === undefined ? readHostParts(o.value) : { value: o.value, parts: o.parts };
      const out: WireOutcome = { kind: "value", value, labelled: writeParts(parts, w), label: w.id(o.label, true) };
      if (o.failureLabel !== undefined) out.failureLabel = w.id(o.failureLabel, true);
      return out;
    }
  }
}

export function readOutcome(o: WireOutcome, rd: LabelReader): HostOutcome {
  switch (o.kind) {
    case "blocked":
      return o;
    case "error":
      return { kind: "error", cls: o.cls, message: o.message, label: rd.get(o.label), ...(o.call === undefined ? {} : { call: { tool: o.call.tool, kind: o.call.kind } }) };
    case "value": {
      const out: HostOutcome = { kind: "value", value: o.value, parts: readParts(o.labelled, rd), label: rd.get(o.label) };
      if (o.failureLabel !== undefined) out.failureLabel = rd.get(o.failureLabel);
      return out;
    }
  }
}

/** A run's end as it crosses from the worker. */
export type WireExecution =
  | { kind: "completed"; value: unknown; label: number; steps: number; logs: string[] }
  | { kind: "threw"; message: string; label: number; line?: number; column?: number; at: number; call?: { tool: string; kind: string; at: number }; steps: number; logs: string[] }
  | { kind: "limit"; message: string; steps: number; logs: string[] }
  | { kind: "blocked"; reason: string; steps: number; logs: string[] }
  | { kind: "suspended"; steps: number };

export function writeExecution(ex: Execution, w: LabelWriter): WireExecution {
  switch (ex.kind) {
    case "completed":
      return { ...ex, label: w.id(ex.label) };
    case "threw": {
      const { call, ...rest } = ex;
      return { ...rest, label: w.id(ex.label), at: w.id(ex.at), ...(call === undefined ? {} : { call: { tool: call.tool, kind: call.kind, at: w.id(call.at) } }) };
    }
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
    case "threw": {
      const { call, ...rest } = ex;
      return { ...rest, label: rd.get(ex.label), at: rd.get(ex.at), ...(call === undefined ? {} : { call: { tool: call.tool, kind: call.kind, at: rd.get(call.at) } }) };
    }
    case "suspended":
      return { kind: "suspended", requests: [], steps: ex.steps };
    default:
      return ex;
  }
}
