/**
 * The figures an operator watches over a scenario report, as pure functions of its runs
 * (`sluice scenarios --repeat k` feeds them): success rate, pass^k, cost per task run, run time,
 * tool attempts and tool latency p50/p99, and blocked sends.
 */

/** One run of one task. */
export interface TaskRun {
  suite: string;
  task: string;
  success: boolean;
  /** US dollars the run cost. */
  cost?: number;
  /** Duration of each tool call the run made, in ms. */
  toolLatenciesMs?: readonly number[];
  /** Side-effecting calls refused (denied, or asked and not approved). */
  blockedSends?: number;
  /** Wall time of the run, in ms. */
  durationMs?: number;
  /** Tool attempts the run made, retries included. */
  toolAttempts?: number;
}

/** The figures of one suite, or of all. */
export interface OperatorFigures {
  tasks: number;
  runs: number;
  /** Share of runs that succeeded. */
  successRate: number;
  /** Mean over tasks with at least k runs of the chance that k runs drawn from its runs all succeed; undefined when no task has k runs. */
  passK: number | undefined;
  /** Mean cost of one task run, in dollars (runs without a cost count as 0). */
  costPerTask: number;
  /** Tool-call latency percentiles, ms (nearest rank); undefined without calls. */
  toolLatencyP50: number | undefined;
  toolLatencyP99: number | undefined;
  /** Run wall-time percentiles, ms (nearest rank); undefined for runs that do not say. */
  runTimeP50: number | undefined;
  runTimeP99: number | undefined;
  /** Percentiles of the tool attempts one run made (retries included). */
  toolAttemptsP50: number | undefined;
  toolAttemptsP99: number | undefined;
  blockedSends: number;
}

/** C(n, k) as a float; exact enough for the run counts of a report. */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/**
 * pass^k of one task with `successes` of `trials` runs: the chance that k runs drawn without
 * replacement all succeed, C(c, k) / C(n, k) (τ-bench's unbiased estimator).
 */
export function passHatK(successes: number, trials: number, k: number): number {
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`pass^k needs a whole k ≥ 1, got ${k}`);
  if (trials < k) throw new RangeError(`pass^${k} needs at least ${k} runs, got ${trials}`);
  return choose(successes, k) / choose(trials, k);
}

/** The nearest-rank percentile (q in (0, 100]) of `values`, or undefined when there are none. */
export function percentile(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((q / 100) * sorted.length))) - 1];
}

function figures(runs: readonly TaskRun[], k: number): OperatorFigures {
  const byTask = new Map<string, { n: number; c: number }>();
  let successes = 0;
  let cost = 0;
  let blocked = 0;
  const latencies: number[] = [];
  const times: number[] = [];
  const attempts: number[] = [];
  for (const r of runs) {
    const key = `${r.suite}\u0000${r.task}`;
    const t = byTask.get(key) ?? { n: 0, c: 0 };
    t.n += 1;
    if (r.success) t.c += 1;
    byTask.set(key, t);
    if (r.success) successes += 1;
    cost += r.cost ?? 0;
    blocked += r.blockedSends ?? 0;
    latencies.push(...(r.toolLatenciesMs ?? []));
    if (r.durationMs !== undefined) times.push(r.durationMs);
    if (r.toolAttempts !== undefined) attempts.push(r.toolAttempts);
  }
  const eligible = [...byTask.values()].filter((t) => t.n >= k);
  return {
    tasks: byTask.size,
    runs: runs.length,
    successRate: runs.length === 0 ? 0 : successes / runs.length,
    passK: eligible.length === 0 ? undefined : eligible.reduce((s, t) => s + passHatK(t.c, t.n, k), 0) / eligible.length,
    costPerTask: runs.length === 0 ? 0 : cost / runs.length,
    toolLatencyP50: percentile(latencies, 50),
    toolLatencyP99: percentile(latencies, 99),
    runTimeP50: percentile(times, 50),
    runTimeP99: percentile(times, 99),
    toolAttemptsP50: percentile(attempts, 50),
    toolAttemptsP99: percentile(attempts, 99),
    blockedSends: blocked,
  };
}

/** The figures of each suite and of all runs together. */
export function operatorFigures(runs: readonly TaskRun[], k = 1): { bySuite: Record<string, OperatorFigures>; overall: OperatorFigures } {
  const suites = [...new Set(runs.map((r) => r.suite))].sort();
  const bySuite: Record<string, OperatorFigures> = {};
  for (const s of suites) bySuite[s] = figures(runs.filter((r) => r.suite === s), k);
  return { bySuite, overall: figures(runs, k) };
}
