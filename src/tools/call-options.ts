/**
 * The options of the tool-call layer that a tool or a runtime declares: retries, rate limits,
 * breakers, and what a tool's `run` receives besides its arguments. They live here, before
 * the layer itself (src/calls), so that `defineTool` can type and check them.
 */

/** What a tool's `run(args, ctx)` receives besides its arguments. */
export interface ToolContext {
  /**
   * The same string for every attempt of one call, and for that call when
   * `run(source, { previous })` repeats it: a side-effecting tool (or the server behind it)
   * that remembers keys it has seen does the work once however often it is asked.
   */
  readonly idempotencyKey: string;
  /** Aborted when this attempt times out or the run is stopped. */
  readonly signal: AbortSignal;
  /** 1 for the first attempt, 2 for the first retry, … */
  readonly attempt: number;
  /** Identifier of the call within its run (`gen_ai.tool.call.id` on its span). */
  readonly callId: string;
  /** W3C `traceparent` of the call's span when a tracing SDK records it, for MCP `_meta`. */
  readonly traceparent?: string;
}

/** How a call is retried; every field is optional and falls back to the runtime's, then the defaults. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 3; 1 means no retry. */
  attempts?: number;
  /** Base of the exponential backoff in ms: retry n waits up to `min(capMs, baseMs · 2^(n−1))`. Default 200. */
  baseMs?: number;
  /** Longest backoff wait in ms. Default 5,000. */
  capMs?: number;
  /** Time one attempt may take before its `ctx.signal` is aborted and it counts as timed out. Default 30,000. */
  timeoutMs?: number;
  /** Time all attempts of one call may take together, waits included. Default 120,000. */
  deadlineMs?: number;
  /**
   * `"full"` (the default, and what the contract specifies): each wait is drawn uniformly from
   * `[0, min(capMs, baseMs · 2^(n−1))]`. `"none"` waits the whole bound; it exists to measure
   * what jitter buys and should not be used otherwise.
   */
  jitter?: "full" | "none";
}

/** A token bucket: how fast calls to one tool, server or model API may go. */
export interface RateLimitOptions {
  /** Calls per second, sustained. */
  perSecond?: number;
  /** Calls that may go at once after a quiet spell. Default `max(1, perSecond)`. */
  burst?: number;
  /** Model APIs: tokens per minute, charged with each request's worst case. */
  tokensPerMinute?: number;
}

/** A circuit breaker: after `failures` failed calls in a row, calls fail fast for `cooldownMs`, then one trial call goes. */
export interface BreakerOptions {
  /** Consecutive failed calls that open the breaker. */
  failures: number;
  /** How long an open breaker fails fast before it lets one trial call through. */
  cooldownMs: number;
}

const RETRY_KEYS = ["attempts", "baseMs", "capMs", "timeoutMs", "deadlineMs", "jitter"];
const RATE_KEYS = ["perSecond", "burst", "tokensPerMinute"];

function positive(where: string, key: string, value: unknown, integer: boolean): void {
  if (value === undefined) return;
  const ok = typeof value === "number" && Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value));
  if (!ok) throw new TypeError(`${where}.${key} must be a positive ${integer ? "integer" : "number"}, got ${JSON.stringify(value)}`);
}

function plainObject(where: string, value: unknown, keys: readonly string[]): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new TypeError(`${where} must be an object, got ${JSON.stringify(value)}`);
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw new TypeError(`${where}: unknown option ${JSON.stringify(key)} (known: ${keys.join(", ")})`);
  }
  return value as Record<string, unknown>;
}

/** Throws a TypeError naming the bad field when `value` is not valid {@link RetryOptions}. */
export function checkRetryOptions(where: string, value: unknown): RetryOptions {
  const o = plainObject(where, value, RETRY_KEYS);
  positive(where, "attempts", o.attempts, true);
  for (const key of ["baseMs", "capMs", "timeoutMs", "deadlineMs"]) positive(where, key, o[key], false);
  if (o.jitter !== undefined && o.jitter !== "full" && o.jitter !== "none") throw new TypeError(`${where}.jitter must be "full" or "none", got ${JSON.stringify(o.jitter)}`);
  return o as RetryOptions;
}

/** Throws a TypeError naming the bad field when `value` is not valid {@link RateLimitOptions}. */
export function checkRateLimitOptions(where: string, value: unknown): RateLimitOptions {
  const o = plainObject(where, value, RATE_KEYS);
  for (const key of RATE_KEYS) positive(where, key, o[key], false);
  if (o.perSecond === undefined && o.tokensPerMinute === undefined) throw new TypeError(`${where} needs perSecond or tokensPerMinute`);
  return o as RateLimitOptions;
}

/** Throws a TypeError naming the bad field when `value` is not valid {@link BreakerOptions}. */
export function checkBreakerOptions(where: string, value: unknown): BreakerOptions {
  const o = plainObject(where, value, ["failures", "cooldownMs"]);
  if (o.failures === undefined || o.cooldownMs === undefined) throw new TypeError(`${where} needs both failures and cooldownMs, e.g. { failures: 5, cooldownMs: 30000 }`);
  positive(where, "failures", o.failures, true);
  positive(where, "cooldownMs", o.cooldownMs, false);
  return o as unknown as BreakerOptions;
}
