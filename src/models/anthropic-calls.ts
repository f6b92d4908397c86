/**
 * Every Messages API request of sluice's planner and reader goes through the tool-call layer
 * (issue 12, step 8): one retry policy (the layer's; the SDK's own retries are off per request,
 * whatever the client was built with), the `model:anthropic` resource's buckets and breaker, a
 * budget reservation per attempt (a retry is a step and may cost its worst case again), and a
 * `chat <model>` span covering the call with its retries.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { createCallLayer, currentCallScope, type CallLayer, type CallOutcome } from "../calls/index.js";
import { checkRateLimitOptions, checkRetryOptions } from "../tools/call-options.js";
import { defineTool, type RateLimitOptions, type RetryOptions } from "../tools/types.js";
import { chatObserver, type ChatServer } from "../tracing/index.js";
import { lazyClient, ModelError, modelError, usageFromApi, type AnthropicConnection } from "./anthropic-client.js";
import { meteredCall } from "./meter-context.js";
import type { CallEstimate, UsageMeter } from "./usage.js";

/** The breaker and bucket key every Messages API call shares. */
export const MODEL_RESOURCE = "model:anthropic";

/**
 * Retries of model calls unless `retry` says otherwise: 3 attempts like the SDK's default,
 * backoff from 0.5 s to 8 s as the SDK's, and the SDK's 10-minute request timeout per attempt.
 */
export const MODEL_RETRY: Readonly<Required<Omit<RetryOptions, "jitter">>> = Object.freeze({ attempts: 3, baseMs: 500, capMs: 8000, timeoutMs: 600_000, deadlineMs: 1_800_000 });

/** One Messages request: its parameters and what the budget and the span need to know. */
export interface ModelRequest {
  params: Anthropic.Messages.MessageCreateParamsNonStreaming;
  estimate: CallEstimate;
  /** Charged when no agent run is in progress. */
  meter?: UsageMeter;
  /** Aborts the call (the caller's own signal). */
  signal?: AbortSignal;
}

/** Sends Messages requests through the layer. */
export type ModelSender = (request: ModelRequest) => Promise<Anthropic.Messages.Message>;

function retryOf(conn: AnthropicConnection, where: string): RetryOptions {
  if (conn.retry !== undefined) checkRetryOptions(`${where}.retry`, conn.retry);
  const m = conn.maxRetries;
  if (m !== undefined && !(Number.isInteger(m) && m >= 0)) throw new TypeError(`${where}: maxRetries must be a non-negative integer, got ${JSON.stringify(m)}`);
  const timeoutMs = conn.timeoutMs;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) throw new TypeError(`${where}: timeoutMs must be a positive number, got ${JSON.stringify(timeoutMs)}`);
  return {
    ...MODEL_RETRY,
    ...(m !== undefined ? { attempts: m + 1 } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(conn.retry ?? {}),
  };
}

function serverOf(client: Anthropic): ChatServer | undefined {
  try {
    const url = new URL(client.baseURL);
    const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : url.protocol === "http:" ? 80 : undefined;
    return { address: url.hostname, ...(port !== undefined ? { port } : {}) };
  } catch {
    return undefined;
  }
}

/** The error a failed call is reported with: the provider's answer when the last attempt got one, else the layer's sentence. */
function failureOf(outcome: Exclude<CallOutcome, { kind: "value" }>, last: { attempt: number; error: unknown } | undefined): unknown {
  if (outcome.kind === "error" && last !== undefined && last.attempt === outcome.attempts && !["timeout", "cancelled", "deadline", "circuit_open"].includes(outcome.failure.kind)) {
    return last.error;
  }
  return new ModelError(outcome.message, outcome.kind === "error" ? outcome.failure.status : undefined, undefined, false);
}

/**
 * The sender of one planner or reader. Its layer is, in order: the connection's `layer`, the
 * runtime's when the call is made inside a run (the reader's queries), or one of its own.
 */
export function modelSender(conn: AnthropicConnection, role: "planner" | "reader", where: string): ModelSender {
  const retry = retryOf(conn, where);
  const rateLimit: RateLimitOptions | undefined = conn.rateLimit === undefined ? undefined : checkRateLimitOptions(`${where}.rateLimit`, conn.rateLimit);
  if (conn.layer !== undefined && (conn.layer === null || typeof conn.layer.executeCall !== "function")) throw new TypeError(`${where}: layer must come from createCallLayer(...)`);
  const client = lazyClient(conn, role === "planner" ? "planner" : "quarantined reader");
  const who = role === "planner" ? "planner" : "quarantined reader";
  let own: CallLayer | undefined;

  return async function send(request) {
    const scope = currentCallScope();
    const layer = conn.layer ?? scope?.layer ?? (own ??= createCallLayer());
    let last: { attempt: number; error: unknown } | undefined;
    let server: ChatServer | undefined;
    try {
      server = serverOf(client());
    } catch {
      // No key: the attempt reports it.
    }
    const tool = defineTool({
      name: role,
      description: `the ${who} (Messages API)`,
      retry,
      ...(rateLimit !== undefined ? { rateLimit } : {}),
      run: async (_args, ctx) => {
        try {
          const c = client();
          return await meteredCall(request.estimate, request.meter, async ({ signal }) => {
            const signals = [ctx?.signal, signal, request.signal].filter((s): s is AbortSignal => s !== undefined);
            const message = await c.messages.create(request.params, {
              // One policy decides: the layer's. The SDK's timeout stays above the layer's so the layer's fires first.
              maxRetries: 0,
              timeout: (retry.timeoutMs ?? MODEL_RETRY.timeoutMs) + 5000,
              ...(signals.length > 0 ? { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) } : {}),
            });
            return { value: message, usage: usageFromApi(message.usage) };
          });
        } catch (err) {
          const error = modelError(err, who);
          last = { attempt: ctx?.attempt ?? 1, error };
          throw error;
        }
      },
    });
    const observer = chatObserver({
      model: request.params.model,
      role,
      maxTokens: request.params.max_tokens,
      ...(scope?.parent !== undefined ? { parent: scope.parent } : {}),
      ...(server !== undefined ? { server } : {}),
      details: (value) => {
        const m = value as Anthropic.Messages.Message;
        return { usage: usageFromApi(m.usage), responseModel: m.model, responseId: m.id, ...(m.stop_reason ? { finishReason: m.stop_reason } : {}) };
      },
      errorType: (outcome) => {
        const e = failureOf(outcome, last);
        return e instanceof ModelError && e.type !== undefined ? e.type : outcome.kind === "error" ? outcome.failure.kind : "limit";
      },
    });
    const signal = scope?.signal;
    const outcome = await layer.executeCall({
      tool,
      args: {},
      callId: "",
      idempotencyKey: "",
      decision: "allow",
      argsTrusted: true,
      resource: MODEL_RESOURCE,
      tokens: request.estimate.inputTokens + request.estimate.maxTokens,
      observer,
      ...(signal !== undefined ? { signal } : {}),
    });
    if (outcome.kind === "value") return outcome.value as Anthropic.Messages.Message;
    throw failureOf(outcome, last);
  };
}
