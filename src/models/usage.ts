import { costOf, priceOf, priceTable, worstCaseCost, type PriceTable } from "./prices.js";
import { addUsage, totalTokens, zeroUsage, type TokenUsage } from "./types.js";
import { type AttemptBudget, type AttemptCharge, BudgetRefusal } from "../calls/index.js";

/** Limits of one agent run. Every limit is optional; a missing one is not enforced. */
export interface Budget {
  /** All tokens of all model calls: input, cache reads, cache writes and output. */
  tokens?: number;
  /** US dollars, at the meter's prices. */
  dollars?: number;
  /** Model calls: planner turns and quarantined-model queries. */
  steps?: number;
  /** Wall time from the start of the run, in milliseconds. */
  wallTimeMs?: number;
}

/** Which limit of a {@link Budget} stopped a run. */
export type BudgetLimit = keyof Budget;

/** Thrown before a model call whose worst case would not fit in what is left of the budget. */
export class BudgetExceededError extends Error {
  /** The limit that would be overshot. */
  readonly limit: BudgetLimit;
  /** Never tried again by the call layer: a retry would be refused the same way. */
  readonly retryable = false;
  constructor(limit: BudgetLimit, message: string) {
    super(message);
    this.name = "BudgetExceededError";
    this.limit = limit;
  }
}

/** A model call about to be made, as the budget sees it. */
export interface CallEstimate {
  /** Model identifier, for pricing. */
  model: string;
  /** `"planner"` or `"reader"`, for the record. */
  role: string;
  /** An upper bound of the call's input tokens; see {@link estimateTokens}. */
  inputTokens: number;
  /** The call's max_tokens. */
  maxTokens: number;
}

/** A budget hold for one call; settle it with what the call really used. */
export interface Reservation {
  /** Records the call's real usage and releases the hold. Calling it twice has no effect. */
  settle(usage: TokenUsage): void;
}

/** Usage of one model within a run. */
export interface ModelUsage extends TokenUsage {
  calls: number;
  cost: number;
}

/** What a run used. */
export interface UsageReport extends TokenUsage {
  /** All tokens, cached ones included. */
  totalTokens: number;
  /** US dollars at the meter's prices; models without a price count as 0 and are listed in `unpriced`. */
  cost: number;
  /** Model calls made. */
  steps: number;
  /** Milliseconds since the meter was created. */
  wallTimeMs: number;
  /** Per model identifier. */
  byModel: Record<string, ModelUsage>;
  /** Models used that have no price. */
  unpriced: string[];
  /** Tool attempts charged to the meter (retries included) and their worst-case dollars, in `cost` too; only when there were any. */
  tools?: { attempts: number; cost: number };
  /** Rounds of static plan-check feedback the agent sent the planner (agent runs only). */
  planCheckRounds?: number;
}

/**
 * Tracks usage and cost of one run and refuses calls that could overshoot its budget. As an
 * {@link AttemptBudget} it charges every tool attempt of the runs it is lent to (see `withMeter`)
 * its worst-case dollars (the tool's `costPerAttempt`), checked before the attempt against what
 * is left, as a model call's worst case is: a retried paid tool cannot outspend the dollars.
 */
export interface UsageMeter extends AttemptBudget {
  /** Checks the call's worst case against what is left and holds it; throws {@link BudgetExceededError}. */
  reserve(call: CallEstimate): Reservation;
  /** The usage so far. */
  report(): UsageReport;
  /** The refusal that stopped the run, once a call was refused. */
  readonly exceeded: BudgetExceededError | undefined;
  /** Milliseconds left of the wall-time budget, or undefined when there is none. */
  remainingMs(): number | undefined;
  /** A signal that aborts when the wall-time budget runs out (undefined without one). */
  deadlineSignal(): AbortSignal | undefined;
  /** Records that the run was stopped by `limit` (the first stop wins) and returns the error. */
  stop(limit: BudgetLimit, message: string): BudgetExceededError;
}

/** Options of {@link createUsageMeter}. */
export interface UsageMeterOptions {
  /** Prices merged over {@link DEFAULT_PRICES}. */
  prices?: PriceTable;
  budget?: Budget;
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number;
}

/**
 * An upper bound of the tokens of `text`: its UTF-8 byte count. Tokenizers work on bytes and
 * no token is shorter than one byte, so this never undercounts; it may overcount about 3-4x
 * for English, which only makes the budget stop a little early.
 */
