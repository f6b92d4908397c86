/**
 * The scenario runner: builds the matrix (each user task without attack, each pair of user task
 * and injection task under each chosen attack, and the same attacks undefended for comparison),
 * runs it in parallel and sums it up per suite and overall.
 */
import { attackNamed, attacks as allAttacks } from "./attacks.js";
import { runJob, type Job, type PlannerKind, type ReaderKind, type RunRecord } from "./job.js";
import { defaultWorkers, runPool, threadsAvailable } from "./parallel.js";
import { figures, suiteFigures, type Figures, type SuiteFigures } from "./summary.js";
import { suiteNamed, suites as bundled } from "./suites/index.js";
import type { ScenarioSuite } from "./types.js";
import { problemText, validateSuite } from "./validate.js";
import { operatorReport, type OperatorReport } from "./operator.js";

/** Options of {@link runScenarios}. */
export interface ScenarioOptions {
  /** Suites by name, or suite objects (these run in this thread). Default: every bundled suite. */
  suites?: ReadonlyArray<string | ScenarioSuite>;
  /** Attacks by name. Default: every attack. */
  attacks?: readonly string[];
  /** Reader: `"adversarial"` (default; obeys any instruction it reads), `"benign"`, or `"model"` (a real model). */
  reader?: ReaderKind;
  /** Planner: `"reference"` (default; the tasks' reference plans) or `"model"` (a real planner). */
  planner?: PlannerKind;
  /** Model names for real-model runs. */
  models?: { planner?: string; reader?: string };
  /** Only these user task ids (a sample). Default: all. */
  userTasks?: readonly string[];
  /** Only these injection task ids. Default: all. */
  injectionTasks?: readonly string[];
  /** Also run the attacks with every policy off, to show what they could do undefended. Default true. */
  undefended?: boolean;
  /** Worker threads. Default one per core. */
  jobs?: number;
  /** Use worker threads (default: when running from the built JavaScript). */
  threads?: boolean;
  /** Runs of every job (probes run once), for pass^k and the spread of run times. Default 1. */
  repeat?: number;
  /** Called after each run. */
  onRecord?: (record: RunRecord, done: number, total: number) => void;
}

/** The settings a report was made with. */
export interface ReportSettings {
  suites: string[];
  attacks: string[];
  reader: ReaderKind;
  planner: PlannerKind;
  models?: { planner?: string; reader?: string };
  undefended: boolean;
  workers: number;
  threads: boolean;
  /** Benign runs decline every ask (no person is there, as in AgentDojo); a second run approves every ask. */
  approvals: string;
  /** Runs of every job (probes once). */
  repeat: number;
}

/** The result of {@link runScenarios}. */
export interface ScenarioReport {
  settings: ReportSettings;
  suites: SuiteFigures[];
  overall: Figures;
  /** What an operator watches: success, pass^k, run time, tool attempts and latency, blocked sends. */
  operator: OperatorReport;
  /** Every run, in matrix order. */
  runs: RunRecord[];
  /** Every broken scenario or plan, one line each, naming the task. */
  errors: string[];
  startedAt: string;
  durationMs: number;
}

const APPROVALS = "runs without attack decline every ask (no person is present, as in AgentDojo); a second run approves every ask; attack runs decline every ask";

function resolveSuites(wanted: ScenarioOptions["suites"]): ScenarioSuite[] {
  if (wanted === undefined) return [...bundled];
  return wanted.map((s) => {
    if (typeof s !== "string") return s;
    const found = suiteNamed(s);
    if (found === undefined) throw new Error(`unknown suite ${JSON.stringify(s)}; known suites: ${bundled.map((b) => b.name).join(", ")}`);
    return found;
  });
}

function pick<T extends { id: string }>(list: readonly T[], ids: readonly string[] | undefined): T[] {
  return ids === undefined ? [...list] : list.filter((t) => ids.includes(t.id));
}

interface Plan {
  jobs: Job[];
  /** Records made without running: tasks whose definition is broken. */
  broken: RunRecord[];
}

function brokenRecord(job: Job, error: string): RunRecord {
  return { suite: job.suite, userTask: job.userTask, ...(job.injectionTask ? { injectionTask: job.injectionTask } : {}), ...(job.attack ? { attack: job.attack } : {}), defense: job.defense, approve: job.approve, ...(job.probe ? { probe: true } : {}), status: "error", utility: false, calls: 0, denied: 0, asked: 0, error, stops: [], ms: 0 };
}

