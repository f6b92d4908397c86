/**
 * Noninterference as a property: run the same program on two inputs that differ only in what
 * an attacker controls (or only in secrets), and check that the observed sinks saw the same
 * thing. Termination-insensitive: a run that stops (blocked, failed, out of a limit) must have
 * made a prefix of the other run's calls.
 *
 * What is compared, per run, is the *sink trace*: the observed calls a policy allowed, with
 * their arguments, and the observed calls made under a context clean of the varying part, with
 * their decision (an ask, a denial) but not their arguments. A person's approval is an
 * endorsement, so what an approved call carries may differ; but whether a person is asked at a
 * point the attacker cannot steer to must not (else the attacker decides which requests a
 * person sees, and an asked call that should have been asked in both runs hides a missing pc).
 * Asked calls under a tainted context are not compared: the attacker may decide whether they
 * happen, which is why they are asked.
 *
 * A run that crashes the interpreter (an internal error, not a stop) fails the check as well:
 * two runs that crash alike would agree at the sinks and hide the bug.
 *
 * With `feedback`, the privileged planner is a sink too: when both runs fail with the same kind
 * of error, what the planner would be told of each failure (failureTurn: the place, the failing
 * line, a message that passed its checks) must not differ. The kind itself, like whether a run
 * failed at all, is the termination channel (docs/security-model.md).
 */
import fc from "fast-check";
import { Label } from "../labels/index.js";
import { createRuntime, type ExtendedRuntimeOptions } from "../runtime/index.js";
import type { CallRecord, RunResult } from "../runtime/types.js";
import type { Tool } from "../tools/types.js";
import { failureTurn } from "../models/index.js";
import { errorPlace } from "../models/planner-feedback.js";

/** Which part of the label the two inputs differ in; decides which contexts count as clean. */
export type Varying = "untrusted" | "secret" | "both";

/** Options of {@link checkNoninterference}. */
export interface NoninterferenceOptions<I> {
  /** Programs to try. */
  programs: fc.Arbitrary<string>;
  /** Pairs of inputs that agree on everything the attacker does not control (or on everything public). */
  inputs: fc.Arbitrary<[I, I]>;
  /** The tools a run gets for one input. */
  tools: (input: I) => Tool<any, any>[];
  /** Sinks whose calls must not differ. */
  observe: readonly string[];
  /**
   * What differs between the inputs: "untrusted" (integrity), "secret" (confidentiality) or
   * "both" (the default, which compares fewer asked calls and is sound for either), or a
   * predicate saying which call contexts cannot depend on what differs.
   */
  varying?: Varying | ((context: Label) => boolean);
  /** Also compare asked and denied calls made under a clean context (default true). */
  compareAsks?: boolean;
  /**
   * What of an allowed call must not differ (default: all its arguments). A policy that lets
   * untrusted data into some argument on purpose compares only the others.
   */
  compare?: (call: CallRecord) => unknown;
  /** Other runtime options (quarantined, approve, limits, permissions, mutants). */
  runtime?: Omit<ExtendedRuntimeOptions, "tools">;
  /** Number of program/input pairs to try. Default 200. */
  numRuns?: number;
  /** fast-check seed, for reproducing a failure. */
  seed?: number;
  /** Also compare what the planner would be told of two failures of the same kind (default false; see the module comment). */
  feedback?: boolean;
  /** Let fast-check shrink a counterexample (default true). */
  shrink?: boolean;
  /** Then cut the program down line by line while it still fails (default true). */
  minimize?: boolean;
}

/** A counterexample: the program, the two inputs, and what each run let through. */
export interface Counterexample<I> {
  program: string;
  inputs: [I, I];
  /** Allowed calls on the observed sinks, as `tool(args)`. */
  allowed: [string[], string[]];
  /** The sink traces that disagree (see the module comment). */
  traces: [string[], string[]];
  statuses: [RunResult["status"], RunResult["status"]];
  /** Set when the counterexample is a crash of the interpreter rather than a leak. */
  crash?: string;
  /** With `feedback`: what the planner would be told of each run's failure. */
  feedback?: [string, string];
}

/** The outcome of {@link checkNoninterference}. */
export interface NoninterferenceReport<I> {
  failed: boolean;
  /** The smallest counterexample found. */
  counterexample?: Counterexample<I>;
  /** Pairs tried until the first counterexample (or in all). */
  runs: number;
  /** Milliseconds until the first counterexample (or in all). */
  ms: number;
  seed: number;
  /** Of the pairs tried, how many called an observed sink under an untrusted or secret context. */
  sinkUnderTaint: number;
  /** fast-check's own report. */
  message?: string;
}

