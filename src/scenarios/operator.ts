/**
 * The figures an operator watches, from a scenario report's runs: over the runs without attack
 * (no person approving, as the utility figure), success rate, pass^k over the `--repeat k` runs
 * of each task, cost per task run, run time, tool attempts and tool latency p50/p99; and the
 * side-effecting calls the policies refused in the attack runs (an incident signal in production).
 */
import { operatorFigures, type OperatorFigures, type TaskRun } from "../tracing/index.js";
import type { RunRecord } from "./job.js";
import { kindOf } from "./summary.js";
import { blockedSends } from "./flow.js";

/** One suite's operator figures (or all suites'). */
export interface OperatorRow extends OperatorFigures {
  /** Side-effecting calls refused in the attack runs (denied, or asked and not approved): what an attacker's text tried and the policies stopped, counted as `sluice.blocked_sends` is. */
  blockedSendsUnderAttack: number;
}

/** The operator section of a scenario report. */
export interface OperatorReport {
  /** Runs per task (`--repeat`); pass^k is over this many. */
  k: number;
  bySuite: Record<string, OperatorRow>;
  overall: OperatorRow;
}

function taskRun(r: RunRecord): TaskRun {
  return {
    suite: r.suite,
    task: r.userTask,
    success: r.utility,
    ...(r.cost === undefined ? {} : { cost: r.cost }),
    toolLatenciesMs: r.toolMs ?? [],
    blockedSends: blockedSends(r.stops),
    durationMs: r.ms,
    toolAttempts: r.toolAttempts ?? 0,
  };
}

/** The operator figures of `runs`, each task having been run `k` times. */
export function operatorReport(runs: readonly RunRecord[], k: number): OperatorReport {
  const benign = runs.filter((r) => kindOf(r) === "benign");
  const blocked = (suite?: string) => runs.filter((r) => kindOf(r) === "attack" && (suite === undefined || r.suite === suite)).reduce((n, r) => n + blockedSends(r.stops), 0);
  const { bySuite, overall } = operatorFigures(benign.map(taskRun), k);
  const rows: Record<string, OperatorRow> = {};
  for (const [suite, f] of Object.entries(bySuite)) rows[suite] = { ...f, blockedSendsUnderAttack: blocked(suite) };
  return { k, bySuite: rows, overall: { ...overall, blockedSendsUnderAttack: blocked() } };
}
