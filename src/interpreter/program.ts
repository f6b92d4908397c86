/**
 * Compile a program once, run it many times. A run is synchronous and runs once from the top:
 * when it needs the host (a tool call, a quarantined-model query) it asks through the
 * {@link HostAnswerer} it was given, which blocks until the host answers (the runtime runs the
 * interpreter in a worker thread for that; see docs/execution.md). Without an answerer a run
 * reads a given record of answers and, past its end, stops with the request (`suspended`).
 * The clock is fixed for the run (`now`), and Math.random is seeded.
 */
import type * as acorn from "acorn";
import * as walk from "acorn-walk";
import { Label } from "../labels/index.js";
import { parseProgram } from "../language/parse.js";
import { checkProgram } from "../language/check.js";
import { ProgramError } from "../language/errors.js";
import { userMethodNames } from "../language/effects.js";
import { resolveScopes } from "../language/scopes.js";
import "./compile/statements.js";
import "./compile/loops.js";
import "./compile/expressions.js";
import "./compile/calls.js";
import { type Cx, type Stmt } from "./compile/context.js";
import { compileBody } from "./compile/statements.js";
import { TDZ } from "./compile/patterns.js";
import { hoist, newEnv, newScope } from "./compile/scope.js";
import { builtinGlobals } from "./builtins/globals.js";
import { builtinEffectNames, peekMember } from "./members.js";
import { setMemberLookup, join2, deepLabel, mayThrowOn, moved } from "./rules.js";
import { fromHostParts, toInternal, toPlain, type HostPart, type LabelledPath } from "./convert.js";
import { throwCallFailure, throwError } from "./errors.js";
import { Blocked, LimitExceeded, ProgramThrow, SecurityStop, type Mutants, type ResolvedLimits, charge, resetState, st } from "./state.js";
import { ARR, BOT, FN, type Arr, type Fn, type Val, toStr, describe, isRef, newObj, OBJ } from "./values.js";

setMemberLookup(peekMember);

/** A request to the host, made by a program calling a host function. */
export interface HostRequest {
  /** The host function's name: a tool or `query_ai_assistant`. */
  name: string;
  /** Arguments as plain data. */
  args: unknown[];
  /** Labels of every path of every argument (`"0.to"` is argument 0's `to`). */
  parts: LabelledPath[][];
  /** Joined label of each argument, contents included. */
  argLabels: Label[];
  /** The label of the control flow that led here, the floor included. */
  context: Label;
}

/**
 * The host's answer to a request. `failureLabel` on a value: what
 * decided that the call did not fail (a remote server, the network), which the label of its
 * error would have carried; for a tool, untrusted when not given (see {@link callHost}).
 * `parts` on a value: the value is plain data as `readHostParts` (convert.ts) reads it (the worker's
 * copy of it) and these are its `labeled(...)` parts; without it, the value may hold them itself.
 */
export type HostOutcome =
  | { kind: "value"; value: unknown; label: Label; failureLabel?: Label; parts?: readonly HostPart[] }
  | { kind: "error"; cls: string; message: string; label: Label; call?: CallFailureTag }
  | { kind: "blocked"; reason: string };

/**
 * Which tool's call failed, and how (sluice's fixed failure kind): the host sets it on a call
 * layer's failure so that, if the very error ends the run, the planner may be told the tool and
 * the kind (see RunError.failedCall).
 */
export interface CallFailureTag {
  tool: string;
  kind: string;
}

/** Thrown out of a run that needs the host and has no answerer; not catchable by the program. */
export class Suspend {
  /** Requests to answer, in order; more than one when `Promise.all` batched them. */
  constructor(readonly requests: HostRequest[]) {}
}

/**
 * Answers requests in program order, blocking until every one is answered. An answer list
 * shorter than the requests means the host stopped at a denial: the calls after it were not made.
 */
export type HostAnswerer = (requests: HostRequest[]) => HostOutcome[];

/**
 * A host call `Promise.all` deferred: its request, the stand-in its call returned, and its
 * answer once the host gave one. `done`: its answer was applied (or dropped with its batch).
 */
export interface Pending {
  request: HostRequest;
  standIn: Val;
  outcome?: HostOutcome;
  done: boolean;
}

/**
 * `Promise.all` runs its tool calls together. While its argument is evaluated, a host call is
 * deferred (its request collected, a stand-in returned) only in *tail position*: directly an
 * element of the array literal Promise.all is given, or the returned expression of the function
 * literal passed to the builtin `.map` that is Promise.all's argument (see compile/calls.ts).
 * Its stand-in then lands only in the array Promise.all owns, which no other code sees before
 * Promise.all returns it. Any other host call made while calls are pending sends them with
 * itself, in program order. When the argument is evaluated, the pending calls are sent as one
 * batch; the host decides them in program order and runs the allowed ones concurrently.
 *
 * Semantics (as JavaScript's own Promise.all over calls that all start): every deferred call
 * is made; then their answers are applied in program order, so the first that failed is what
 * Promise.all throws, with the labels a sequential call would give it; a denial ends the run.
 * A throw that ends the evaluation comes after the calls deferred before it: their failures,
 * in program order, are thrown first.
 */
