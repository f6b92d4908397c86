/**
 * One admitted call, end to end: the breaker around the whole call, cockatiel's retry loop
 * around the attempts, and for each attempt the deadline, the budget, the bucket, then the
 * tool under a timeout that aborts `ctx.signal`.
 */
import { CircuitState, DelegateBackoff, handleWhen, retry, type CircuitBreakerPolicy, type RetryPolicy } from "cockatiel";
import type { RateLimitOptions, RetryOptions, ToolContext } from "../tools/types.js";
import { retryWait } from "./backoff.js";
import type { Breakers } from "./breakers.js";
import type { Buckets } from "./buckets.js";
import { AttemptFailed, isRetryable, kindOfToolError, LayerStop, mayHaveActed, retryAfterOf, statusOf, unwrap } from "./classify.js";
import { AttemptTimeout, failureLabelOf, failureOutcome, failuresAreOwn, type LateOutcome } from "./failure.js";
import { withTimeout } from "./timeout.js";
import { type CallInfo, type CallObservation, type CallObserver, type CallOutcome, type CallRequest, type FailureKind, BudgetRefusal } from "./types.js";

/** Retry settings with every default filled in. */
export type ResolvedRetry = Required<RetryOptions>;

/** The defaults; see {@link RetryOptions} for what each means. */
export const DEFAULT_RETRY: ResolvedRetry = Object.freeze({ attempts: 3, baseMs: 200, capMs: 5000, timeoutMs: 30_000, deadlineMs: 120_000, jitter: "full" });

/** Merges retry options, later ones winning field by field. */
export function resolveRetry(...layers: ReadonlyArray<RetryOptions | undefined>): ResolvedRetry {
  // Most calls name no retry options: the defaults as they are (frozen), not a copy per call.
  if (layers.every((l) => l === undefined)) return DEFAULT_RETRY;
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

const policies = new Map<number, RetryPolicy>();

function retryPolicy(attempts: number): RetryPolicy {
  let p = policies.get(attempts);
  if (p === undefined) {
    p = retry(
      handleWhen((e) => e instanceof AttemptFailed && e.wait !== undefined),
      { maxAttempts: attempts - 1, backoff: new DelegateBackoff((c) => ((c.result as { error: AttemptFailed }).error.wait ?? 0)) },
    );
    policies.set(attempts, p);
  }
  return p;
}

const noObservation: CallObservation = { attempt() {}, retry() {}, end() {} };

/** An observer that throws must not break the call it watches. */
function guarded(observer: CallObserver | undefined, info: () => CallInfo): CallObservation {
  if (observer === undefined) return noObservation;
  let o: CallObservation;
  try {
    o = observer.startCall(info());
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
    // Not guarded: it calls the tool, whose errors are the call's. Tracing's only wraps a context switch around it.
    ...(o.within !== undefined ? { within: <T>(fn: () => T): T => o.within!(fn) } : {}),
    attempt: (n) => safe(() => o.attempt(n)),
    retry: (n, w, k) => safe(() => o.retry(n, w, k)),
    end: (x) => safe(() => o.end(x)),
  };
}

function infoOf(req: CallRequest, resource: string): CallInfo {
  return {
    tool: req.tool.name,
    // An untrusted server's description is its text, not fit for the exporter: left out.
    description: req.tool.schemaLabel === undefined || (req.tool.schemaLabel.trusted && req.tool.schemaLabel.readers === "public") ? req.tool.description : "",
    callId: req.callId,
    resource,
    decision: req.decision,
    ...(req.approved !== undefined ? { approved: req.approved } : {}),
    argsTrusted: req.argsTrusted,
    sideEffect: req.tool.sideEffect,
    ...(req.trace?.parent !== undefined ? { parent: req.trace.parent } : {}),
    ...(req.trace?.attributes !== undefined ? { attributes: req.trace.attributes } : {}),
  };
}

/** How `late` settles, or undefined when it has not by `deadline`. */
async function settledBy(late: Promise<LateOutcome>, deadline: number): Promise<LateOutcome | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const out = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([late, out]);
  } finally {
    clearTimeout(timer);
  }
}

function retryKind(err: unknown): FailureKind {
  return err instanceof AttemptTimeout ? "timeout" : kindOfToolError(err);
}

/** Where an attempt's context keeps the function that makes its signal (not enumerable: a spread leaves it). */
const SIGNAL = Symbol("sluice.signal");

/** The one getter every attempt's context shares. */
function readSignal(this: { [SIGNAL]?: () => AbortSignal } | undefined): AbortSignal {
  const make = this?.[SIGNAL];
  // A copy made property by property from the string keys takes the getter without its attempt.
  if (typeof make !== "function") throw new TypeError("ctx.signal was read from a copy of the tool's context that left out which attempt it belongs to: pass the context on as it is, or as a spread ({ ...ctx }), which copies the signal");
  return make();
}

/**
 * What a tool's `run` gets for one attempt: `signal` is an own enumerable getter (a spread of
 * the context copies it, as it copies the rest), made only when read. Every context shares one
 * getter function: an object literal with its own getter gets a hidden class of its own each
 * time (the getter is a new closure), and that kept the whole call's closures alive through
 * every young-generation collection until a full one (1.2 KB a call promoted: issue 11).
 */
function attemptContext(idempotencyKey: string, signal: () => AbortSignal, attempt: number, callId: string, traceparent: string | undefined): ToolContext {
  const ctx = { idempotencyKey } as { -readonly [K in keyof ToolContext]: ToolContext[K] };
  Object.defineProperty(ctx, "signal", { get: readSignal, enumerable: true, configurable: true });
  ctx.attempt = attempt;
  ctx.callId = callId;
  if (traceparent) ctx.traceparent = traceparent;
  Object.defineProperty(ctx, SIGNAL, { value: signal });
  return ctx;
}