/** The predicate for a {@link Varying}: contexts that cannot depend on what differs. */
export function cleanFor(varying: Varying | ((context: Label) => boolean)): (context: Label) => boolean {
  if (typeof varying === "function") return varying;
  if (varying === "untrusted") return (l) => l.trusted;
  if (varying === "secret") return (l) => l.isPublic;
  return (l) => l.trusted && l.isPublic;
}

/**
 * The calls a run made on the observed sinks that the policies let through without asking, as
 * `tool(args)` strings. Calls a person approved are theirs to vouch for and are not compared.
 */
export function allowedCalls(result: RunResult, observe: readonly string[]): string[] {
  return result.calls.filter((c: CallRecord) => observe.includes(c.tool) && c.decision === "allow").map((c) => `${c.tool}(${JSON.stringify(c.args)})`);
}

/** The sink trace of a run: allowed calls with their arguments, and clean-context asks and denials. */
export function sinkTrace(result: RunResult, observe: readonly string[], clean: (context: Label) => boolean, compareAsks = true, compare: (call: CallRecord) => unknown = (c) => c.args): string[] {
  const out: string[] = [];
  for (const c of result.calls) {
    if (!observe.includes(c.tool)) continue;
    if (c.decision === "allow") out.push(`${c.tool}(${JSON.stringify(compare(c)) ?? ""})`);
    else if (compareAsks && clean(c.context ?? Label.trusted())) out.push(`${c.tool}: ${c.decision}`);
  }
  return out;
}

function isPrefix(a: string[], b: string[]): boolean {
  return a.length <= b.length && a.every((x, i) => x === b[i]);
}

/** Termination-insensitive agreement of two traces, given how each run ended. */
export function tracesAgree(a: string[], aStatus: RunResult["status"], b: string[], bStatus: RunResult["status"]): boolean {
  if (aStatus === "completed" && bStatus === "completed") return a.length === b.length && isPrefix(a, b);
  if (aStatus === "completed") return isPrefix(b, a);
  if (bStatus === "completed") return isPrefix(a, b);
  return isPrefix(a, b) || isPrefix(b, a);
}

/** Termination-insensitive agreement of two runs' allowed calls. */
export function agree(a: RunResult, b: RunResult, observe: readonly string[]): boolean {
  return tracesAgree(allowedCalls(a, observe), a.status, allowedCalls(b, observe), b.status);
}

/** How to run and compare the two runs of a pair. */
export interface PairSetup<I> {
  tools: (input: I) => Tool<any, any>[];
  observe: readonly string[];
  runtime?: Omit<ExtendedRuntimeOptions, "tools">;
  clean: (context: Label) => boolean;
  compareAsks?: boolean;
  compare?: (call: CallRecord) => unknown;
  /** Also compare the planner's feedback on two failures of the same kind. */
  feedback?: boolean;
}

/** The two runs of one pair and whether they agree. */
export interface PairResult {
  ok: boolean;
  results: [RunResult, RunResult];
  traces: [string[], string[]];
  /** An observed sink was called under an untrusted or secret context. */
  underTaint: boolean;
  /** The interpreter's own error, when a run crashed rather than stopped. */
  crash?: string;
  /** With `feedback`: what the planner would be told of each run's failure ("" for a run that did not fail). */
  feedback?: [string, string];
}

/**
 * What the planner would be told of a run's failure, knowing its program and the tools
 * (agent.ts builds the same turn), or "" when the run did not fail.
 */
export function plannerFeedback(result: RunResult, program: string, tools: readonly Tool<any, any>[]): string {
  return result.error === undefined ? "" : failureTurn(result.error, { program, tools });
}

/** Two runs' feedback agrees unless both failed with the same kind of error and were told different things. */
function feedbackAgrees(results: [RunResult, RunResult], feedback: [string, string]): boolean {
  const [a, b] = results.map((r) => r.error);
  if (a === undefined || b === undefined || errorPlace(a).kind !== errorPlace(b).kind) return true;
  return feedback[0] === feedback[1];
}

/** The message of a run that ended in an internal error of the interpreter. */
function crashOf(r: RunResult): string | undefined {
  const m = r.error?.message;
  return m !== undefined && m.startsWith("internal error") ? m : undefined;
}

/** The instant both runs of a pair read as their clock. */
const PAIR_CLOCK = "2025-12-20T09:30:00Z";

