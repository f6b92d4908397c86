import type { Label } from "../labels/index.js";
import type { BreakerOptions, JsonSchema, RateLimitOptions, RetryOptions, Tool } from "../tools/types.js";

/** The quarantined model: reads untrusted text, has no tools, answers in a JSON Schema. */
export interface QuarantinedModel {
  /** Answers `prompt` with a value matching `schema`; throws {@link NotEnoughInformation} when it cannot. */
  query(request: { prompt: string; schema: JsonSchema }): Promise<unknown>;
}

/**
 * Thrown by a quarantined model that lacks the information to answer. The program receives a
 * catchable `NotEnoughInformationError` carrying the labels of what was read, never a guess.
 */
export class NotEnoughInformation extends Error {
  constructor(message = "the quarantined model does not have enough information to answer") {
    super(message);
    this.name = "NotEnoughInformation";
  }
}

/** What the host's `approve` callback is given when a policy asks. */
export interface ApprovalRequest {
  /** The tool's name. */
  tool: string;
  /** The arguments as plain values. */
  args: Record<string, unknown>;
  /** Why the policy asks, with the provenance of the arguments that made it ask. */
  reason: string;
  /** Per-argument explanation: which source made it untrusted or private. */
  provenance?: ReadonlyArray<{ path: string; label: Label; explanation: string }>;
  /** Explanation of the control flow that led to the call. */
  context?: string;
}

/** Resource limits of one run. Each ends the run with `error.kind: "limit"` when exceeded. */
export interface Limits {
  /** Interpreter steps (statements, loop iterations, calls, callback invocations). Default 20,000,000. */
  steps?: number;
  /** Wall time of the interpreter, in milliseconds, tool waits excluded. Default 10,000. */
  timeMs?: number;
  /** Approximate bytes allocated by the program over the whole run. Default 256 MiB. */
  memoryBytes?: number;
  /** Longest string, in UTF-16 units. Default 16,777,216. */
  stringLength?: number;
  /** Longest array. Default 4,194,304. */
  arrayLength?: number;
  /** Deepest call nesting. Default 200. */
  callDepth?: number;
  /** Tool calls and quarantined-model queries in one run. Default 10,000. */
  hostCalls?: number;
}

/** Options of {@link createRuntime}. */
export interface RuntimeOptions {
  /** The tools programs may call, from defineTool. */
  tools?: readonly Tool<any, any>[];
  /** The quarantined model behind `query_ai_assistant(prompt, schema)`. */
  quarantined?: QuarantinedModel;
  /** Asked when a policy says ask; resolves true to let the call go ahead. */
  approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;
  /**
   * How long `approve` may take, in milliseconds; with no answer by then the call is not
   * approved and the run is blocked there, as with a no. Default 600,000 (ten minutes);
   * `Infinity` waits for ever.
   */
  approvalTimeoutMs?: number;
  /** Resource limits. */
  limits?: Limits;
  /**
   * The clock of every run: `new Date()` and `Date.now()` in programs give this instant, trusted,
   * the same for the whole run. A `Date`, an ISO 8601 string or milliseconds since the epoch.
   * Default: the real time when each `run` starts.
   */
  now?: Date | string | number;
  /** How tool calls are retried (a tool's own `retry` overrides it field by field); see docs/tool-calls.md. */
  retry?: RetryOptions;
  /** A circuit breaker per tool (per server for MCP tools), shared by every run of the runtime. */
  breaker?: BreakerOptions;
  /** Token buckets by resource: a tool's name, `"mcp:<server>"`, `"model:anthropic"`. */
  rateLimits?: Readonly<Record<string, RateLimitOptions>>;
}

/** One tool call in a run's record. */
export interface CallRecord {
  tool: string;
  args: Record<string, unknown>;
  decision: "allow" | "deny" | "ask";
  approved?: boolean;
  reason?: string;
  /** Label of all arguments together. */
  argsLabel?: Label;
  /** Label of the control flow that led to the call. */
  context?: Label;
  /** The result as plain JSON, when the call ran and returned. */
  result?: unknown;
  /** The error message, when the call ran and threw. */
  error?: string;
  /** True when the result came from an earlier attempt (see RunOptions.previous), not a new call. */
  replayed?: boolean;
  /** Identifier of the call within its run (`call_1`, … in program order; `gen_ai.tool.call.id`). */
  callId?: string;
  /** The key the tool got as `ctx.idempotencyKey`: the same for every attempt and when `previous` repeats the call. */
  idempotencyKey?: string;
  /** Why the call did not return a value, from sluice's fixed set (`timeout`, `tool_error`, …). */
  failure?: string;
  /**
   * `"unknown"` when the call failed but may have done its effect: a side-effecting attempt
   * timed out or lost its connection and was not retried. `run(source, { previous })` asks
   * before making such a call again.
   */
  outcome?: "unknown";
  /** Attempts made, retries included, when the call was made. */
  attempts?: number;
  /** Wall time of the call in milliseconds, waits between attempts included. */
  durationMs?: number;
}

/** Why a run did not complete. */
export interface RunError {
  kind: "syntax" | "unsupported" | "runtime" | "limit" | "policy";
  message: string;
  line?: number;
  column?: number;
  /** Label of the error message; planners only show trusted messages to the privileged model. */
  label?: Label;
  /**
   * What decided that the run ended at `line`/`column` (the pc of the throw, what a failing
   * builtin depended on; not the message's contents): the planner is shown the place only when
   * it is trusted and public.
   */
  placeLabel?: Label;
  /**
   * Set when the run ended on a tool call's failure the program did not catch (the very error
   * the call threw, not one rethrown by a \`throw\` statement): the tool, sluice's fixed failure
   * kind (\`circuit_open\`, \`timeout\`, ...; the CallRecord's \`failure\`) and what decided
   * that the run ended at that call but for the failure itself (the call's arguments, the flow
   * that reached it, what decided how the run ended after it). The planner is told the tool and
   * the kind when that label is trusted and public (docs/security-model.md, "What a program sees
   * of a failed call", point 5).
   */
  failedCall?: { tool: string; kind: string; label: Label };
}

/** The result of {@link Runtime.run}. */
export interface RunResult {
  status: "completed" | "blocked" | "failed";
  /** Completion value of the program as a plain value. */
  value?: unknown;
  /** Label of `value`, everything nested included. */
  label?: Label;
  error?: RunError;
  /** Every tool call in order. */
  calls: CallRecord[];
  /** Lines the program logged with console.log. */
  logs: string[];
  /** Quarantined-model queries made, in order. */
  queries: Array<{ prompt: string; schema: JsonSchema; answer?: unknown; error?: string; label: Label }>;
  /** Interpreter steps used. */
  steps: number;
  /** The key of this run's idempotency keys; `run(source, { previous })` takes it over, so repeated calls keep their keys. */
  runKey?: string;
  /**
   * Side effects an earlier run of this chain made (or may have made: outcome `"unknown"`) that
   * this run did not make or replay itself: it ended before them, was denied, or was declined.
   * Only tools with side effects. A repeat of this run looks here too, so a payment is not made
   * again two repeats later.
   * Absent when there are none.
   */
  earlier?: CallRecord[];
}

/** A runtime made by {@link createRuntime}. */
export interface Runtime {
  /** Runs a program in the supported JavaScript subset. Never throws for a bad program. */
  run(source: string): Promise<RunResult>;
  /** The tools this runtime offers, sorted by name. */
  readonly tools: readonly Tool<any, any>[];
  /** The clock given as `createRuntime({ now })`, when one was (the planner is told its date). */
  readonly now?: Date | string | number;
}