export function batched<T extends { args: Val[] }>(evaluate: () => T): T {
  if (st.ask === null) return replayBatched(evaluate);
  const outer = st.batch;
  const mine = outer ?? [];
  const start = mine.length;
  st.batch = mine;
  try {
    let out: T;
    try {
      out = evaluate();
    } catch (err) {
      if (err instanceof LimitExceeded || err instanceof Blocked || err instanceof SecurityStop || err instanceof RangeError) throw err;
      // What was deferred before the throw came first in program order.
      flush();
      settle(mine, start, undefined);
      throw err;
    }
    // Outside the catch above: the first call that failed is the one thrown, not the last.
    flush();
    settle(mine, start, out.args[0]);
    return out;
  } finally {
    for (let i = start; i < mine.length; i++) mine[i].done = true;
    if (outer === null) st.batch = null;
  }
}

/** Sends every pending call that has no answer yet, in program order, and keeps the answers. */
function flush(also?: HostRequest): HostOutcome | undefined {
  const waiting = st.batch === null ? [] : st.batch.filter((p) => p.outcome === undefined && !p.done);
  if (waiting.length === 0 && also === undefined) return undefined;
  const requests = waiting.map((p) => p.request);
  if (also !== undefined) requests.push(also);
  const outcomes = ask(requests);
  waiting.forEach((p, i) => (p.outcome = outcomes[i] ?? NOT_MADE));
  const denied = outcomes.find((o) => o.kind === "blocked");
  if (denied !== undefined) throw new Blocked((denied as { reason: string }).reason);
  return also === undefined ? undefined : outcomes[requests.length - 1];
}

/** A call after a denial in the same batch: never made (the denial ends the run first). */
const NOT_MADE: HostOutcome = { kind: "blocked", reason: "an earlier call of the same batch was denied" };

/** Asks the host; the time spent waiting is not the interpreter's and does not count against its limit. */
function ask(requests: HostRequest[]): HostOutcome[] {
  const started = Date.now();
  const outcomes = st.ask!(requests);
  st.deadline += Date.now() - started;
  return outcomes;
}

/**
 * Applies the answers of this Promise.all's deferred calls in program order, each as the call
 * would have applied it, and puts each value where its stand-in is in `array` (the array
 * Promise.all was given). The first failure throws.
 */
function settle(batch: Pending[], start: number, array: Val | undefined): void {
  const at = new Map<Val, number>();
  if (array !== undefined && isRef(array) && array.k === ARR) array.items.forEach((v, i) => at.set(v, i));
  for (let i = start; i < batch.length; i++) {
    const p = batch[i];
    if (p.done) continue;
    p.done = true;
    const v = receive(p.request, p.outcome ?? NOT_MADE);
    if (array === undefined) continue;
    const index = at.get(p.standIn);
    if (index === undefined) throw new Error("internal error: a deferred call's result has no place in Promise.all's array");
    const arr = array as Arr;
    // Its element labels join the answer's, not the pc: the parts it was built from no longer decide a search (coarse).
    moved(arr);
    arr.items[index] = v;
    if (st.l !== BOT) {
      if (arr.lbls === null) arr.lbls = arr.items.map(() => BOT);
      arr.lbls[index] = join2(arr.lbls[index], st.l);
    }
  }
}

/** The replay form of {@link batched}, for runs that read a record: a batch ends the run with its requests. */
function replayBatched<T>(evaluate: () => T): T {
  if (st.batch !== null) {
    // Nested: the inner array would be visible to the code around it, so it is never returned
    // with stand-ins in it.
    const out = evaluate();
    if (st.batch.length > 0) throw new Suspend(st.batch.map((p) => p.request));
    return out;
  }
  st.batch = [];
  try {
    const out = evaluate();
    if (st.batch.length > 0) throw new Suspend(st.batch.map((p) => p.request));
    return out;
  } catch (err) {
    // What was deferred came first in program order: it is made before whatever ended the evaluation.
    if (st.batch.length > 0 && !(err instanceof LimitExceeded) && !(err instanceof Suspend)) throw new Suspend(st.batch.map((p) => p.request));
    throw err;
  } finally {
    st.batch = null;
  }
}

