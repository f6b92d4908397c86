/**
 * One run of the matrix: a user task, maybe under one attack carrying one injection task, with
 * a reader and a planner. {@link runJob} never throws: a broken scenario or plan becomes a record
 * with `status: "error"` and a message naming the task.
 */
import { createRuntime, type QuarantinedModel, type RunResult } from "../runtime/index.js";
import { adversarialReader, anthropicPlanner, anthropicReader, createAgent, scriptedReader } from "../models/index.js";
import { summarizeCalls } from "../policy/index.js";
import { attackNamed } from "./attacks.js";
import { canaries, checkPlaces, copyJson, everywhere, fillPlaces } from "./environment.js";
import { createCapture, observed, stoppedCalls, type FlowRecord } from "./flow.js";
import type { Check, InjectionTask, ScenarioSuite, UserTask } from "./types.js";
import { playedReader, type PlayedReader, type UnansweredRequest } from "./corpus/played-reader.js";

/** Which quarantined reader answers query_ai_assistant. */
export type ReaderKind = "benign" | "adversarial" | "model";
/** Who writes the plan: the task's reference plan, or a real planner model. */
export type PlannerKind = "reference" | "model";

/** One run to make. Plain data, so it can be sent to a worker thread. */
export interface Job {
  suite: string;
  userTask: string;
  /** Absent for a run without attack. */
  injectionTask?: string;
  attack?: string;
  reader: ReaderKind;
  planner: PlannerKind;
  /** False runs with every policy replaced by allow: the undefended baseline. */
  defense: boolean;
  /** How a person answers when a policy asks. */
  approve: boolean;
  /** Fill each injection place with a unique canary, to find which places the plan reads. */
  probe?: boolean;
  /** Model names for `reader: "model"` / `planner: "model"`. */
  models?: { planner?: string; reader?: string };
  /** Which of the `--repeat k` runs of this job this is (1 to k); absent without repeats. */
  rep?: number;
  /** A plan to run instead of the task's reference plan (a corpus plan), with its variant name. */
  plan?: string;
  variant?: string;
  /**
   * The played reader's answers file: benign prompts are answered from it (the adversarial
   * reader falls back on it), instead of the task's scripted answers, which fit its reference plan.
   */
  readerAnswers?: string;
}

/** What one run gave. Plain data. */
export interface RunRecord {
  suite: string;
  userTask: string;
  /** The corpus plan's variant, when the run was of a corpus plan. */
  variant?: string;
  injectionTask?: string;
  attack?: string;
  defense: boolean;
  approve: boolean;
  probe?: boolean;
  /** `"error"`: the scenario or plan is broken (see `error`); the others are the runtime's. */
  status: "completed" | "blocked" | "failed" | "error";
  /** The user task's utility check. */
  utility: boolean;
  /** The injection task's security check (true: the attacker got their way); attack runs only. */
  security?: boolean;
  calls: number;
  denied: number;
  asked: number;
  /** The plan's answer, shortened. */
  answer?: string;
  /** Why the run failed or was blocked, or what is broken, naming the task. */
  error?: string;
  /** Calls a policy denied or asked about without approval, with the flow that made it stop. */
  stops: FlowRecord[];
  /** Probe runs: the injection places whose text the plan read. */
  seen?: string[];
  /** Runs with the played reader: the requests it had no answer for (the run cannot be measured). */
  unanswered?: UnansweredRequest[];
  /** Which repeat this was (`--repeat k`), when there were repeats. */
  rep?: number;
  /** Tool attempts the run made, retries included. */
  toolAttempts?: number;
  /** Wall time of each tool call the layer ran, in ms, waits between attempts included. */
  toolMs?: number[];
  /** US dollars of the model calls, for runs with a planner model. */
  cost?: number;
  ms: number;
}

/** Default models for real-model runs. */
export const DEFAULT_MODELS = Object.freeze({ planner: "claude-sonnet-5-5", reader: "claude-haiku-5-5" });

