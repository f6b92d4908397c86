/**
 * Runs a corpus of live plans next to the reference plans of the same tasks and sums both up
 * the same way: plans the language check accepts, plans the static check flags, benign utility
 * with asks declined and approved, benign runs that met a deny or an ask, and attack success
 * under every attack (policies on; the reader obeys any instruction it reads).
 */
import { existsSync } from "node:fs";
import { compileProgram } from "../../interpreter/program.js";
import { checkPlan } from "../../plancheck/index.js";
import { QUERY } from "../../runtime/index.js";
import { attackNamed, attacks as allAttacks } from "../attacks.js";
import { copyJson } from "../environment.js";
import { runJob, type Job, type RunRecord } from "../job.js";
import { defaultWorkers, runPool, threadsAvailable } from "../parallel.js";
import { suiteNamed, suites as bundled } from "../suites/index.js";
import type { Rate } from "../summary.js";
import type { ScenarioSuite } from "../types.js";
import { loadCorpus, type CorpusPlan } from "./load.js";
import { writeRequests, type PendingRequest } from "./reader-requests.js";
import { checkAnswersFile } from "./played-reader.js";

/** Options of {@link runCorpus}. */
export interface CorpusOptions {
  /** The corpus folder: `<suite>/<task>.<variant>.md` files. */
  dir: string;
  /** Suites by name; default every bundled suite. */
  suites?: readonly string[];
  /** Attacks by name; default every attack. */
  attacks?: readonly string[];
  /** Worker threads; default one per core. */
  jobs?: number;
  /** Use worker threads (default: when running from the built JavaScript). */
  threads?: boolean;
  /**
   * The played reader's answers file: corpus plans' reader requests are answered from it (the
   * reference plans keep their scripted answers). Without it, corpus plans get the scripted
   * answers too, which fit only the reference plans' prompts.
   */
  readerAnswers?: string;
  /** Where the requests the answers file has no answer for are written (with {@link readerAnswers}). */
  readerRequests?: string;
  onRecord?: (record: RunRecord, done: number, total: number) => void;
}

/** The figures of one set of plans. */
export interface PlanSetFigures {
  plans: number;
  /** Plans the language check accepts: they parse and use only the supported subset. */
  accepted: Rate;
  /** Plans in which the static plan check finds a call refused whatever the data. */
  flagged: Rate;
  /** Plans whose benign run met the task's utility check, asks declined. */
  utility: Rate;
  /** The same with every ask approved. */
  utilityWithApproval: Rate;
  /** Benign runs (asks declined) in which a policy denied or asked. */
  benignStopped: Rate;
  /** Benign runs (asks declined) that stopped at a reader request with no played answer yet: not measured. */
  unanswered: Rate;
  /** The same with every ask approved. */
  unansweredWithApproval: Rate;
  /** Attack runs that met a reader request with no played answer (their security check still counts). */
  attackUnanswered: Rate;
  /** Attack runs (every injection task under every attack) whose injection task succeeded. */
  attackSuccess: Rate;
  byAttack: Record<string, Rate>;
  /** Runs whose scenario is broken (not a plan's own error). */
  errors: number;
}

/** One plan and how it fared. */
export interface PlanOutcome {
  side: "corpus" | "reference";
  suite: string;
  task: string;
  variant: string;
  file?: string;
  accepted: boolean;
  /** Why the language check (or the answer's format) refused it. */
  rejected?: string;
  findings: number;
  utility: boolean;
  utilityWithApproval: boolean;
  stopped: boolean;
  /** The benign run (asks declined) stopped at a reader request with no played answer. */
  unanswered: boolean;
  unansweredWithApproval: boolean;
  attackRuns: number;
  attackWins: number;
  /** Why the benign run did not complete, when it did not. */
  error?: string;
}

/** The report of {@link runCorpus}. */
export interface CorpusReport {
  dir: string;
  suites: string[];
  attacks: string[];
  corpus: PlanSetFigures;
  reference: PlanSetFigures;
  bySuite: Array<{ suite: string; corpus: PlanSetFigures; reference: PlanSetFigures }>;
  plans: PlanOutcome[];
  /** Files that are not plans of a known task. */
  problems: string[];
  /** Reader requests with no played answer yet, each with the plans that asked it. */
  pending: PendingRequest[];
  /** Where they were written. */
  requestsDir?: string;
  durationMs: number;
}

function rate(count: number, total: number): Rate {
  return { count, total, rate: total === 0 ? 0 : count / total };
}

interface Entry {
  side: "corpus" | "reference";
  suite: ScenarioSuite;
  task: string;
  variant: string;
  file?: string;
  program?: string;
  rejected?: string;
  findings: number;
}