/** The result of one synchronous execution. */
export type Execution =
  | { kind: "completed"; value: unknown; label: Label; steps: number; logs: string[] }
  | { kind: "suspended"; requests: HostRequest[]; steps: number }
  | { kind: "threw"; message: string; label: Label; line?: number; column?: number; at: Label; call?: CallFailureTag & { at: Label }; steps: number; logs: string[] }
  | { kind: "limit"; message: string; steps: number; logs: string[] }
  | { kind: "blocked"; reason: string; steps: number; logs: string[] };

/** A compiled program. */
export interface CompiledProgram {
  /**
   * Runs the program once. Host calls read `record` first, then ask `answer`; with no answerer,
   * a call past the record's end stops the run (`suspended`). `now` is the run's clock in
   * milliseconds since the epoch (what `new Date()` and `Date.now()` give).
   */
  execute(record: HostOutcome[], limits: ResolvedLimits, mutants?: Mutants, answer?: HostAnswerer, now?: number): Execution;
  /** Whether the program names a host function at all (when not, it never asks the host). */
  readonly namesHost: boolean;
}

/** The quarantined model's host function. */
const QUERY = "query_ai_assistant";

/** Builds the function value a program calls for a host function. */
function hostFunction(name: string): Fn {
  return {
    k: FN,
    name,
    label: BOT,
    host: true,
    // A host call changes nothing the program can see but its answer (refinement `host`).
    builtin: Object.assign((args: Val[], argLs: Label[]) => callHost(name, args, argLs), { writes: "none", calls: false, refine: "host" } as const),
  };
}

function callHost(name: string, args: Val[], argLs: Label[]): Val {
  const deferrable = st.defer;
  st.defer = false;
  if (st.hostIndex >= st.limits.hostCalls) throw new LimitExceeded(`the program made more than ${st.limits.hostCalls} tool calls and queries`);
  const context = join2(st.pc, st.floor);
  const parts: LabelledPath[][] = [];
  const plain = args.map((a, i) => {
    const out: LabelledPath[] = [];
    // A tool's arguments cross in one fixed key order (convert.ts orderedKeys); the reader's schema keeps
    // the program's order (models answer in it), and its answer carries the schema's label, shape included.
    const p = toPlain(a, argLs[i] ?? BOT, "", out, new Set(), name !== QUERY);
    parts.push(out.map((x) => ({ path: x.path, label: join2(x.label, st.floor) })));
    return p;
  });
  // The host keeps a copy of the arguments for the run (its record): they are the run's memory.
  charge(plainBytes(plain));
  const argLabels = args.map((a, i) => join2(join2(argLs[i] ?? BOT, deepLabel(a)), st.floor));
  const request: HostRequest = { name, args: plain, parts, argLabels, context };
  const recorded = st.hostRecord[st.hostIndex];
  st.hostIndex++;
  if (recorded !== undefined) return receive(request, recorded);
  if (st.ask === null) {
    st.hostIndex--;
    if (st.batch === null) throw new Suspend([request]);
    if (!deferrable) throw new Suspend([...st.batch.map((p) => p.request), request]);
    st.batch.push({ request, standIn: undefined, done: false });
    st.hostIndex++;
    // A stand-in: it lands only in the array Promise.all owns, which no code sees while it is pending.
    st.l = BOT;
    return undefined;
  }
  if (st.batch !== null && deferrable) {
    // A stand-in of its own, so its answer finds its place in Promise.all's array.
    const standIn: Val = newObj();
    st.batch.push({ request, standIn, done: false });
    st.l = BOT;
    return standIn;
  }
  return receive(request, flush(request) ?? NOT_MADE);
}

/** Applies the host's answer to a call as the call's result: its value, its error or its denial. */
function receive(request: HostRequest, outcome: HostOutcome): Val {
  const { name, argLabels, context } = request;
  // What a call returns depends on its arguments and on the flow that made it.
  const inputs = argLabels.reduce(join2, context);
  // Rule: inside a try, whether a tool call failed was decided by the remote side (its server,
  // the network), whether it did or not: what follows in the try runs under the label its
  // failure would carry. A tool's failure is untrusted unless the host says otherwise; the
  // quarantined model's failures are decided by its inputs (already in the try's pc).
  if (st.tryDepth > 0 && outcome.kind !== "blocked") {
    const failure = outcome.kind === "error" ? outcome.label : (outcome.failureLabel ?? (name === QUERY ? BOT : Label.untrusted(name)));
    mayThrowOn(join2(failure, inputs));
  }
  switch (outcome.kind) {
    case "blocked":
      throw new Blocked(outcome.reason);
    case "error":
      if (outcome.call !== undefined) throwCallFailure(outcome.cls, outcome.message, outcome.label, inputs, outcome.call);
      return throwError(outcome.cls, outcome.message, join2(outcome.label, inputs));
    case "value": {
      const label = st.mutants.toolResultUnlabeled ? BOT : st.mutants.readerAnswerUnlabeled && name === QUERY ? outcome.label : join2(outcome.label, inputs);
      const { v, l } = outcome.parts === undefined ? toInternal(outcome.value, label) : fromHostParts(outcome.value, label, outcome.parts);
      st.l = l;
      return v;
    }
  }
}