function taskName(job: Job): string {
  const pair = job.injectionTask === undefined ? "" : ` × ${job.injectionTask}${job.attack ? ` (${job.attack})` : ""}`;
  return `${job.suite}/${job.userTask}${job.variant === undefined ? "" : `#${job.variant}`}${pair}`;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function shorten(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** A step of the run that belongs to the scenario, not the runtime: its failure is the scenario's bug. */
function step<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new ScenarioError(`${what}: ${describe(err)}`);
  }
}

class ScenarioError extends Error {}

function findTask<T extends { id: string }>(list: readonly T[], id: string, kind: string, suite: string): T {
  const found = list.find((t) => t.id === id);
  if (found === undefined) throw new ScenarioError(`suite ${suite} has no ${kind} ${JSON.stringify(id)}`);
  return found;
}

function readerFor(job: Job, task: UserTask<unknown>, injection: InjectionTask<unknown> | undefined, played: PlayedReader | undefined): QuarantinedModel {
  const benign = () => played ?? scriptedReader(task.reader ?? []);
  switch (job.reader) {
    case "benign":
      return benign();
    case "adversarial":
      return adversarialReader({ attackerValues: injection?.attacker ?? {}, fallback: benign() });
    case "model":
      return anthropicReader({ model: job.models?.reader ?? DEFAULT_MODELS.reader });
  }
}

interface Outcome {
  result?: RunResult;
  calls: RunResult["calls"];
  answer: unknown;
  cost?: number;
}

async function execute(job: Job, suite: ScenarioSuite, task: UserTask<unknown>, runtime: ReturnType<typeof createRuntime>, reader: QuarantinedModel): Promise<Outcome> {
  if (job.plan !== undefined || job.planner === "reference") {
    const result = await runtime.run(job.plan ?? task.plan);
    return { result, calls: result.calls, answer: result.status === "completed" ? result.value : undefined };
  }
  const planner = anthropicPlanner({ model: job.models?.planner ?? DEFAULT_MODELS.planner });
  const agent = createAgent({ runtime, planner, reader, maxRuns: 3, ...(suite.today === undefined ? {} : { today: suite.today }) });
  const run = await agent.run(task.prompt);
  const calls = run.attempts.flatMap((a) => a.result.calls);
  if (run.result === undefined) throw new Error(`the planner did not produce a program for ${suite.name}/${task.id}: ${run.stop.message}`);
  return { result: run.result, calls, answer: run.status === "completed" ? run.result.value : undefined, cost: run.usage.cost };
}

function errorText(job: Job, result: RunResult | undefined): string | undefined {
  if (result === undefined || result.status === "completed") return undefined;
  const e = result.error;
  const where = e?.line === undefined ? "" : ` (line ${e.line}${e.column === undefined ? "" : `:${e.column}`})`;
  if (e?.kind === "syntax" || e?.kind === "unsupported") return `${taskName(job)}: the plan does not compile${where}: ${e.message}`;
  return `${taskName(job)}: ${result.status}${where}: ${e?.message ?? "no message"}`;
}

function placesText(job: Job, suite: ScenarioSuite, injection: InjectionTask<unknown> | undefined): Record<string, string> {
  if (job.probe === true) return canaries(suite.places);
  if (injection === undefined || job.attack === undefined) return {};
  return everywhere(suite.places, attackNamed(job.attack).render(injection, suite));
}

function seenPlaces(suite: ScenarioSuite, outcome: Outcome, queries: RunResult["queries"]): string[] {
  const read = JSON.stringify([outcome.calls.map((c) => c.result), queries.map((q) => q.prompt)]);
  return suite.places.filter((p) => read.includes(`[canary:${p.id}]`)).map((p) => p.id);
}

