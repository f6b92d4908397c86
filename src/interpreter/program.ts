/**
 * Compile a program once, run it many times. A run is synchronous; when it needs the host (a
 * tool call, a quarantined-model query) and the answer is not yet in its record, it stops with
 * the request, the host answers, and the run starts again from the top, replaying every
 * recorded answer. The language has no clock and a seeded Math.random, so a replay takes the
 * same path and no tool is called twice.
 */
import type * as acorn from "acorn";
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
import { builtinEffectNames, methodOf } from "./members.js";
import { setMethodLookup, join2, deepLabel, mayThrowOn } from "./rules.js";
import { toInternal, toPlain, type LabelledPath } from "./convert.js";
import { throwError } from "./errors.js";
import { Blocked, LimitExceeded, ProgramThrow, SecurityStop, type Mutants, type ResolvedLimits, resetState, st } from "./state.js";
import { BOT, FN, type Fn, type Val, toStr, describe, isRef, OBJ } from "./values.js";

setMethodLookup(methodOf);

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
 * The host's answer to a request, as recorded for replay. `failureLabel` on a value: what
 * decided that the call did not fail (a remote server, the network), which the label of its
 * error would have carried; for a tool, untrusted when not given (see {@link callHost}).
 */
export type HostOutcome =
  | { kind: "value"; value: unknown; label: Label; failureLabel?: Label }
  | { kind: "error"; cls: string; message: string; label: Label }
  | { kind: "blocked"; reason: string };

/** Thrown out of a run that needs the host; not catchable by the program. */
export class Suspend {
  /** Requests to answer, in order; more than one when `Promise.all` batched them. */
  constructor(readonly requests: HostRequest[]) {}
}

/**
 * `Promise.all` runs its tool calls together. While its argument is evaluated, a call missing
 * from the record is deferred (collected instead of suspending the run) only in *tail position*:
 * directly an element of the array literal Promise.all is given, or the returned expression of
 * the function literal passed to the builtin `.map` that is Promise.all's argument (see
 * compile/calls.ts). Its stand-in result then lands only in the array Promise.all owns, which
 * the run never returns while a call is pending: no other code sees a stand-in. Any other call
 * made while calls are pending sends them together with itself, in program order.
 */
export function batched<T>(evaluate: () => T): T {
  if (st.batch !== null) {
    // Nested: the inner array would be visible to the code around it, so it is never returned
    // with stand-ins in it.
    const out = evaluate();
    if (st.batch.length > 0) throw new Suspend(st.batch);
    return out;
  }
  st.batch = [];
  try {
    const out = evaluate();
    if (st.batch.length > 0) throw new Suspend(st.batch);
    return out;
  } catch (err) {
    // What was deferred came first in program order: it is made before whatever ended the evaluation.
    if (st.batch.length > 0 && !(err instanceof LimitExceeded) && !(err instanceof Suspend)) throw new Suspend(st.batch);
    throw err;
  } finally {
    st.batch = null;
  }
}

/** The result of one synchronous execution. */
export type Execution =
  | { kind: "completed"; value: unknown; label: Label; steps: number; logs: string[] }
  | { kind: "suspended"; requests: HostRequest[]; steps: number }
  | { kind: "threw"; message: string; label: Label; line?: number; column?: number; at: Label; steps: number; logs: string[] }
  | { kind: "limit"; message: string; steps: number; logs: string[] }
  | { kind: "blocked"; reason: string; steps: number; logs: string[] };

/** A compiled program. */
export interface CompiledProgram {
  /** Runs once against a record of host answers. */
  execute(record: HostOutcome[], limits: ResolvedLimits, mutants?: Mutants): Execution;
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
    const p = toPlain(a, argLs[i] ?? BOT, "", out);
    parts.push(out.map((x) => ({ path: x.path, label: join2(x.label, st.floor) })));
    return p;
  });
  const argLabels = args.map((a, i) => join2(join2(argLs[i] ?? BOT, deepLabel(a)), st.floor));
  const outcome = st.hostRecord[st.hostIndex];
  if (outcome === undefined) {
    const request = { name, args: plain, parts, argLabels, context };
    if (st.batch === null) throw new Suspend([request]);
    if (!deferrable) throw new Suspend([...st.batch, request]);
    st.batch.push(request);
    st.hostIndex++;
    // A stand-in: it lands only in the array Promise.all owns, which no code sees while it is pending.
    st.l = BOT;
    return undefined;
  }
  st.hostIndex++;
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
      return throwError(outcome.cls, outcome.message, join2(outcome.label, inputs));
    case "value": {
      const { v, l } = toInternal(outcome.value, st.mutants.toolResultUnlabeled ? BOT : st.mutants.readerAnswerUnlabeled && name === QUERY ? outcome.label : join2(outcome.label, inputs));
      st.l = l;
      return v;
    }
  }
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
    execute(record, limits, mutants = {}) {
      resetState(limits, mutants, record);
      try {
        body(newEnv(scope, null));
        const label = join2(join2(st.cvl, deepLabel(st.cv)), st.floor);
        return { kind: "completed", value: toPlain(st.cv, BOT), label, steps: st.steps, logs: st.logs };
      } catch (err) {
        return outcomeOf(err);
      } finally {
        st.hostRecord = [];
        st.batch = null;
      }
    },
  };
}

function outcomeOf(err: unknown): Execution {
  const base = { steps: st.steps, logs: st.logs };
  if (err instanceof Suspend) return { kind: "suspended", requests: err.requests, steps: st.steps };
  if (err instanceof ProgramThrow) {
    const message = describeThrown(err.value);
    return { kind: "threw", message, label: join2(join2(err.label, deepLabel(err.value)), st.floor), line: err.line, column: err.column, at: join2(join2(err.at, st.endL), st.floor), ...base };
  }
  if (err instanceof LimitExceeded) return { kind: "limit", message: err.message, ...base };
  if (err instanceof Blocked) return { kind: "blocked", reason: err.reason, ...base };
  // A stop's message may quote what chose (a label's sources): it carries that label.
  if (err instanceof SecurityStop) {
    // The stop is decided by labels, which runs share, at this pc.
    const label = join2(join2(err.label, st.pc), st.floor);
    return { kind: "threw", message: err.message, label, line: st.line, column: st.column, at: join2(join2(st.pc, st.endL), st.floor), ...base };
  }
  if (err instanceof RangeError) return { kind: "limit", message: "the program recursed too deeply for the host stack", ...base };
  throw err;
}

function describeThrown(v: Val): string {
  if (isRef(v) && v.k === OBJ && v.cls !== undefined) return toStr(v);
  if (typeof v === "string") return v;
  return `uncaught ${describe(v)}`;
}
