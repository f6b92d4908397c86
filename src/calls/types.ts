/**
 * The shapes of the tool-call layer: what the host hands it for one admitted call, what it
 * hands back, and the hook through which tracing watches it. The layer imports only labels,
 * tools and policy, so it can sit before or after the runtime in the stage order.
 */
import type { Label } from "../labels/index.js";
import type { BreakerOptions, RateLimitOptions, RetryOptions, Tool } from "../tools/types.js";

/**
 * Why a call did not return a value, from a fixed set. These are also the `error.type`
 * values on `execute_tool` spans.
 *
 * - `timeout`: the last attempt got no answer within `timeoutMs`;
 * - `connection`: the connection was refused or reset;
 * - `rate_limited`: the tool answered 429, or the local bucket could not give a slot before the deadline;
 * - `unavailable`: the tool answered 503;
 * - `circuit_open`: the breaker is open, nothing was sent;
 * - `deadline`: the call's overall deadline passed between attempts;
 * - `cancelled`: the run was stopped;
 * - `tool_error`: the tool threw anything else, its own answer (not retried).
 */
export type FailureKind = "timeout" | "connection" | "rate_limited" | "unavailable" | "circuit_open" | "deadline" | "cancelled" | "tool_error";

/** What sluice knows about a failed call. */
export interface CallFailure {
  readonly kind: FailureKind;
  /**
   * sluice's own sentence about the failure: fixed words, the tool's or server's name and
   * configured numbers only, never text from the remote side. The one part of a failure a
   * planner may read (see docs/security-model.md, "What a program sees of a failed call").
   */
  readonly summary: string;
  /** What the tool or server said, when it said something (remote text, untrusted). */
  readonly detail?: string;
  /** HTTP status, when the error carried one. */
  readonly status?: number;
  /**
   * `"unknown"` when a side-effecting call may have done its effect although it failed: its
   * last attempt timed out or lost its connection after the request could have gone out.
   */
  readonly outcome?: "unknown";
}

/** What {@link CallLayer.executeCall} returns; it never throws. */
export type CallOutcome =
  | {
      readonly kind: "value";
      readonly value: unknown;
      /**
       * The label the call's failure would have carried. A program that could have caught a
       * failure learns from a success that there was none, so the interpreter must join this
       * into what a surrounding `try` decides whether or not the call failed (phase 2; see
       * docs/tool-calls.md).
       */
      readonly failureLabel: Label;
      readonly attempts: number;
      readonly durationMs: number;
    }
  | {
      readonly kind: "error";
      /** The catchable error the program receives: class, message and label. */
      readonly cls: "Error";
      readonly message: string;
      /** Always untrusted: whether and how a call failed is up to the remote side. */
      readonly label: Label;
      readonly failure: CallFailure;
      readonly attempts: number;
      readonly durationMs: number;
    }
  | {
      /** A budget refused the next attempt: the run ends (not catchable), as for any limit. */
      readonly kind: "limit";
      readonly message: string;
      readonly attempts: number;
      readonly durationMs: number;
    };

/** Checked before every attempt against its worst case; throws {@link BudgetRefusal} to refuse it. */
export interface AttemptBudget {
  beforeAttempt(attempt: AttemptCharge): void;
}

