import type Anthropic from "@anthropic-ai/sdk";
import { textOf, usageFromApi, type AnthropicConnection } from "./anthropic-client.js";
import { modelSender } from "./anthropic-calls.js";
import { plannerEstimate } from "./planner-estimate.js";
import { SEARCH_TOOL, SEARCH_TOOL_NAME } from "./planner-search.js";
import type { ChatMessage, PlannerModel, PlannerRequest, PlannerResponse, PlannerSearch } from "./types.js";

/** Options of {@link anthropicPlanner}. */
export interface AnthropicPlannerOptions extends AnthropicConnection {
  /** Model identifier, e.g. `"claude-sonnet-5-5"`. */
  model: string;
  /** max_tokens of each call. Default 4096. */
  maxTokens?: number;
  /** Prompt-cache lifetime of the system prompt. Default `"5m"`. */
  cacheTtl?: "5m" | "1h";
}

/** One turn as the Messages API takes it: a search is a tool_use block, its answer a tool_result. */
function messageParam(m: ChatMessage): Anthropic.Messages.MessageParam {
  if (m.role === "assistant" && m.search !== undefined) {
    const text = m.content.trim() === "" ? [] : [{ type: "text" as const, text: m.content }];
    return { role: "assistant", content: [...text, { type: "tool_use", id: m.search.id, name: SEARCH_TOOL_NAME, input: { query: m.search.query } }] };
  }
  if (m.role === "user" && m.searchResult !== undefined) {
    const result: Anthropic.Messages.ToolResultBlockParam = { type: "tool_result", tool_use_id: m.searchResult.id, content: m.content };
    return { role: "user", content: [m.searchResult.isError ? { ...result, is_error: true } : result] };
  }
  return { role: m.role, content: m.content };
}

/** The planner's call of the search tool, when it made one. */
function searchOf(message: Anthropic.Messages.Message): PlannerSearch | undefined {
  const use = message.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === "tool_use" && b.name === SEARCH_TOOL_NAME);
  if (use === undefined) return undefined;
  const query = (use.input as { query?: unknown } | null)?.query;
  return { id: use.id, query: typeof query === "string" ? query : "" };
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
  const send = modelSender(options, "planner", "anthropicPlanner");
  const cacheControl: Anthropic.Messages.CacheControlEphemeral =
    options.cacheTtl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };

  async function complete(request: PlannerRequest): Promise<PlannerResponse> {
    const params: Anthropic.Messages.MessageCreateParamsNonStreaming = {
      model: options.model,
      max_tokens: maxTokens,
      // The cached block comes first and never changes with the request; chosen declarations follow it.
      system: [{ type: "text", text: request.system, cache_control: cacheControl }, ...(request.tools ? [{ type: "text" as const, text: request.tools }] : [])],
      messages: request.messages.map(messageParam),
      // The search tool's bytes never change, so the cached prefix (tools, then system) stays the same.
      ...(request.searchTool === true ? { tools: [SEARCH_TOOL as unknown as Anthropic.Messages.Tool] } : {}),
    };
    // Charged to the current meter per attempt (the agent's, inside agent.run).
    const message = await send({ params, estimate: plannerEstimate(options.model, maxTokens, request), ...(request.signal !== undefined ? { signal: request.signal } : {}) });
    const search = request.searchTool === true ? searchOf(message) : undefined;
    return { text: textOf(message), usage: usageFromApi(message.usage), stopReason: message.stop_reason ?? undefined, ...(search ? { search } : {}) };
  }

  return { model: options.model, maxTokens, metered: true, complete };
}
