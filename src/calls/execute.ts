/**
 * One admitted call, end to end: the breaker around the whole call, cockatiel's retry loop
 * around the attempts, and for each attempt the deadline, the budget, the bucket, then the
 * tool under a timeout that aborts `ctx.signal`.
 */
import { CircuitState, DelegateBackoff, handleWhen, isTaskCancelledError, retry, timeout, TimeoutStrategy, type CircuitBreakerPolicy } from "cockatiel";
import type { RateLimitOptions, RetryOptions, ToolContext } from "../tools/types.js";
import { retryWait } from "./backoff.js";
import type { Breakers } from "./breakers.js";
import type { Buckets } from "./buckets.js";
import { isRetryable, kindOfToolError, LayerStop, retryAfterOf, statusOf } from "./classify.js";
import { AttemptTimeout, failureOutcome } from "./failure.js";
import { type CallObservation, type CallObserver, type CallOutcome, type CallRequest, type FailureKind, BudgetRefusal } from "./types.js";

/** Retry settings with every default filled in. */
export type ResolvedRetry = Required<RetryOptions>;

/** The defaults; see {@link RetryOptions} for what each means. */
export const DEFAULT_RETRY: ResolvedRetry = Object.freeze({ attempts: 3, baseMs: 200, capMs: 5000, timeoutMs: 30_000, deadlineMs: 120_000, jitter: "full" });

/** Merges retry options, later ones winning field by field. */
export function resolveRetry(...layers: ReadonlyArray<RetryOptions | undefined>): ResolvedRetry {
  const out: Record<string, unknown> = { ...DEFAULT_RETRY };
  for (const l of layers) for (const [k, v] of Object.entries(l ?? {})) if (v !== undefined) out[k] = v;
  return out as ResolvedRetry;
}

/** What one runtime's layer shares between calls. */
export interface LayerEnv {
  retry: RetryOptions | undefined;
  breakers: Breakers;
  buckets: Buckets;
  rateLimits: Readonly<Record<string, RateLimitOptions>>;
  random: () => number;
  observer: CallObserver | undefined;
}

/** Per-call state the retry predicate and the backoff share (cockatiel asks them one after the other). */
interface CallState {
  attempts: number;
  nextWait: number;
}

const noObservation: CallObservation = { attempt() {}, retry() {}, end() {} };

/** An observer that throws must not break the call it watches. */
function guarded(observer: CallObserver | undefined, start: () => Parameters<CallObserver["startCall"]>[0]): CallObservation {
  if (observer === undefined) return noObservation;
  let o: CallObservation;
  try {
    o = observer.startCall(start());
  } catch {
    return noObservation;
  }
  const safe = (f: () => void) => {
    try {
      f();
    } catch {
      // Tracing is best effort.
    }
  };
  return {
    traceparent: o.traceparent,
    attempt: (n) => safe(() => o.attempt(n)),
    retry: (n, w, k) => safe(() => o.retry(n, w, k)),
    end: (x) => safe(() => o.end(x)),
  };
}

function retryKind(err: unknown): FailureKind {
  return err instanceof AttemptTimeout ? "timeout" : kindOfToolError(err);
}

/** Runs one admitted call. Never throws. */
export async function executeCall(env: LayerEnv, req: CallRequest): Promise<CallOutcome> {
  const tool = req.tool;
  const resource = req.resource ?? tool.name;
  const r = resolveRetry(env.retry, tool.retry);
  const started = Date.now();
  const deadline = started + r.deadlineMs;
  const breaker = env.breakers.get(resource);
  const state: CallState = { attempts: 0, nextWait: 0 };
  const obs = guarded(env.observer, () => ({
    tool: tool.name,
    description: tool.description,
    callId: req.callId,
    resource,
    decision: req.decision,
    ...(req.approved !== undefined ? { approved: req.approved } : {}),
    argsTrusted: req.argsTrusted,
    sideEffect: tool.sideEffect,
    ...(req.trace?.parent !== undefined ? { parent: req.trace.parent } : {}),
    ...(req.trace?.attributes !== undefined ? { attributes: req.trace.attributes } : {}),
  }));
  const bucketKeys = [[`tool:${tool.name}`, tool.rateLimit], [resource, env.rateLimits[resource]]] as const;

  async function attemptOnce(): Promise<unknown> {
    const n = ++state.attempts;
    if (req.signal?.aborted) throw new LayerStop("cancelled", "the run was stopped");
    if (Date.now() >= deadline) throw new LayerStop("deadline", `no result within ${r.deadlineMs} ms`);
    req.budget?.beforeAttempt({ tool: tool.name, resource, attempt: n, dollars: tool.costPerAttempt ?? 0 });
    await env.buckets.take({ keys: bucketKeys, deadline, name: tool.name });
    obs.attempt(n);
    const limit = Math.max(1, Math.min(r.timeoutMs, deadline - Date.now()));
    let attemptSignal: AbortSignal | undefined;
    try {
      // The signal is aborted only by the timeout or a stopped run, so an aborted signal tells a
      // timeout apart from the tool's own error, even when the tool rejects first on the abort.
      return await timeout(limit, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false }).execute(({ signal }) => {
        attemptSignal = signal;
        const ctx: ToolContext = { idempotencyKey: req.idempotencyKey, signal, attempt: n, callId: req.callId, ...(obs.traceparent ? { traceparent: obs.traceparent } : {}) };
        return tool.run(req.args, ctx);
      }, req.signal);
    } catch (err) {
      if (req.signal?.aborted) throw new LayerStop("cancelled", "the run was stopped");
      if (isTaskCancelledError(err) || attemptSignal?.aborted) throw new AttemptTimeout(limit);
      if (statusOf(err) === 429) {
        const after = retryAfterOf(err, Date.now());
        for (const [key] of bucketKeys) env.buckets.penalize(key, after);
      }
      throw err;
    }
  }

  const shouldRetry = (err: unknown): boolean => {
    if (err instanceof LayerStop || err instanceof BudgetRefusal) return false;
    if (state.attempts >= r.attempts || !isRetryable(err, err instanceof AttemptTimeout)) return false;
    // A half-open breaker's trial is one attempt: a dead tool costs one attempt per cooldown.
    if (breaker !== undefined && breaker.state === CircuitState.HalfOpen) return false;
    const now = Date.now();
    const wait = retryWait({ ...r, random: env.random }, state.attempts, retryAfterOf(err, now), deadline - now);
    if (wait === undefined) return false;
    state.nextWait = wait;
    obs.retry(state.attempts, wait, retryKind(err));
    return true;
  };

  const policy = retry(handleWhen(shouldRetry), { maxAttempts: r.attempts - 1, backoff: new DelegateBackoff(() => state.nextWait) });
  const whole = () => policy.execute(attemptOnce, req.signal);
  let outcome: CallOutcome;
  try {
    const value = await (breaker === undefined ? whole() : (breaker as CircuitBreakerPolicy).execute(whole, req.signal));
    outcome = { kind: "value", value, attempts: state.attempts, durationMs: Date.now() - started };
  } catch (err) {
    outcome = failureOutcome(err, {
      tool: tool.name,
      resource,
      timeoutMs: r.timeoutMs,
      deadlineMs: r.deadlineMs,
      breaker: env.breakers.options,
      attempts: state.attempts,
      durationMs: Date.now() - started,
      failureLabel: req.failureLabel,
    });
  }
  obs.end(outcome);
  return outcome;
}
