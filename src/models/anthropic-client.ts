import Anthropic from "@anthropic-ai/sdk";
import type { TokenUsage } from "./types.js";

/** Connection options shared by {@link anthropicPlanner} and {@link anthropicReader}. */
export interface AnthropicConnection {
  /** A configured client. When given, `apiKey`, `baseURL`, `maxRetries` and `timeoutMs` are ignored. */
  client?: Anthropic;
  /** API key; default `process.env.ANTHROPIC_API_KEY`. Read when the first call is made, not before. */
  apiKey?: string;
  /** API base URL; default the SDK's (or `ANTHROPIC_BASE_URL`). */
  baseURL?: string;
  /** SDK retries on 408/409/429/5xx, honouring retry-after headers. Default 2. */
  maxRetries?: number;
  /** Per-request timeout in milliseconds. Default the SDK's. */
  timeoutMs?: number;
}

/** A model call failed: the provider refused it or could not be reached. */
export class ModelError extends Error {
  /** HTTP status, when the provider answered. */
  readonly status: number | undefined;
  /** The provider's error type, e.g. `"rate_limit_error"`, `"overloaded_error"`. */
  readonly type: string | undefined;
  constructor(message: string, status?: number, type?: string) {
    super(message);
    this.name = "ModelError";
    this.status = status;
    this.type = type;
  }
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
    client = new Anthropic({ apiKey, baseURL: conn.baseURL, maxRetries: conn.maxRetries ?? 2, timeout: conn.timeoutMs });
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

/** A ModelError from whatever the SDK threw; aborts are passed through untouched. */
export function modelError(err: unknown, role: string): unknown {
  if (err instanceof Anthropic.APIUserAbortError) return err;
  if (err instanceof Anthropic.APIError) {
    const type = typeof err.type === "string" ? err.type : undefined;
    const detail = err.apiMessage ? `${err.status ?? ""} ${type ?? "error"}: ${err.apiMessage}`.trim() : err.message;
    return new ModelError(`${role} request failed: ${detail}`, err.status, type);
  }
  return err;
}