/** About what a copy of plain data takes: two bytes a character, a few words a part. */
function plainBytes(x: unknown): number {
  let bytes = 0;
  const stack = [x];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") bytes += 2 * v.length + 16;
    else if (v !== null && typeof v === "object" && !(v instanceof Date)) {
      for (const [k, child] of Object.entries(v)) {
        bytes += 2 * k.length + 16;
        stack.push(child);
      }
    } else bytes += 8;
  }
  return bytes;
}

/** Whether any identifier of the program is one of `names`, whatever it resolves to (an overestimate). */
function mentions(ast: acorn.Program, names: readonly string[]): boolean {
  const wanted = new Set(names);
  let found = false;
  walk.full(ast, (n) => {
    if (n.type === "Identifier" && wanted.has((n as acorn.Identifier).name)) found = true;
  });
  return found;
}

/** Options of {@link compileProgram}. */
export interface CompileOptions {
  /** Names of host functions (tools and `query_ai_assistant`). */
  hostFunctions: readonly string[];
}

/** Parses, checks and compiles a program. Throws {@link ProgramError} for a bad program. */
export function compileProgram(source: string, options: CompileOptions): CompiledProgram {
  const ast = parseProgram(source);
  checkProgram(ast);
  const namesHost = mentions(ast, options.hostFunctions);
  const values = builtinGlobals();
  for (const name of options.hostFunctions) values.set(name, hostFunction(name));
  const scope = newScope(null, true);
  const resolution = resolveScopes(ast, new Set(values.keys()));
  const cx: Cx = { scope, fnScope: scope, globals: { values, effects: builtinEffectNames(values) }, inFunction: false, labels: [], userMethods: userMethodNames(ast), resolution };
  hoist(ast.body as acorn.Statement[], scope, scope);
  let body: Stmt;
  try {
    body = compileBody(ast.body as acorn.Statement[], cx);
  } catch (err) {
    if (err instanceof RangeError) throw new ProgramError("unsupported", "the program nests too deeply; split it into smaller functions", 1, 1);
    throw err;
  }
  return {
    namesHost,
    execute(record, limits, mutants = {}, answer, now = Date.now()) {
      resetState(limits, mutants, record, answer ?? null, now);
      try {
        body(newEnv(scope, null));
        const label = join2(join2(st.cvl, deepLabel(st.cv)), st.floor);
        return { kind: "completed", value: toPlain(st.cv, BOT), label, steps: st.steps, logs: st.logs };
      } catch (err) {
        return outcomeOf(err);
      } finally {
        st.hostRecord = [];
        st.batch = null;
        st.ask = null;
      }
    },
  };
}

function outcomeOf(err: unknown): Execution {
  const base = { steps: st.steps, logs: st.logs };
  if (err instanceof Suspend) return { kind: "suspended", requests: err.requests, steps: st.steps };
  if (err instanceof ProgramThrow) {
    const message = describeThrown(err.value);
    const at = join2(join2(err.at, st.endL), st.floor);
    // The failed call that threw this very error: what decided the place but for the failure itself.
    const call = err.call === undefined ? {} : { call: { tool: err.call.tool, kind: err.call.kind, at: join2(join2(err.call.reached, st.endL), st.floor) } };
    return { kind: "threw", message, label: join2(join2(err.label, deepLabel(err.value)), st.floor), line: err.line, column: err.column, at, ...call, ...base };
  }
  if (err instanceof LimitExceeded) return { kind: "limit", message: err.message, ...base };
  if (err instanceof Blocked) return { kind: "blocked", reason: err.reason, ...base };
  // A stop's message may quote what chose (a label's sources): it carries that label.
  if (err instanceof SecurityStop) {
    // The stop is decided by labels, which runs share, at the pc where it stopped.
    const label = join2(join2(err.label, err.at), st.floor);
    return { kind: "threw", message: err.message, label, line: err.line, column: err.column, at: join2(join2(err.at, st.endL), st.floor), ...base };
  }
  if (err instanceof RangeError) return { kind: "limit", message: "the program recursed too deeply for the host stack", ...base };
  throw err;
}

function describeThrown(v: Val): string {
  if (isRef(v) && v.k === OBJ && v.cls !== undefined) return toStr(v);
  if (typeof v === "string") return v;
  return `uncaught ${describe(v)}`;
}
