/**
 * The agent's plan check: before a program runs, the static check predicts the calls its
 * policies will refuse whatever the data, and the planner gets a few rounds to rewrite it.
 * The feedback is built from the program, the tools' declarations and the policies alone, so
 * it is trusted like the planner's own turns.
 */
import { checkPlan, planFeedback, type PlanFinding } from "../plancheck/index.js";
import type { Tool } from "../tools/types.js";

/** Options of the agent's plan check. */
export interface AgentPlanCheckOptions {
  /** Rounds of feedback per request, at most; 0 turns the check off. Default 2. */
  rounds?: number;
}

/** One program the check looked at, and what it found. */
export interface PlanCheckRecord {
  program: string;
  findings: PlanFinding[];
  /** Whether the findings were sent to the planner (false when no rounds were left, or it insisted). */
  sent: boolean;
}

/** The rounds allowed by the options; `false` is 0. */
export function planCheckRounds(option: AgentPlanCheckOptions | false | undefined): number {
  if (option === false) return 0;
  const rounds = option?.rounds ?? 2;
  if (!Number.isInteger(rounds) || rounds < 0) throw new TypeError(`createAgent: planCheck.rounds must be a whole number, got ${JSON.stringify(option?.rounds)}`);
  return rounds;
}

type Got = { ok: true; program: string } | { ok: false };

/** The state of the check across one request. */
export interface PlanChecker {
  /**
   * Checks `program`; while rounds are left and the check finds refused calls, sends the
   * findings with `replan` and checks the program it answers. Returns the program to run, or
   * the failure `replan` gave.
   */
  review<G extends Got>(program: string, replan: (feedback: string) => Promise<G>): Promise<G | { ok: true; program: string }>;
  /** Every program checked, in order. */
  readonly records: PlanCheckRecord[];
  /** Rounds of feedback sent so far. */
  readonly rounds: number;
}

function sameFindings(a: readonly PlanFinding[], b: readonly PlanFinding[]): boolean {
  return a.length === b.length && a.every((f, i) => f.message === b[i].message);
}

/** A checker for one request over `tools`, allowing `rounds` rounds of feedback. */
export function createPlanChecker(tools: readonly Tool<any, any>[], rounds: number): PlanChecker {
  const records: PlanCheckRecord[] = [];
  let used = 0;
  return {
    records,
    get rounds() {
      return used;
    },
    async review(program, replan) {
      let current = program;
      for (;;) {
        if (rounds === 0) return { ok: true, program: current };
        const { findings } = checkPlan(current, tools);
        const last = records.at(-1);
        // A planner that answers with the same program, or one refused the same way, insists: run it.
        const insists = last !== undefined && last.sent && (last.program === current || sameFindings(last.findings, findings));
        const send = findings.length > 0 && used < rounds && !insists;
        records.push({ program: current, findings, sent: send });
        if (!send) return { ok: true, program: current };
        used++;
        const next = await replan(planFeedback(findings));
        if (!next.ok) return next;
        current = next.program;
      }
    },
  };
}