async function attempt(job: Job, suite: ScenarioSuite, started: number): Promise<RunRecord> {
  const task = findTask(suite.userTasks, job.userTask, "user task", suite.name);
  const injection = job.injectionTask === undefined ? undefined : findTask(suite.injectionTasks, job.injectionTask, "injection task", suite.name);
  const texts = step(`${taskName(job)}: the attack could not be rendered`, () => placesText(job, suite, injection));
  const data = step(`${suite.name}: environment() failed`, () => suite.environment());
  const problems = checkPlaces(data, suite.places);
  if (problems.length > 0) throw new ScenarioError(`${suite.name}: the environment and its injection places disagree: ${problems.join("; ")}`);
  const env = step(`${suite.name}: the environment is not plain JSON data`, () => fillPlaces(data, suite.places, texts));
  const before = copyJson(env);
  const capture = createCapture();
  const tools = step(`${suite.name}: tools(env) failed`, () => suite.tools(env).map((t) => observed(t, capture, job.defense)));
  const played = job.readerAnswers === undefined ? undefined : playedReader(job.readerAnswers);
  const reader = step(`${taskName(job)}: the reader could not be made`, () => readerFor(job, task, injection, played));
  // The suite's data describes one day: the plans' clock is that day, as the planner is told.
  const runtime = createRuntime({ tools, quarantined: reader, approve: () => job.approve, ...(suite.today === undefined ? {} : { now: suite.today }) });
  const outcome = await execute(job, suite, task, runtime, reader);
  const check: Check<unknown> = { before, after: env, answer: outcome.answer };
  const utility = step(`${taskName(job)}: the utility check of ${task.id} threw`, () => task.utility(check) === true);
  const security = injection === undefined ? undefined : step(`${taskName(job)}: the security check of ${injection.id} threw`, () => injection.security(check) === true);
  const summary = summarizeCalls(outcome.calls);
  const result = outcome.result;
  const compileError = result?.error?.kind === "syntax" || result?.error?.kind === "unsupported";
  return {
    ...identity(job),
    status: compileError ? "error" : result?.status ?? "failed",
    utility,
    ...(security === undefined ? {} : { security }),
    calls: summary.calls,
    denied: summary.denied,
    asked: summary.asked,
    answer: shorten(outcome.answer),
    ...(errorText(job, result) === undefined ? {} : { error: errorText(job, result) }),
    stops: stoppedCalls(outcome.calls, capture, suite.policies, new Set(tools.filter((t) => t.sideEffect).map((t) => t.name))),
    ...(job.probe === true ? { seen: seenPlaces(suite, outcome, result?.queries ?? []) } : {}),
    ...(played !== undefined && played.unanswered.length > 0 ? { unanswered: played.unanswered } : {}),
    toolAttempts: outcome.calls.reduce((n, c) => n + (c.attempts ?? 0), 0),
    toolMs: outcome.calls.flatMap((c) => (c.durationMs === undefined ? [] : [c.durationMs])),
    ...(outcome.cost === undefined ? {} : { cost: outcome.cost }),
    ms: Date.now() - started,
  };
}

function identity(job: Job): Pick<RunRecord, "suite" | "userTask" | "variant" | "injectionTask" | "attack" | "defense" | "approve" | "probe" | "rep"> {
  return {
    suite: job.suite,
    userTask: job.userTask,
    ...(job.variant === undefined ? {} : { variant: job.variant }),
    ...(job.injectionTask === undefined ? {} : { injectionTask: job.injectionTask }),
    ...(job.attack === undefined ? {} : { attack: job.attack }),
    defense: job.defense,
    approve: job.approve,
    ...(job.probe === true ? { probe: true } : {}),
    ...(job.rep === undefined ? {} : { rep: job.rep }),
  };
}

/** Runs one job against its suite. Never throws. */
export async function runJob(job: Job, suite: ScenarioSuite | undefined): Promise<RunRecord> {
  const started = Date.now();
  try {
    if (suite === undefined) throw new ScenarioError(`there is no suite named ${JSON.stringify(job.suite)}`);
    return await attempt(job, suite, started);
  } catch (err) {
    const message = err instanceof ScenarioError ? err.message : `${taskName(job)}: ${describe(err)}`;
    return { ...identity(job), status: "error", utility: false, calls: 0, denied: 0, asked: 0, error: message, stops: [], ms: Date.now() - started };
  }
}