function accept(suite: ScenarioSuite, program: string): string | undefined {
  const tools = suite.tools(copyJson(suite.environment()));
  try {
    compileProgram(program, { hostFunctions: [...tools.map((t) => t.name), QUERY] });
    return undefined;
  } catch (err) {
    const e = err as { line?: number; column?: number; message?: string };
    return e.message ?? String(err);
  }
}

function entry(side: Entry["side"], suite: ScenarioSuite, task: string, variant: string, program: string | undefined, problem: string | undefined, file?: string): Entry {
  const rejected = problem ?? (program === undefined ? "no program" : accept(suite, program));
  const tools = suite.tools(copyJson(suite.environment()));
  const findings = program === undefined || rejected !== undefined ? 0 : checkPlan(program, tools).findings.length;
  return { side, suite, task, variant, ...(file ? { file } : {}), ...(program === undefined ? {} : { program }), ...(rejected === undefined ? {} : { rejected }), findings };
}

function jobsOf(e: Entry, attackNames: readonly string[], readerAnswers: string | undefined): Job[] {
  if (e.program === undefined) return [];
  const corpus = e.side === "corpus" ? { plan: e.program, variant: e.variant, ...(readerAnswers === undefined ? {} : { readerAnswers }) } : {};
  const base = { suite: e.suite.name, userTask: e.task, reader: "adversarial" as const, planner: "reference" as const, ...corpus };
  const jobs: Job[] = [
    { ...base, reader: "benign", defense: true, approve: false },
    { ...base, reader: "benign", defense: true, approve: true },
  ];
  for (const attack of attackNames) for (const inj of e.suite.injectionTasks) jobs.push({ ...base, injectionTask: inj.id, attack, defense: true, approve: false });
  return jobs;
}

const keyOf = (side: string, suite: string, task: string, variant: string | undefined) => `${side}|${suite}|${task}|${variant ?? "reference"}`;

function outcome(e: Entry, records: readonly RunRecord[]): PlanOutcome {
  const benign = records.find((r) => r.injectionTask === undefined && !r.approve);
  const approved = records.find((r) => r.injectionTask === undefined && r.approve);
  const attacks = records.filter((r) => r.injectionTask !== undefined);
  return {
    side: e.side,
    suite: e.suite.name,
    task: e.task,
    variant: e.variant,
    ...(e.file === undefined ? {} : { file: e.file }),
    accepted: e.rejected === undefined,
    ...(e.rejected === undefined ? {} : { rejected: e.rejected }),
    findings: e.findings,
    // A run that met an unanswered request is not measured: never utility, whatever it returned.
    utility: benign?.utility === true && benign.unanswered === undefined,
    utilityWithApproval: approved?.utility === true && approved.unanswered === undefined,
    stopped: benign !== undefined && benign.denied + benign.asked > 0,
    unanswered: benign?.unanswered !== undefined,
    unansweredWithApproval: approved?.unanswered !== undefined,
    attackRuns: attacks.length,
    attackWins: attacks.filter((r) => r.security === true).length,
    ...(benign?.unanswered !== undefined
      ? { error: `stopped at an unanswered reader request ${benign.unanswered.map((u) => u.key.slice(0, 12)).join(", ")}` }
      : benign?.error === undefined
        ? {}
        : { error: benign.error }),
  };
}

function sum(plans: readonly PlanOutcome[], records: readonly RunRecord[], attackNames: readonly string[]): PlanSetFigures {
  const n = plans.length;
  const attackRecords = records.filter((r) => r.injectionTask !== undefined);
  const byAttack: Record<string, Rate> = {};
  for (const a of attackNames) {
    const mine = attackRecords.filter((r) => r.attack === a);
    byAttack[a] = rate(mine.filter((r) => r.security === true).length, mine.length);
  }
  return {
    plans: n,
    accepted: rate(plans.filter((p) => p.accepted).length, n),
    flagged: rate(plans.filter((p) => p.findings > 0).length, n),
    utility: rate(plans.filter((p) => p.utility).length, n),
    utilityWithApproval: rate(plans.filter((p) => p.utilityWithApproval).length, n),
    benignStopped: rate(plans.filter((p) => p.stopped).length, n),
    unanswered: rate(plans.filter((p) => p.unanswered).length, n),
    unansweredWithApproval: rate(plans.filter((p) => p.unansweredWithApproval).length, n),
    attackUnanswered: rate(attackRecords.filter((r) => r.unanswered !== undefined).length, attackRecords.length),
    attackSuccess: rate(attackRecords.filter((r) => r.security === true).length, attackRecords.length),
    byAttack,
    // A plan that does not compile is the plan's failure; anything else marked "error" is the scenario's.
    errors: records.filter((r) => r.status === "error" && !/the plan does not compile/.test(r.error ?? "")).length,
  };
}

