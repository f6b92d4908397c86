/**
 * A budget of tool attempts: steps (attempts, retries included) and worst-case dollars, each
 * checked before an attempt starts, as the model meter (src/models/usage.ts) checks a model
 * call's worst case before it is made.
 */
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
