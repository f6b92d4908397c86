import { AsyncLocalStorage } from "node:async_hooks";
import type { CallEstimate, UsageMeter } from "./usage.js";
import { zeroUsage, type TokenUsage } from "./types.js";
import { withLentBudget, withoutLentBudget } from "../calls/index.js";

/**
 * The meter of the agent run in progress. The quarantined reader is called by the runtime, not
 * by the agent, so the agent cannot hand it a meter per call; instead the run's meter travels
 * with the async context of `agent.run`, and sluice's readers charge whatever meter is current.
 * Concurrent runs each see their own.
 */
const storage = new AsyncLocalStorage<UsageMeter>();

/** Runs `fn` with `meter` as the current meter. */
export function withMeter<T>(meter: UsageMeter, fn: () => Promise<T>): Promise<T> {
  // Lent to the runtime too: every tool attempt of the runs started inside is charged to it.
  return storage.run(meter, () => withLentBudget(meter, fn));
}

/** Runs `fn` with no current meter (a wrapper that charges a call itself keeps the inner model from charging it again). */
export function withoutMeter<T>(fn: () => Promise<T>): Promise<T> {
  return storage.exit(() => withoutLentBudget(fn));
}

/** The meter of the run in progress, if any. */
export function currentMeter(): UsageMeter | undefined {
  return storage.getStore();
}

/** What a metered call is given: the signal that aborts it when the wall-time budget runs out. */
export interface MeteredCall {
  signal: AbortSignal | undefined;
}

/**
 * Makes one model call under `meter` (or the current meter): checks the call's worst case first,
 * then records what it really used. A call aborted by the wall-time deadline is reported as a
 * `BudgetExceededError`. Without a meter the call simply runs.
 */
export async function meteredCall<T>(
  estimate: CallEstimate,
  explicit: UsageMeter | undefined,
  call: (m: MeteredCall) => Promise<{ value: T; usage: TokenUsage }>,
): Promise<T> {
  const meter = currentMeter() ?? explicit;
  if (meter === undefined) return (await call({ signal: undefined })).value;
  const hold = meter.reserve(estimate);
  const signal = meter.deadlineSignal();
  try {
    const { value, usage } = await call({ signal });
    hold.settle(usage);
    return value;
  } catch (err) {
    // A failed call is billed nothing by the provider (errors and aborts carry no usage).
    hold.settle(zeroUsage());
    if (signal?.aborted) throw meter.stop("wallTimeMs", `the wall-time budget ran out during a ${estimate.role} call`);
    throw err;
  }
}
