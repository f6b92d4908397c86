/**
 * Noninterference as a property: run the same program on two inputs that differ only in what
 * an attacker controls (or in secrets), and check that the calls the policies allowed on the
 * observed sinks are the same. Termination-insensitive: a run that stops (blocked, failed, out
 * of a limit) must have made a prefix of the other run's calls.
 */
import fc from "fast-check";
import { createRuntime, type ExtendedRuntimeOptions } from "../runtime/index.js";
import type { CallRecord, RunResult } from "../runtime/types.js";
import type { Tool } from "../tools/types.js";

/** Options of {@link checkNoninterference}. */
export interface NoninterferenceOptions<I> {
  /** Programs to try. */
  programs: fc.Arbitrary<string>;
  /** Pairs of inputs that agree on everything the attacker does not control (or on everything public). */
  inputs: fc.Arbitrary<[I, I]>;
  /** The tools a run gets for one input. */
  tools: (input: I) => Tool<any, any>[];
  /** Sinks whose allowed calls must not differ. */
  observe: readonly string[];
  /** Other runtime options (limits, approve, permissions, mutants). */
  runtime?: Omit<ExtendedRuntimeOptions, "tools">;
  /** Number of program/input pairs to try. Default 200. */
  numRuns?: number;
  /** fast-check seed, for reproducing a failure. */
  seed?: number;
}

/** A counterexample: the program, the two inputs, and what each run let through. */
export interface Counterexample<I> {
  program: string;
  inputs: [I, I];
  allowed: [string[], string[]];
  statuses: [RunResult["status"], RunResult["status"]];
}

/** The outcome of {@link checkNoninterference}. */
export interface NoninterferenceReport<I> {
  failed: boolean;
  /** The smallest counterexample fast-check found. */
  counterexample?: Counterexample<I>;
  /** Pairs tried until the first counterexample (or in all). */
  runs: number;
  seed: number;
  /** Of the runs tried, how many called an observed sink under an untrusted or secret context. */
  sinkUnderTaint: number;
  /** fast-check's own report, with the shrunk counterexample. */
  message?: string;
}

/**
 * The calls a run made on the observed sinks that the policies let through without asking, as
 * `tool(args)` strings. Calls a person approved are theirs to vouch for and are not compared.
 */
export function allowedCalls(result: RunResult, observe: readonly string[]): string[] {
  return result.calls
    .filter((c: CallRecord) => observe.includes(c.tool) && c.decision === "allow")
    .map((c) => `${c.tool}(${JSON.stringify(c.args)})`);
}

function isPrefix(a: string[], b: string[]): boolean {
  return a.length <= b.length && a.every((x, i) => x === b[i]);
}

/** Termination-insensitive agreement of two runs' allowed calls. */
export function agree(a: RunResult, b: RunResult, observe: readonly string[]): boolean {
  const ca = allowedCalls(a, observe);
  const cb = allowedCalls(b, observe);
  if (a.status === "completed" && b.status === "completed") return ca.length === cb.length && isPrefix(ca, cb);
  if (a.status === "completed") return isPrefix(cb, ca);
  if (b.status === "completed") return isPrefix(ca, cb);
  return isPrefix(ca, cb) || isPrefix(cb, ca);
}

/**
 * Checks that no generated program lets the varying part of the input change what the
 * observed sinks were allowed to do.
 */
export async function checkNoninterference<I>(options: NoninterferenceOptions<I>): Promise<NoninterferenceReport<I>> {
  const seed = options.seed ?? Date.now() ^ 0x5eed;
  let runs = 0;
  let sinkUnderTaint = 0;
  let last: Counterexample<I> | undefined;
  const property = fc.asyncProperty(options.programs, options.inputs, async (program, inputs) => {
    runs++;
    const results = await Promise.all(inputs.map((input) => createRuntime({ ...options.runtime, tools: options.tools(input) }).run(program)));
    if (results.some((r) => r.calls.some((c) => options.observe.includes(c.tool) && (!c.context?.trusted || !c.context?.isPublic)))) sinkUnderTaint++;
    const ok = agree(results[0], results[1], options.observe);
    if (!ok) {
      last = {
        program,
        inputs,
        allowed: [allowedCalls(results[0], options.observe), allowedCalls(results[1], options.observe)],
        statuses: [results[0].status, results[1].status],
      };
    }
    return ok;
  });
  const out = await fc.check(property, { numRuns: options.numRuns ?? 200, seed, endOnFailure: false });
  if (out.failed && out.counterexample) {
    const [program, inputs] = out.counterexample;
    const results = await Promise.all(inputs.map((input) => createRuntime({ ...options.runtime, tools: options.tools(input) }).run(program)));
    last = {
      program,
      inputs,
      allowed: [allowedCalls(results[0], options.observe), allowedCalls(results[1], options.observe)],
      statuses: [results[0].status, results[1].status],
    };
  }
  return {
    failed: out.failed,
    counterexample: out.failed ? last : undefined,
    runs: out.failed ? out.numRuns : runs,
    seed,
    sinkUnderTaint,
    message: out.failed ? fc.defaultReportMessage(out) : undefined,
  };
}
