/**
 * `createRuntime`: compiles a program, runs it once in a worker thread (pool.ts), and answers
 * its host requests on this thread until it ends; a program that names no host function runs
 * here, with nothing to wait for (see docs/execution.md).
 * A run never throws for a bad program, a failing tool or an exhausted limit: every outcome
 * is a {@link RunResult}, and every tool call made is in its record.
 */
import { ProgramError } from "../language/errors.js";
import { type CompiledProgram, type Execution, compileProgram } from "../interpreter/program.js";
import { DEFAULT_LIMITS, type Mutants, type ResolvedLimits } from "../interpreter/state.js";
import { compileHostSchema, createProgramSchemas } from "../tools/schema.js";
import type { Tool } from "../tools/types.js";
import { type Host, type HostConfig, type HostTool, HostLimit, QUERY, answerAll, closeRun, openRun, type RunLog, thrownText } from "./host.js";
import { createAttemptBudget, createCallLayer, type AttemptLimits, type CallLayer, type CallObserver } from "../calls/index.js";
import { otelCallObserver } from "../tracing/index.js";
import type { Limits, RunError, RunResult, Runtime, RuntimeOptions } from "./types.js";
import type { EndorsementStore, Permissions } from "../policy/index.js";
import { type Stopped, runInWorker, strykerState } from "./pool.js";

export * from "./types.js";
export { QUERY, toolCallView } from "./host.js";
export { placeIsTrusted } from "./error-place.js";

/** Options of a single run. */
export interface RunOptions {
  /**
   * An earlier attempt at the same task: side-effecting calls it made are not made again (the
   * n-th call with a tool and arguments matches the n-th such call of `previous`, by its
   * idempotency key; a call that failed there is made again with the same key); their recorded results are reused, labelled as they were
   * the first time when `previous` came from this runtime, and untrusted when it did not (a
   * copy or another runtime's record keeps no `labeled(...)` parts).
   */
  previous?: RunResult;
  /**
   * The span this run's span goes under: a span handle from sluice's tracing (`createAgent`
   * passes its request's `invoke_agent` span, so the run is a `sluice.run` step of it). Without
   * one, the run's `invoke_agent` span goes under the active span, if any.
   */
  parent?: unknown;
}

/** More options than the contract names: a permission engine, endorsements, test-only mutants. */
export interface ExtendedRuntimeOptions extends RuntimeOptions {
  /** Rules over tools and targets; the strictest of these and each tool's policy decides. */
  permissions?: Permissions;
  /** Approved flows recorded as endorsements, so the same value does not ask again. */
  endorsements?: EndorsementStore;
  /** Planted label-rule bugs, for the mutant suite only. */
  mutants?: Mutants;
  /**
   * Run programs that name no tool and no query on this thread instead of a worker: faster for
   * tiny programs, but without the worker's heap cap and wall-clock stop (docs/execution.md).
   */
  inProcess?: boolean;
  /** A budget of tool attempts per run (retries counted, each attempt charged its `costPerAttempt`); a refused attempt ends the run as a limit. */
  budget?: AttemptLimits;
  /** Watches every tool call the layer runs. Default: OpenTelemetry spans and metrics, no-ops without an SDK. */
  observer?: CallObserver;
  /** Source of the retry jitter, uniform in [0, 1); seed it in simulations. Default Math.random. */
  random?: () => number;
  /**
   * Put a call's arguments on its `execute_tool` span as `gen_ai.tool.call.arguments` (the
   * conventions' opt-in attribute) when they and the call's context are trusted and public.
   * Off by default; results are never put on spans (docs/tool-calls.md, "What spans carry").
   */
  traceArguments?: boolean;
  /**
   * A call layer made with `createCallLayer`, instead of one built from `retry`, `breaker`,
   * `rateLimits`, `random` and `observer` (which must then be left out): share one between
   * runtimes, or with a planner (`anthropicPlanner({ layer })`), so they share buckets and breakers.
   */
  layer?: CallLayer;
}

/** A runtime whose `run` also takes {@link RunOptions}. */
export interface SluiceRuntime extends Runtime {
  run(source: string, options?: RunOptions): Promise<RunResult>;
}

function resolveLimits(l: Limits | undefined): ResolvedLimits {
  const out = { ...DEFAULT_LIMITS };
  if (l === undefined) return out;
  if (l === null || typeof l !== "object") throw new TypeError("createRuntime: limits must be an object such as { steps: 100000 }");
  for (const [k, v] of Object.entries(l)) {
    if (v === undefined) continue;
    if (!(k in out)) throw new TypeError(`createRuntime: limits.${k} is not a limit; the limits are ${Object.keys(out).join(", ")}`);
    if (typeof v !== "number" || !(v > 0)) throw new TypeError(`createRuntime: limits.${k} must be a positive number, got ${JSON.stringify(v) ?? String(v)}`);
    (out as Record<string, number>)[k] = v;
  }
  return out;
}

