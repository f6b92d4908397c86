/**
 * The wait before a retry. The contract fixes it: uniform in `[0, min(capMs, baseMs · 2^(n−1))]`
 * after failed attempt n, and never shorter than what the server asked for (`Retry-After`).
 * cockatiel's own full-jitter generator draws from Math.random and floors to whole ms, so the
 * draw is ours (seedable) and cockatiel only sleeps it.
 */

/** The upper end of the wait after failed attempt `attempt` (1-based). */
export function backoffBound(attempt: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** (attempt - 1));
}

/** The settings the wait depends on. */
export interface WaitPlan {
  baseMs: number;
  capMs: number;
  jitter: "full" | "none";
  random: () => number;
}

/**
 * The wait after failed attempt `attempt`, or undefined when no wait that honours
 * `retryAfterMs` ends before the deadline (`leftMs` from now): then the call stops retrying.
 */
export function retryWait(plan: WaitPlan, attempt: number, retryAfterMs: number | undefined, leftMs: number): number | undefined {
  const floor = retryAfterMs ?? 0;
  if (floor >= leftMs) return undefined;
  const bound = backoffBound(attempt, plan.baseMs, plan.capMs);
  const drawn = plan.jitter === "none" ? bound : plan.random() * bound;
  // A draw past the deadline is cut to end just before it, so the last attempt still gets a chance.
  return Math.max(floor, Math.min(drawn, leftMs - 1));
}
