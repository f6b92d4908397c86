/**
 * `createRuntime`: compiles a program, runs it, and answers its host requests until it ends.
 * A run never throws for a bad program, a failing tool or an exhausted limit: every outcome
 * is a {@link RunResult}, and every tool call made is in its record.
 */
import { ProgramError } from "../language/errors.js";
import { type CompiledProgram, type HostOutcome, compileProgram } from "../interpreter/program.js";
import { DEFAULT_LIMITS, type Mutants, type ResolvedLimits } from "../interpreter/state.js";
import type { Tool } from "../tools/types.js";
import { type HostConfig, QUERY, answerAll, type RunLog } from "./host.js";
import type { Limits, RunResult, Runtime, RuntimeOptions } from "./types.js";
import type { EndorsementStore, Permissions } from "../policy/index.js";

export * from "./types.js";
export { QUERY, toolCallView } from "./host.js";

/** Options of a single run. */
export interface RunOptions {
  /**
   * An earlier attempt at the same task: side-effecting calls it made with the same tool and
   * arguments are not made again; their recorded results are reused.
   */
  previous?: RunResult;
}

/** More options than the contract names: a permission engine, endorsements, test-only mutants. */
export interface ExtendedRuntimeOptions extends RuntimeOptions {
  /** Rules over tools and targets; the strictest of these and each tool's policy decides. */
  permissions?: Permissions;
  /** Approved flows recorded as endorsements, so the same value does not ask again. */
  endorsements?: EndorsementStore;
  /** Planted label-rule bugs, for the mutant suite only. */
  mutants?: Mutants;
}

/** A runtime whose `run` also takes {@link RunOptions}. */
export interface SluiceRuntime extends Runtime {
  run(source: string, options?: RunOptions): Promise<RunResult>;
}

function resolveLimits(l: Limits | undefined): ResolvedLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const [k, v] of Object.entries(l ?? {})) {
    if (typeof v === "number" && v > 0 && k in out) (out as Record<string, number>)[k] = v;
  }
  return out;
}

function checkTools(tools: readonly Tool<any, any>[]): Map<string, Tool<any, any>> {
  const map = new Map<string, Tool<any, any>>();
  for (const t of tools) {
    if (t === null || typeof t !== "object" || typeof t.name !== "string" || typeof t.run !== "function") {
      throw new TypeError("createRuntime: every tool must come from defineTool(...)");
    }
    if (map.has(t.name)) throw new TypeError(`createRuntime: two tools are named ${t.name}`);
    if (t.name === QUERY) throw new TypeError(`createRuntime: ${QUERY} is reserved for the quarantined model`);
    map.set(t.name, t);
  }
  return map;
}

/** Creates a runtime that runs programs against the given tools. */
export function createRuntime(options: ExtendedRuntimeOptions = {}): SluiceRuntime {
  const tools = checkTools(options.tools ?? []);
  const limits = resolveLimits(options.limits);
  const config: HostConfig = { ...options };
  const hostNames = [...tools.keys(), QUERY];
  const cache = new Map<string, CompiledProgram>();

  const compile = (source: string): CompiledProgram => {
    const hit = cache.get(source);
    if (hit !== undefined) return hit;
    const program = compileProgram(source, { hostFunctions: hostNames });
    if (cache.size >= 64) cache.delete(cache.keys().next().value as string);
    cache.set(source, program);
    return program;
  };

  async function run(source: string, runOptions: RunOptions = {}): Promise<RunResult> {
    const log: RunLog = { calls: [], queries: [] };
    const base = { calls: log.calls, queries: log.queries };
    let program: CompiledProgram;
    try {
      program = compile(source);
    } catch (err) {
      if (err instanceof ProgramError) {
        return { status: "failed", error: { kind: err.kind, message: err.reason, line: err.line, column: err.column }, logs: [], steps: 0, ...base };
      }
      return { status: "failed", error: { kind: "syntax", message: `the program could not be compiled: ${String(err)}` }, logs: [], steps: 0, ...base };
    }
    const record: HostOutcome[] = [];
    // The time limit covers the interpreter's work over all replays, tool waits excluded, so
    // a program that calls tools in an endless loop still ends in time.
    let used = 0;
    for (;;) {
      let ex;
      const remaining = limits.timeMs - used;
      if (remaining <= 0) {
        return { status: "failed", error: { kind: "limit", message: `the program ran longer than ${limits.timeMs} ms` }, logs: [], steps: 0, ...base };
      }
      const started = Date.now();
      try {
        ex = program.execute(record, { ...limits, timeMs: remaining }, options.mutants);
      } catch (err) {
        return { status: "failed", error: { kind: "runtime", message: `internal error: ${String(err)}` }, logs: [], steps: 0, ...base };
      }
      used += Date.now() - started;
      switch (ex.kind) {
        case "suspended":
          record.push(...(await answerAll(ex.requests, tools, config, log, runOptions.previous)));
          continue;
        case "completed":
          return { status: "completed", value: ex.value, label: ex.label, logs: ex.logs, steps: ex.steps, ...base };
        case "threw":
          return { status: "failed", error: { kind: "runtime", message: ex.message, line: ex.line, column: ex.column, label: ex.label }, logs: ex.logs, steps: ex.steps, ...base };
        case "limit":
          return { status: "failed", error: { kind: "limit", message: ex.message }, logs: ex.logs, steps: ex.steps, ...base };
        case "blocked":
          return { status: "blocked", error: { kind: "policy", message: ex.reason }, logs: ex.logs, steps: ex.steps, ...base };
      }
    }
  }

  return { run, tools: [...tools.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}