export function estimateTokens(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Tokens the provider adds around each message and each request (role markers, framing). */
export const MESSAGE_OVERHEAD_TOKENS = 8;
export const REQUEST_OVERHEAD_TOKENS = 32;

function checkBudget(budget: Budget): void {
  for (const [key, value] of Object.entries(budget)) {
    if (!["tokens", "dollars", "steps", "wallTimeMs"].includes(key)) throw new TypeError(`budget: unknown limit ${JSON.stringify(key)}`);
    if (value !== undefined && !(typeof value === "number" && value >= 0 && !Number.isNaN(value))) {
      throw new TypeError(`budget.${key} must be a non-negative number, got ${JSON.stringify(value)}`);
    }
  }
}

const fmt = (n: number): string => n.toLocaleString("en-US", { maximumFractionDigits: 6 });

/** Makes a meter for one run; its wall clock starts now. */
export function createUsageMeter(options: UsageMeterOptions = {}): UsageMeter {
  const prices = priceTable(options.prices);
  const budget = { ...(options.budget ?? {}) };
  checkBudget(budget);
  const now = options.now ?? Date.now;
  const start = now();
  const byModel = new Map<string, ModelUsage>();
  let used = zeroUsage();
  let cost = 0;
  let steps = 0;
  let heldTokens = 0;
  let heldDollars = 0;
  let exceeded: BudgetExceededError | undefined;

  function refuse(limit: BudgetLimit, message: string): never {
    const err = new BudgetExceededError(limit, message);
    exceeded ??= err;
    throw err;
  }

  function check(call: CallEstimate): { tokens: number; dollars: number } {
    const tokens = call.inputTokens + call.maxTokens;
    const price = priceOf(prices, call.model);
    if (budget.wallTimeMs !== undefined && now() - start >= budget.wallTimeMs) {
      refuse("wallTimeMs", `wall-time budget of ${fmt(budget.wallTimeMs)} ms is used up`);
    }
    if (budget.steps !== undefined && steps + 1 > budget.steps) {
      refuse("steps", `step budget of ${fmt(budget.steps)} model calls is used up`);
    }
    const spentTokens = totalTokens(used) + heldTokens;
    if (budget.tokens !== undefined && spentTokens + tokens > budget.tokens) {
      refuse("tokens", `the next ${call.role} call could use up to ${fmt(tokens)} tokens but ${fmt(Math.max(0, budget.tokens - spentTokens))} of ${fmt(budget.tokens)} remain`);
    }
    let dollars = 0;
    if (budget.dollars !== undefined) {
      if (price === undefined) refuse("dollars", `no price for model ${JSON.stringify(call.model)}, so the cost of the next call cannot be bounded; pass prices`);
      dollars = worstCaseCost(price, call.inputTokens, call.maxTokens);
      const spent = cost + heldDollars;
      if (spent + dollars > budget.dollars) {
        refuse("dollars", `the next ${call.role} call could cost up to $${fmt(dollars)} but $${fmt(Math.max(0, budget.dollars - spent))} of $${fmt(budget.dollars)} remain`);
      }
    }
    return { tokens, dollars };
  }

  function record(model: string, usage: TokenUsage): void {
    const price = priceOf(prices, model);
    const callCost = price === undefined ? 0 : costOf(price, usage);
    used = addUsage(used, usage);
    cost += callCost;
    const prev = byModel.get(model) ?? { ...zeroUsage(), calls: 0, cost: 0 };
    byModel.set(model, { ...addUsage(prev, usage), calls: prev.calls + 1, cost: prev.cost + callCost });
  }

  let toolAttempts = 0;
  let toolCost = 0;

  return {
    beforeAttempt(a: AttemptCharge) {
      try {
        if (exceeded !== undefined) throw exceeded;
        if (budget.wallTimeMs !== undefined && now() - start >= budget.wallTimeMs) refuse("wallTimeMs", `wall-time budget of ${fmt(budget.wallTimeMs)} ms is used up`);
        const spent = cost + heldDollars;
        if (budget.dollars !== undefined && spent + a.dollars > budget.dollars) {
          refuse("dollars", `attempt ${a.attempt} of ${a.tool} could cost up to $${fmt(a.dollars)} but $${fmt(Math.max(0, budget.dollars - spent))} of $${fmt(budget.dollars)} remain`);
        }
      } catch (err) {
        // The layer ends the run on its own refusal; the agent then stops on `exceeded`.
        const e = err as BudgetExceededError;
        throw new BudgetRefusal(e.message, e.limit);
      }
      toolAttempts += 1;
      // An attempt that timed out may still have been billed: each is charged its worst case.
      toolCost += a.dollars;
      cost += a.dollars;
    },
    reserve(call) {
      if (exceeded !== undefined) throw exceeded;
      const hold = check(call);
      steps += 1;
      heldTokens += hold.tokens;
      heldDollars += hold.dollars;
      let settled = false;
      return {
        settle(usage) {
          if (settled) return;
          settled = true;
          heldTokens -= hold.tokens;
          heldDollars -= hold.dollars;
          record(call.model, usage);
        },
      };
    },
    report() {
      const models: Record<string, ModelUsage> = {};
      for (const [m, u] of [...byModel].sort(([a], [b]) => (a < b ? -1 : 1))) models[m] = { ...u };
      const unpriced = Object.keys(models).filter((m) => priceOf(prices, m) === undefined);
      return { ...used, totalTokens: totalTokens(used), cost, steps, wallTimeMs: now() - start, byModel: models, unpriced, ...(toolAttempts > 0 ? { tools: { attempts: toolAttempts, cost: toolCost } } : {}) };
    },
    get exceeded() {
      return exceeded;
    },
    remainingMs() {
      return budget.wallTimeMs === undefined ? undefined : Math.max(0, budget.wallTimeMs - (now() - start));
    },
    stop(limit, message) {
      exceeded ??= new BudgetExceededError(limit, message);
      return exceeded;
    },
    deadlineSignal() {
      const left = this.remainingMs();
      return left === undefined ? undefined : AbortSignal.timeout(Math.max(1, Math.ceil(left)));
    },
  };
}