/** The distinct unanswered requests of `records`, each with the plans that asked it. */
function pendingOf(records: readonly RunRecord[]): PendingRequest[] {
  const byKey = new Map<string, PendingRequest>();
  for (const r of records) {
    for (const u of r.unanswered ?? []) {
      const p = byKey.get(u.key) ?? { ...u, askedBy: [] };
      const who = `${r.suite}/${r.userTask}.${r.variant ?? "reference"}`;
      if (!p.askedBy.includes(who)) p.askedBy.push(who);
      byKey.set(u.key, p);
    }
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Loads the corpus, runs it and the reference plans of the same tasks, and sums both up. */
export async function runCorpus(options: CorpusOptions): Promise<CorpusReport> {
  const started = Date.now();
  const suites = (options.suites ?? bundled.map((s) => s.name)).map((n) => {
    const s = suiteNamed(n);
    if (s === undefined) throw new Error(`unknown suite ${JSON.stringify(n)}; known suites: ${bundled.map((b) => b.name).join(", ")}`);
    return s;
  });
  const attackNames = (options.attacks ?? allAttacks.map((a) => a.name)).map((n) => attackNamed(n).name);
  if (options.readerAnswers !== undefined) await checkAnswersFile(options.readerAnswers);
  const { plans, problems } = await loadCorpus(options.dir, suites);
  const corpus = plans.map((p: CorpusPlan) => entry("corpus", suiteNamed(p.suite)!, p.task, p.variant, p.program, p.problem, p.file));
  const covered = [...new Set(plans.map((p) => `${p.suite}|${p.task}`))].map((k) => k.split("|"));
  const reference = covered.map(([s, t]) => {
    const suite = suiteNamed(s)!;
    return entry("reference", suite, t, "reference", suite.userTasks.find((u) => u.id === t)!.plan, undefined);
  });
  const all = [...corpus, ...reference];
  const jobs = all.flatMap((e) => jobsOf(e, attackNames, options.readerAnswers).map((j) => ({ job: j, side: e.side })));
  const workers = Math.max(1, Math.floor(options.jobs ?? defaultWorkers()));
  const threads = (options.threads ?? (threadsAvailable() && jobs.length >= workers * 50)) && workers > 1;
  let done = 0;
  const sides = new Map<Job, string>(jobs.map((x) => [x.job, x.side]));
  const ran = await runPool(jobs.map((x) => x.job), {
    workers,
    threads,
    inline: (job) => runJob(job, suiteNamed(job.suite)),
    onRecord: (r) => options.onRecord?.(r, ++done, jobs.length),
  });
  const bySide = new Map<string, RunRecord[]>();
  ran.forEach((r, i) => {
    const side = sides.get(jobs[i].job)!;
    const key = keyOf(side, r.suite, r.userTask, r.variant);
    bySide.set(key, [...(bySide.get(key) ?? []), r]);
  });
  const pending = pendingOf(ran);
  if (options.readerAnswers !== undefined && options.readerRequests !== undefined && (pending.length > 0 || existsSync(options.readerRequests))) {
    // Only a run of everything knows which older requests no plan asks any more.
    await writeRequests(options.readerRequests, pending, options.suites === undefined && options.attacks === undefined);
  }
  const outcomes = all.map((e) => outcome(e, bySide.get(keyOf(e.side, e.suite.name, e.task, e.side === "corpus" ? e.variant : undefined)) ?? []));
  const recordsOf = (side: string, suite?: string) => [...bySide.entries()].filter(([k]) => k.startsWith(`${side}|${suite === undefined ? "" : `${suite}|`}`)).flatMap(([, v]) => v);
  const figuresOf = (side: "corpus" | "reference", suite?: string) =>
    sum(outcomes.filter((o) => o.side === side && (suite === undefined || o.suite === suite)), recordsOf(side, suite), attackNames);
  return {
    dir: options.dir,
    suites: suites.map((s) => s.name),
    attacks: attackNames,
    corpus: figuresOf("corpus"),
    reference: figuresOf("reference"),
    bySuite: suites.filter((s) => outcomes.some((o) => o.suite === s.name)).map((s) => ({ suite: s.name, corpus: figuresOf("corpus", s.name), reference: figuresOf("reference", s.name) })),
    plans: outcomes,
    problems,
    pending,
    ...(options.readerRequests === undefined || options.readerAnswers === undefined ? {} : { requestsDir: options.readerRequests }),
    durationMs: Date.now() - started,
  };
}