/** Runs `program` on both inputs and compares their sink traces. */
export async function runPair<I>(program: string, inputs: [I, I], setup: PairSetup<I>): Promise<PairResult> {
  // The clock is a public input: the same instant in both runs, unless the setup names one.
  const tools = [setup.tools(inputs[0]), setup.tools(inputs[1])];
  const results: [RunResult, RunResult] = [
    await createRuntime({ now: PAIR_CLOCK, ...setup.runtime, tools: tools[0] }).run(program),
    await createRuntime({ now: PAIR_CLOCK, ...setup.runtime, tools: tools[1] }).run(program),
  ];
  const traces: [string[], string[]] = [
    sinkTrace(results[0], setup.observe, setup.clean, setup.compareAsks, setup.compare),
    sinkTrace(results[1], setup.observe, setup.clean, setup.compareAsks, setup.compare),
  ];
  const tainted = (r: RunResult) => r.calls.some((c) => setup.observe.includes(c.tool) && c.context !== undefined && (!c.context.trusted || !c.context.isPublic));
  const crash = crashOf(results[0]) ?? crashOf(results[1]);
  const feedback: [string, string] | undefined = setup.feedback === true ? [plannerFeedback(results[0], program, tools[0]), plannerFeedback(results[1], program, tools[1])] : undefined;
  const ok = crash === undefined && tracesAgree(traces[0], results[0].status, traces[1], results[1].status) && (feedback === undefined || feedbackAgrees(results, feedback));
  return { ok, results, traces, underTaint: tainted(results[0]) || tainted(results[1]), crash, ...(feedback !== undefined ? { feedback } : {}) };
}

/**
 * Cuts a failing program down: drops one line at a time, keeping each cut after which it still
 * fails, until no single line can go. Generated programs put one top-level statement per line.
 */
export async function minimizeLines(program: string, stillFails: (p: string) => Promise<boolean>, budget = 200): Promise<string> {
  let lines = program.split("\n");
  let tries = 0;
  for (let changed = true; changed && tries < budget; ) {
    changed = false;
    for (let i = lines.length - 1; i >= 0 && tries < budget; i--) {
      const cut = [...lines.slice(0, i), ...lines.slice(i + 1)];
      tries++;
      if (await stillFails(cut.join("\n"))) {
        lines = cut;
        changed = true;
      }
    }
  }
  return lines.join("\n");
}

function describePair<I>(program: string, inputs: [I, I], pair: PairResult, observe: readonly string[]): Counterexample<I> {
  return {
    program,
    inputs,
    allowed: [allowedCalls(pair.results[0], observe), allowedCalls(pair.results[1], observe)],
    traces: pair.traces,
    statuses: [pair.results[0].status, pair.results[1].status],
    ...(pair.crash !== undefined ? { crash: pair.crash } : {}),
    ...(pair.feedback !== undefined ? { feedback: pair.feedback } : {}),
  };
}

/**
 * Checks that no generated program lets the varying part of the input change what the
 * observed sinks saw. Returns a report; a failed report holds a small counterexample.
 */
export async function checkNoninterference<I>(options: NoninterferenceOptions<I>): Promise<NoninterferenceReport<I>> {
  const seed = options.seed ?? (Date.now() ^ 0x5eed);
  const setup: PairSetup<I> = { tools: options.tools, observe: options.observe, runtime: options.runtime, clean: cleanFor(options.varying ?? "both"), compareAsks: options.compareAsks ?? true, compare: options.compare, feedback: options.feedback };
  const started = Date.now();
  let runs = 0;
  let sinkUnderTaint = 0;
  let first: { runs: number; ms: number } | undefined;
  const property = fc.asyncProperty(options.programs, options.inputs, async (program, inputs) => {
    const pair = await runPair(program, inputs, setup);
    if (first === undefined) {
      runs++;
      if (pair.underTaint) sinkUnderTaint++;
      if (!pair.ok) first = { runs, ms: Date.now() - started };
    }
    return pair.ok;
  });
  const out = await fc.check(property, { numRuns: options.numRuns ?? 200, seed, endOnFailure: options.shrink === false });
  if (!out.failed || out.counterexample === null) {
    return { failed: out.failed, runs, ms: Date.now() - started, seed, sinkUnderTaint, message: out.failed ? fc.defaultReportMessage(out) : undefined };
  }
  const [shrunk, inputs] = out.counterexample;
  const fails = async (p: string) => !(await runPair(p, inputs, setup)).ok;
  const program = options.minimize === false ? shrunk : await minimizeLines(shrunk, fails);
  const pair = await runPair(program, inputs, setup);
  return {
    failed: true,
    counterexample: describePair(program, inputs, pair, options.observe),
    runs: first?.runs ?? runs,
    ms: first?.ms ?? Date.now() - started,
    seed,
    sinkUnderTaint,
    message: fc.defaultReportMessage(out),
  };
}