/** Runs one admitted call. Never throws. */
export async function executeCall(env: LayerEnv, req: CallRequest): Promise<CallOutcome> {
  const tool = req.tool;
  const resource = req.resource ?? tool.name;
  const r = resolveRetry(env.retry, tool.retry);
  const started = Date.now();
  const deadline = started + r.deadlineMs;
  const breaker = env.breakers.get(resource);
  const obs = guarded(req.observer ?? env.observer, () => infoOf(req, resource));
  const bucketKeys = [[`tool:${tool.name}`, tool.rateLimit], [resource, env.rateLimits[resource]]] as const;
  const failureLabel = failureLabelOf(req.failureLabel, tool.name, resource, failuresAreOwn(tool, { breaker: env.breakers.options, rateLimits: env.rateLimits }));
  let attempts = 0;
  // Whether the last failed attempt may have done the call's effect anyway.
  let unknown = false;

  /** Whether to try again after `err`, and after how long; undefined to stop. */
  const verdict = (err: unknown): number | undefined => {
    if (err instanceof LayerStop || err instanceof BudgetRefusal) return undefined;
    const timedOut = err instanceof AttemptTimeout;
    // Before anything else decides against a retry: whether the attempt may have acted is what
    // a repeat of the run reads to ask before doing it again.
    unknown ||= tool.sideEffect && mayHaveActed(err, timedOut);
    if (req.retriesStop?.aborted) return undefined;
    // Doing it again could do it twice for a tool that said it cannot dedupe by its key (an MCP
    // tool without a trusted idempotentHint); other tools get ctx.idempotencyKey to dedupe by.
    if (unknown && tool.idempotent === false) return undefined;
    if (attempts >= r.attempts || !isRetryable(err, timedOut)) return undefined;
    // A half-open breaker's trial is one attempt: a dead tool costs one attempt per cooldown.
    if (breaker !== undefined && breaker.state === CircuitState.HalfOpen) return undefined;
    const now = Date.now();
    const wait = retryWait({ ...r, random: env.random }, attempts, retryAfterOf(err, now), deadline - now);
    if (wait !== undefined) obs.retry(attempts, wait, retryKind(err));
    return wait;
  };

  const once = async (): Promise<unknown> => {
    // A retry the ending run stopped never started: it is not counted.
    if (attempts > 0 && req.retriesStop?.aborted) throw new LayerStop("cancelled", "the run was stopped");
    const n = ++attempts;
    if (req.signal?.aborted) throw new LayerStop("cancelled", "the run was stopped");
    if (Date.now() >= deadline) throw new LayerStop("deadline", `no result within ${r.deadlineMs} ms`);
    req.budget?.beforeAttempt({ tool: tool.name, resource, attempt: n, dollars: tool.costPerAttempt ?? 0 });
    const slot = env.buckets.take({ keys: bucketKeys, deadline, name: tool.name, ...(req.tokens !== undefined ? { tokens: req.tokens } : {}) });
    if (slot !== undefined) await slot;
    obs.attempt(n);
    const limit = Math.max(1, Math.min(r.timeoutMs, deadline - Date.now()));
    return withTimeout(limit, req.signal, (signal) => {
      const ctx = attemptContext(req.idempotencyKey, signal, n, req.callId, obs.traceparent);
      const run = () => tool.run(req.freshArgs === true ? structuredClone(req.args) : req.args, ctx);
      return obs.within === undefined ? run() : obs.within(run);
    });
  };

  const attempt = async (): Promise<unknown> => {
    try {
      return await once();
    } catch (err) {
      if (statusOf(err) === 429) {
        const after = retryAfterOf(err, Date.now());
        for (const [key] of bucketKeys) env.buckets.penalize(key, after);
      }
      const wait = verdict(err);
      // A retry never starts while the timed-out attempt of a side effect may still be running;
      // if that attempt ends with a value after all, the value is the call's.
      if (wait !== undefined && tool.sideEffect && tool.idempotent === true && err instanceof AttemptTimeout && err.late !== undefined) {
        const late = await settledBy(err.late, deadline);
        if (late === undefined) throw new AttemptFailed(err, undefined);
        if (late.ok) {
          unknown = false;
          return late.value;
        }
      }
      throw new AttemptFailed(err, wait);
    }
  };

  // The first attempt runs outside cockatiel's loop, which costs two more async frames a call
  // when most calls succeed the first time; a failure it would retry is handed to the loop as
  // that loop's own first attempt, so its wait, its count and its giving up are cockatiel's.
  const whole = async (): Promise<unknown> => {
    try {
      return await attempt();
    } catch (first) {
      // Only a failure verdict gave a wait (it gives none once the attempts are used up); a
      // stopped run's loop gives up at once, as cockatiel's own check of the signal does.
      if (!(first instanceof AttemptFailed && first.wait !== undefined)) throw first;
      return retryPolicy(r.attempts).execute(({ attempt: k }) => (k === 0 ? Promise.reject(first) : attempt()), req.signal);
    }
  };
  let outcome: CallOutcome;
  try {
    const value = await (breaker === undefined ? whole() : (breaker as CircuitBreakerPolicy).execute(whole, req.signal));
    outcome = { kind: "value", value, failureLabel, attempts, durationMs: Date.now() - started };
  } catch (err) {
    outcome = failureOutcome(unwrap(err), {
      tool: tool.name,
      resource,
      timeoutMs: r.timeoutMs,
      deadlineMs: r.deadlineMs,
      breaker: env.breakers.options,
      attempts,
      durationMs: Date.now() - started,
      label: failureLabel,
    }, unknown);
  }
  obs.end(outcome);
  return outcome;
}