function checkTools(tools: readonly Tool<any, any>[]): Map<string, HostTool> {
  if (!Array.isArray(tools)) throw new TypeError("createRuntime: tools must be an array of tools from defineTool(...)");
  const map = new Map<string, HostTool>();
  for (const t of tools) {
    if (t === null || typeof t !== "object" || typeof t.name !== "string" || typeof t.run !== "function") {
      throw new TypeError("createRuntime: every tool must come from defineTool(...)");
    }
    if (map.has(t.name)) throw new TypeError(`createRuntime: two tools are named ${t.name}`);
    if (t.name === QUERY) throw new TypeError(`createRuntime: ${QUERY} is reserved for the quarantined model`);
    let parameters;
    try {
      parameters = compileHostSchema(t.parameters ?? { type: "object", properties: {} });
    } catch (err) {
      throw new TypeError(`createRuntime: the parameters schema of ${t.name} cannot be used: ${thrownText(err)}`);
    }
    map.set(t.name, { tool: t, parameters });
  }
  return map;
}

function checkOptions(options: ExtendedRuntimeOptions): void {
  if (options === null || typeof options !== "object") throw new TypeError("createRuntime: expected an options object");
  if (options.approve !== undefined && typeof options.approve !== "function") throw new TypeError("createRuntime: approve must be a function (request) => boolean");
  const wait = options.approvalTimeoutMs;
  if (wait !== undefined && !(typeof wait === "number" && wait > 0)) throw new TypeError(`createRuntime: approvalTimeoutMs must be a positive number of milliseconds (or Infinity), got ${JSON.stringify(wait) ?? String(wait)}`);
  const q = options.quarantined;
  if (q !== undefined && (q === null || typeof q !== "object" || typeof q.query !== "function")) {
    throw new TypeError("createRuntime: quarantined must be a model with a query({ prompt, schema }) method");
  }
}

/**
 * The instant of `createRuntime({ now })` in milliseconds since the epoch, or undefined when none
 * was given (each run then takes the real time when it starts). Throws a TypeError for a bad one.
 */
export function clockOf(now: unknown): number | undefined {
  if (now === undefined) return undefined;
  const t = now instanceof Date ? now.getTime() : typeof now === "string" ? Date.parse(now) : typeof now === "number" ? new Date(now).getTime() : NaN;
  if (Number.isNaN(t)) {
    const shown = now instanceof Date ? "an invalid Date" : (JSON.stringify(now) ?? String(now));
    throw new TypeError(`createRuntime: now must be a Date, an ISO 8601 string such as "2026-01-31T09:00:00Z" or milliseconds since the epoch, got ${shown}`);
  }
  return t;
}

/** Why `previous` cannot be used, or undefined when it can. */
/** What a run that ended on a failed call's own error says of it (see RunError.failedCall). */
function failedCallOf(ex: Extract<Execution, { kind: "threw" }>): { failedCall?: RunError["failedCall"] } {
  return ex.call === undefined ? {} : { failedCall: { tool: ex.call.tool, kind: ex.call.kind, label: ex.call.at } };
}

function badPrevious(previous: unknown): string | undefined {
  if (previous === undefined) return undefined;
  if (previous === null || typeof previous !== "object" || !Array.isArray((previous as RunResult).calls)) return "options.previous must be the RunResult of an earlier run";
  const calls = (previous as RunResult).calls;
  if (!calls.every((c) => c !== null && typeof c === "object")) return "options.previous.calls must hold the call records of an earlier run";
  return undefined;
}

/** `options.layer`, checked: it replaces the options a layer is built from, so those must be absent. */
function givenLayer(options: ExtendedRuntimeOptions): CallLayer {
  const layer = options.layer as CallLayer;
  if (layer === null || typeof layer !== "object" || typeof layer.executeCall !== "function") throw new TypeError("createRuntime: layer must come from createCallLayer(...)");
  const clash = (["retry", "breaker", "rateLimits", "random", "observer"] as const).filter((k) => options[k] !== undefined);
  if (clash.length > 0) throw new TypeError(`createRuntime: pass ${clash.join(", ")} to createCallLayer, not beside layer`);
  return layer;
}

/** Runtimes made so far: names each one's compiled programs in the workers' caches. */
let runtimes = 0;

