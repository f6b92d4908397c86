import Anthropic from "@anthropic-ai/sdk";
import { retryAfterOf, type CallLayer } from "../calls/index.js";
import type { RateLimitOptions, RetryOptions } from "../tools/types.js";
import type { TokenUsage } from "./types.js";

/** Connection options shared by {@link anthropicPlanner} and {@link anthropicReader}. */
export interface AnthropicConnection {
  /**
   * A configured client. When given, `apiKey` and `baseURL` are ignored; its own `maxRetries`
   * is too (every request is sent with `maxRetries: 0`: sluice's call layer retries).
   */
  client?: Anthropic;
  /** API key; default `process.env.ANTHROPIC_API_KEY`. Read when the first call is made, not before. */
  apiKey?: string;
  /** API base URL; default the SDK's (or `ANTHROPIC_BASE_URL`). */
  baseURL?: string;
  /**
   * Retries after the first attempt, made by sluice's call layer (not the SDK) on what the SDK
   * would retry: 408, 409, 429, 5xx (529 overloaded included), lost connections, and what an
   * `x-should-retry` header says, waiting at least `retry-after(-ms)`. Default 2. `retry.attempts` wins.
   */
  maxRetries?: number;
  /** Time one attempt may take, in milliseconds. Default 600,000 (the SDK's). `retry.timeoutMs` wins. */
  timeoutMs?: number;
  /** The call layer's retry settings for this model (attempts, backoff, per-attempt timeout, deadline). */
  retry?: RetryOptions;
  /** A token bucket for this model's calls alone (requests per second, tokens per minute). */
  rateLimit?: RateLimitOptions;
  /**
   * The call layer to go through, shared e.g. with a runtime (`createRuntime({ layer })`) or
   * between a planner and a reader, so they share the `model:anthropic` bucket and breaker.
   * Default: inside a run, the runtime's layer; elsewhere one of this model's own.
   */
  layer?: CallLayer;
}

/** A model call failed: the provider refused it or could not be reached. */
export class ModelError extends Error {
  /** HTTP status, when the provider answered. */
  readonly status: number | undefined;
  /** The provider's error type, e.g. `"rate_limit_error"`, `"overloaded_error"`. */
  readonly type: string | undefined;
  /** Whether the call layer may try again (what the SDK would retry). */
  readonly retryable: boolean;
  /** How long the provider asked us to wait, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, status?: number, type?: string, retryable = false, retryAfterMs?: number) {
    super(message);
    this.name = "ModelError";
    this.status = status;
    this.type = type;
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The SDK's own rule of what to retry (client.js `shouldRetry`), applied by the call layer instead. */
function shouldRetry(err: InstanceType<typeof Anthropic.APIError>): boolean {
  const header = err.headers?.get?.("x-should-retry");
  if (header === "true") return true;
  if (header === "false") return false;
  const s = err.status;
  return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
}

/**
 * Returns a getter that builds the client on first use, so that constructing a model is free
 * and offline: only a real call needs a key.
 */
export function lazyClient(conn: AnthropicConnection, role: string): () => Anthropic {
  let client = conn.client;
  return () => {
    if (client !== undefined) return client;
    const apiKey = conn.apiKey ?? process.env.ANTHROPIC_API_KEY;
    if (apiKey === undefined || apiKey === "") {
      throw new ModelError(
        `the ${role} has no API key: pass apiKey or client, or set ANTHROPIC_API_KEY (for offline runs use scripted models or recordReplay)`,
      );
    }
    // Retries and timeouts are the call layer's (anthropic-calls.ts), so the SDK makes one attempt.
    client = new Anthropic({ apiKey, baseURL: conn.baseURL, maxRetries: 0 });
    return client;
  };
}

/** Our usage from the SDK's. */
export function usageFromApi(u: Anthropic.Messages.Usage | undefined): TokenUsage {
  return {
    input: u?.input_tokens ?? 0,
    cacheRead: u?.cache_read_input_tokens ?? 0,
    cacheWrite: u?.cache_creation_input_tokens ?? 0,
    output: u?.output_tokens ?? 0,
  };
}

/** The text blocks of a message, joined. */
export function textOf(message: Anthropic.Messages.Message): string {
  return message.content
    .filter((b): b is Anthropic.Messages.TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("");
}

/**
 * A ModelError from whatever the SDK threw, saying whether to retry and after how long; aborts
 * and sluice's own errors (a budget refusal) are passed through untouched.
 */
export function modelError(err: unknown, role: string): unknown {
  if (err instanceof Anthropic.APIUserAbortError || err instanceof ModelError) return err;
  if (err instanceof Anthropic.APIError) {
    const type = typeof err.type === "string" ? err.type : undefined;
    const detail = err.apiMessage ? `${err.status ?? ""} ${type ?? "error"}: ${err.apiMessage}`.trim() : err.message;
    // A lost connection (APIConnectionError) has no status and is retried, as the SDK would.
    return new ModelError(`${role} request failed: ${detail}`, err.status, type, shouldRetry(err), retryAfterOf(err, Date.now()));
  }
  return err;
}