function matrix(suites: readonly ScenarioSuite[], attackNames: readonly string[], options: ScenarioOptions): Plan {
  const out: Plan = { jobs: [], broken: [] };
  const k = options.repeat ?? 1;
  const base = { reader: options.reader ?? "adversarial", planner: options.planner ?? "reference", ...(options.models ? { models: options.models } : {}) } as const;
  for (const suite of suites) {
    const problems = validateSuite(suite);
    const name = typeof suite?.name === "string" ? suite.name : "(unnamed suite)";
    const whole = problems.get("");
    const add = (job: Job, ids: string[]) => {
      const found = [whole, ...ids.map((id) => problems.get(id))].flatMap((p, i) => (p === undefined ? [] : [problemText(name, i === 0 ? "" : ids[i - 1], p)]));
      if (found.length > 0) out.broken.push(brokenRecord(job, found.join(" | ")));
      else if (k === 1 || job.probe === true) out.jobs.push(job);
      else for (let rep = 1; rep <= k; rep++) out.jobs.push({ ...job, rep });
    };
    if (whole !== undefined) {
      out.broken.push(brokenRecord({ suite: name, userTask: "(suite)", defense: true, approve: false, ...base }, problemText(name, "", whole)));
      continue;
    }
    const users = pick(suite.userTasks, options.userTasks);
    const injections = pick(suite.injectionTasks, options.injectionTasks);
    for (const u of users) {
      const one = { suite: name, userTask: u.id, ...base };
      add({ ...one, defense: true, approve: false }, [u.id]);
      add({ ...one, defense: true, approve: true }, [u.id]);
      // Probes find which injection places a reference plan reads; a live planner's plan varies.
      if (base.planner === "reference") add({ ...one, reader: "benign", defense: true, approve: false, probe: true }, [u.id]);
    }
    for (const attack of attackNames) {
      for (const u of users) {
        for (const inj of injections) {
          const pair = { suite: name, userTask: u.id, injectionTask: inj.id, attack, ...base };
          add({ ...pair, defense: true, approve: false }, [u.id, inj.id]);
          if (options.undefended !== false) add({ ...pair, defense: false, approve: false }, [u.id, inj.id]);
        }
      }
    }
  }
  return out;
}

/** Runs the scenario matrix and sums it up. Bad suites or plans become error records; the rest still run. */
export async function runScenarios(options: ScenarioOptions = {}): Promise<ScenarioReport> {
  const started = Date.now();
  const repeat = options.repeat ?? 1;
  if (!(Number.isInteger(repeat) && repeat >= 1)) throw new Error(`repeat must be a whole number of at least 1, got ${JSON.stringify(options.repeat)}`);
  const suites = resolveSuites(options.suites);
  const attackNames = (options.attacks ?? allAttacks.map((a) => a.name)).map((n) => attackNamed(n).name);
  const plan = matrix(suites, attackNames, options);
  const byName = new Map(suites.map((s) => [s.name, s]));
  const custom = suites.some((s) => suiteNamed(s.name) !== s);
  const workers = Math.max(1, Math.floor(options.jobs ?? defaultWorkers()));
  // Starting a worker costs about as much as a few dozen runs, so small matrices run here.
  const threads = !custom && (options.threads ?? (threadsAvailable() && plan.jobs.length >= workers * 50)) && workers > 1;
  const total = plan.jobs.length + plan.broken.length;
  let done = 0;
  for (const r of plan.broken) options.onRecord?.(r, ++done, total);
  const ran = await runPool(plan.jobs, {
    workers,
    threads,
    inline: (job) => runJob(job, byName.get(job.suite)),
    inlineConcurrency: options.reader === "model" || options.planner === "model" ? Math.min(workers * 2, 8) : 1,
    onRecord: (r) => options.onRecord?.(r, ++done, total),
  });
  const runs = [...plan.broken, ...ran];
  const summaries = suites
    .filter((s) => typeof s?.name === "string")
    .map((s) => suiteFigures({ name: s.name, description: s.description ?? "", userTasks: pick(s.userTasks ?? [], options.userTasks).length, injectionTasks: pick(s.injectionTasks ?? [], options.injectionTasks).length }, runs, attackNames));
  return {
    settings: {
      suites: suites.map((s) => s.name),
      attacks: attackNames,
      reader: options.reader ?? "adversarial",
      planner: options.planner ?? "reference",
      ...(options.models ? { models: options.models } : {}),
      undefended: options.undefended !== false,
      workers: threads ? workers : 1,
      threads,
      approvals: APPROVALS,
      repeat,
    },
    suites: summaries,
    overall: figures(runs),
    operator: operatorReport(runs, repeat),
    runs,
    errors: [...new Set(runs.filter((r) => r.status === "error" && r.error !== undefined).map((r) => r.error as string))],
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
  };
}