/** Creates a runtime that runs programs against the given tools. */
export function createRuntime(options: ExtendedRuntimeOptions = {}): SluiceRuntime {
  checkOptions(options);
  const tools = checkTools(options.tools ?? []);
  const limits = resolveLimits(options.limits);
  const clock = clockOf(options.now);
  const config: HostConfig = { ...options };
  // Bad layer options throw here, as bad tools do; breakers and buckets outlive each run.
  const layer = options.layer !== undefined ? givenLayer(options) : createCallLayer({
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.breaker === undefined ? {} : { breaker: options.breaker }),
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.random === undefined ? {} : { random: options.random }),
    observer: options.observer ?? otelCallObserver(),
  });
  if (options.budget !== undefined) createAttemptBudget(options.budget);
  // Everything here belongs to this runtime alone: no schema a program writes reaches another.
  const host: Host = { tools, schemas: createProgramSchemas(), config, maxBytes: limits.memoryBytes, results: new WeakMap(), layer };
  const hostNames = [...tools.keys(), QUERY];
  const cache = new Map<string, CompiledProgram>();
  const runtimeId = ++runtimes;

  const compile = (source: string): CompiledProgram => {
    const hit = cache.get(source);
    if (hit !== undefined) return hit;
    const program = compileProgram(source, { hostFunctions: hostNames });
    if (cache.size >= 64) cache.delete(cache.keys().next().value as string);
    cache.set(source, program);
    return program;
  };

  async function run(source: string, runOptions: RunOptions = {}): Promise<RunResult> {
    const log = openRun(host, runOptions?.previous, runOptions?.parent);
    const previous = runOptions?.previous;
    // A previous run's effects are carried forward only from a record this run could read.
    const carried = previous !== undefined && badPrevious(previous) === undefined ? previous : undefined;
    return await closeRun(log, await runProgram(source, runOptions, log), carried, (name) => host.tools.get(name)?.tool.sideEffect === true);
  }

  async function runProgram(source: string, runOptions: RunOptions, log: RunLog): Promise<RunResult> {
    const base = { calls: log.calls, queries: log.queries };
    const previous = runOptions?.previous;
    const bad = badPrevious(previous);
    if (bad !== undefined) return { status: "failed", error: { kind: "runtime", message: `run: ${bad}` }, logs: [], steps: 0, ...base };
    let program: CompiledProgram;
    try {
      program = compile(source);
    } catch (err) {
      if (err instanceof ProgramError) {
        return { status: "failed", error: { kind: err.kind, message: err.reason, line: err.line, column: err.column }, logs: [], steps: 0, ...base };
      }
      return { status: "failed", error: { kind: "syntax", message: `the program could not be compiled: ${String(err)}` }, logs: [], steps: 0, ...base };
    }
    // One instant for the whole run.
    const now = clock ?? Date.now();
    let ex: Execution | Stopped;
    try {
      ex = program.namesHost || !options.inProcess ? { kind: "suspended", requests: [], steps: 0 } : program.execute([], limits, options.mutants, undefined, now);
      if (ex.kind === "suspended") {
        // Runs once, from the top, in a worker that blocks on each host call.
        const job = { runtime: runtimeId, source, hostFunctions: hostNames, limits, mutants: options.mutants ?? {}, stryker: strykerState(), now };
        ex = await runInWorker(job, (requests) => answerAll(requests, host, log, previous));
      }
    } catch (err) {
      return { status: "failed", error: { kind: "runtime", message: `internal error: ${thrownText(err)}` }, logs: [], steps: 0, ...base };
    }
    switch (ex.kind) {
      case "stopped":
        return { status: "failed", error: ex.error, logs: [], steps: 0, ...base };
      case "suspended":
        return { status: "failed", error: { kind: "runtime", message: "internal error: the run stopped waiting for the host" }, logs: [], steps: ex.steps, ...base };
      case "completed":
        return { status: "completed", value: ex.value, label: ex.label, logs: ex.logs, steps: ex.steps, ...base };
      case "threw":
        return { status: "failed", error: { kind: "runtime", message: ex.message, line: ex.line, column: ex.column, label: ex.label, placeLabel: ex.at, ...failedCallOf(ex) }, logs: ex.logs, steps: ex.steps, ...base };
      case "limit":
        return { status: "failed", error: { kind: "limit", message: ex.message }, logs: ex.logs, steps: ex.steps, ...base };
      case "blocked":
        return { status: "blocked", error: { kind: "policy", message: ex.reason }, logs: ex.logs, steps: ex.steps, ...base };
    }
  }

  const sorted = [...tools.values()].map((t) => t.tool).sort((a, b) => a.name.localeCompare(b.name));
  return options.now === undefined ? { run, tools: sorted } : { run, tools: sorted, now: options.now };
}
