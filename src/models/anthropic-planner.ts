import type Anthropic from "@anthropic-ai/sdk";
import { lazyClient, modelError, textOf, usageFromApi, type AnthropicConnection } from "./anthropic-client.js";
import type { PlannerModel, PlannerRequest, PlannerResponse } from "./types.js";

/** Options of {@link anthropicPlanner}. */
export interface AnthropicPlannerOptions extends AnthropicConnection {
  /** Model identifier, e.g. `"claude-sonnet-5-5"`. */
  model: string;
  /** max_tokens of each call. Default 4096. */
  maxTokens?: number;
  /** Prompt-cache lifetime of the system prompt. Default `"5m"`. */
  cacheTtl?: "5m" | "1h";
}

/**
 * The privileged planner on the Messages API. The system prompt is sent as one text block
 * marked with `cache_control`, so every call after the first reads it from the prompt cache.
 */
export function anthropicPlanner(options: AnthropicPlannerOptions): PlannerModel {
  if (options === null || typeof options !== "object") throw new TypeError("anthropicPlanner: expected an options object");
  if (typeof options.model !== "string" || options.model === "") throw new TypeError("anthropicPlanner: model must be a non-empty string");
  const maxTokens = options.maxTokens ?? 4096;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new TypeError(`anthropicPlanner: maxTokens must be a positive integer, got ${maxTokens}`);
  const client = lazyClient(options, "planner");
  const cacheControl: Anthropic.Messages.CacheControlEphemeral =
    options.cacheTtl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };

  async function complete(request: PlannerRequest): Promise<PlannerResponse> {
    const params: Anthropic.Messages.MessageCreateParamsNonStreaming = {
      model: options.model,
      max_tokens: maxTokens,
      // The cached block comes first and never changes with the request; chosen declarations follow it.
      system: [{ type: "text", text: request.system, cache_control: cacheControl }, ...(request.tools ? [{ type: "text" as const, text: request.tools }] : [])],
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    try {
      const message = await client().messages.create(params, { signal: request.signal });
      return { text: textOf(message), usage: usageFromApi(message.usage), stopReason: message.stop_reason ?? undefined };
    } catch (err) {
      throw modelError(err, "planner");
    }
  }

  return { model: options.model, maxTokens, complete };
}