/** One attempt as a budget sees it. */
export interface AttemptCharge {
  readonly tool: string;
  readonly resource: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Worst-case dollars of the attempt (the tool's `costPerAttempt`, default 0). */
  readonly dollars: number;
}

/** Thrown by an {@link AttemptBudget} that refuses an attempt. */
export class BudgetRefusal extends Error {
  constructor(
    message: string,
    /** The limit that would be overshot. */
    readonly limit: "steps" | "dollars" | "tokens" | "wallTimeMs",
  ) {
    super(message);
    this.name = "BudgetRefusal";
  }
}

/** One admitted call, as the host hands it to the layer. */
export interface CallRequest {
  readonly tool: Tool<any, any>;
  readonly args: Record<string, unknown>;
  /**
   * Give the tool a fresh copy of `args` (structuredClone) at every attempt: what it does to one
   * cannot change what was decided and recorded, nor what a retry sends. Default false.
   */
  readonly freshArgs?: boolean;
  /** Identifier of the call within its run; see {@link createKeyring}. */
  readonly callId: string;
  /** Stable across attempts and across `run(source, { previous })`; see {@link createKeyring}. */
  readonly idempotencyKey: string;
  /** What the policy decided; only admitted calls reach the layer. */
  readonly decision: "allow" | "ask";
  /** Whether a person approved it, when the decision was ask. */
  readonly approved?: boolean;
  /** Whether every argument and the call's context were trusted. */
  readonly argsTrusted: boolean;
  /** Key of the breaker and bucket shared by the calls of one server (`"mcp:files"`); default the tool's name. */
  readonly resource?: string;
  /**
   * Label of what the program sees of a failure before sluice forces it untrusted: for an MCP
   * server, its readers and source. Default `Label.untrusted(tool.name)`.
   */
  readonly failureLabel?: Label;
  /** Aborts every attempt and wait (the run was stopped). */
  readonly signal?: AbortSignal;
  /**
   * No attempt starts once this aborts; the one running goes on. A run that is ending (by a
   * limit, in a batch) waits for its calls to settle, so what they did is recorded, but not for
   * their retries.
   */
  readonly retriesStop?: AbortSignal;
  /** Checked before every attempt. */
  readonly budget?: AttemptBudget;
  /** Model calls: the request's worst-case tokens, charged to a `tokensPerMinute` bucket before every attempt. */
  readonly tokens?: number;
  /** For the span: its parent (a handle from the observer's run span) and extra attributes such as MCP's. */
  readonly trace?: { readonly parent?: unknown; readonly attributes?: Readonly<Record<string, string | number | boolean>> };
  /**
   * Watches this call instead of the layer's observer: a model call is a `chat <model>` span,
   * not an `execute_tool` one.
   */
  readonly observer?: CallObserver;
}

/** The call as an observer sees it when it starts. */
export interface CallInfo {
  readonly tool: string;
  /** The tool's description; empty when its declaration is not trusted and public (an untrusted MCP server's). */
  readonly description: string;
  readonly callId: string;
  readonly resource: string;
  readonly decision: "allow" | "ask";
  readonly approved?: boolean;
  readonly argsTrusted: boolean;
  readonly sideEffect: boolean;
  readonly parent?: unknown;
  readonly attributes?: Readonly<Record<string, string | number | boolean>>;
}

/** Watches one call: tracing implements this with an `execute_tool` span. */
export interface CallObservation {
  /** W3C traceparent of the call's span, when it is recorded; passed to the tool as `ctx.traceparent`. */
  readonly traceparent?: string;
  /** An attempt is about to start. */
  attempt(attempt: number): void;
  /** An attempt failed and the next one starts after `waitMs`. */
  retry(attempt: number, waitMs: number, kind: FailureKind): void;
  /** The call ended. */
  end(outcome: CallOutcome): void;
  /**
   * Runs one attempt of the tool (`fn`) with the call's span as the active one, so spans made
   * inside it (a tool's own, an SDK's, fetch instrumentation's) are its children. Without it
   * the layer calls `fn` as it is.
   */
  within?<T>(fn: () => T): T;
}

/** Creates one {@link CallObservation} per call. */
export interface CallObserver {
  startCall(info: CallInfo): CallObservation;
}

/** Options of {@link createCallLayer}: the runtime's `retry`, `breaker` and `rateLimits`. */
export interface CallLayerOptions {
  /** Defaults for every tool; a tool's own `retry` overrides them field by field. */
  retry?: RetryOptions;
  /** A breaker per resource (tool, or server for MCP tools); none without this. */
  breaker?: BreakerOptions;
  /** Buckets by resource name: `{ "mcp:web": { perSecond: 5 }, "model:anthropic": { perSecond: 1, tokensPerMinute: 40000 } }`. */
  rateLimits?: Readonly<Record<string, RateLimitOptions>>;
  /** Source of the backoff jitter, uniform in [0, 1). Default Math.random; seed it in simulations. */
  random?: () => number;
  /** Watches every call (tracing). */
  observer?: CallObserver;
}

/** Breaker and bucket state of a runtime, shared by all its runs. */
export interface CallLayer {
  /** Runs one admitted call with timeout, retries, breaker, bucket and budget. Never throws. */
  executeCall(request: CallRequest): Promise<CallOutcome>;
  /** The breaker's state for a resource, or undefined without a breaker. */
  breakerState(resource: string): "closed" | "open" | "half-open" | undefined;
  /** Feeds a rate-limit answer (429) seen outside `executeCall`, e.g. by a model client, to the resource's bucket. */
  rateLimited(resource: string, retryAfterMs?: number): void;
}
