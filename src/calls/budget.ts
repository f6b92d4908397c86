/**
 * A budget of tool attempts: steps (attempts, retries included) and worst-case dollars, each
 * checked before an attempt starts, as the model meter (src/models/usage.ts) checks a model
 * call's worst case before it is made.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type AttemptBudget, BudgetRefusal } from "./types.js";

/** Limits of {@link createAttemptBudget}; a missing one is not enforced. */
export interface AttemptLimits {
  /** Tool attempts in all, every retry counted. */
  steps?: number;
  /** US dollars: the sum of each attempt's `costPerAttempt`. */
  dollars?: number;
}

/** An {@link AttemptBudget} that also says what it has let through. */
export interface AttemptLedger extends AttemptBudget {
  readonly steps: number;
  readonly dollars: number;
}

const fmt = (n: number): string => n.toLocaleString("en-US", { maximumFractionDigits: 6 });

export function createAttemptBudget(limits: AttemptLimits = {}): AttemptLedger {
  for (const [k, v] of Object.entries(limits)) {
    if (k !== "steps" && k !== "dollars") throw new TypeError(`attempt budget: unknown limit ${JSON.stringify(k)} (known: steps, dollars)`);
    if (v !== undefined && !(typeof v === "number" && v >= 0 && Number.isFinite(v))) throw new TypeError(`attempt budget: ${k} must be a non-negative number, got ${JSON.stringify(v)}`);
  }
  let steps = 0;
  let dollars = 0;
  return {
    beforeAttempt(a) {
      if (limits.steps !== undefined && steps + 1 > limits.steps) {
        throw new BudgetRefusal(`the step budget of ${fmt(limits.steps)} tool attempts is used up (attempt ${a.attempt} of ${a.tool} refused)`, "steps");
      }
      if (limits.dollars !== undefined && dollars + a.dollars > limits.dollars) {
        throw new BudgetRefusal(
          `attempt ${a.attempt} of ${a.tool} could cost up to $${fmt(a.dollars)} but $${fmt(Math.max(0, limits.dollars - dollars))} of $${fmt(limits.dollars)} remain`,
          "dollars",
        );
      }
      steps += 1;
      // An attempt that timed out may still have been billed, so each is charged its worst case.
      dollars += a.dollars;
    },
    get steps() {
      return steps;
    },
    get dollars() {
      return dollars;
    },
  };
}

/**
 * The budget of whoever started the run in progress (an agent's meter: its dollars), which every
 * tool attempt of the run is checked against too. An agent's rounds are runs the runtime cannot
 * tell apart, so the agent lends its meter through the async context, as it lends it to the
 * quarantined reader's model calls (src/models/meter-context.ts `withMeter`).
 */
const lent = new AsyncLocalStorage<AttemptBudget>();

/** Runs `fn` with `budget` lent to the runs it starts. */
export function withLentBudget<T>(budget: AttemptBudget, fn: () => Promise<T>): Promise<T> {
  return lent.run(budget, fn);
}

/** Runs `fn` with no lent budget. */
export function withoutLentBudget<T>(fn: () => Promise<T>): Promise<T> {
  return lent.exit(fn);
}

/** The budget lent to the run starting now, if any. */
export function lentBudget(): AttemptBudget | undefined {
  return lent.getStore();
}

/** One budget checking each of `budgets` in turn before every attempt; undefined when there are none. */
export function allBudgets(...budgets: ReadonlyArray<AttemptBudget | undefined>): AttemptBudget | undefined {
  const given = budgets.filter((b): b is AttemptBudget => b !== undefined);
  if (given.length <= 1) return given[0];
  return {
    beforeAttempt(a) {
      for (const b of given) b.beforeAttempt(a);
    },
  };
}
