import { SEARCH_TOOL } from "./planner-search.js";
import type { PlannerRequest } from "./types.js";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS, REQUEST_OVERHEAD_TOKENS, type CallEstimate } from "./usage.js";

/** The worst case of one planner request, as the budget checks it before the request goes. */
export function plannerEstimate(model: string, maxTokens: number, request: Pick<PlannerRequest, "system" | "tools" | "searchTool" | "messages">): CallEstimate {
  const text = request.system + (request.tools ?? "") + (request.searchTool === true ? JSON.stringify(SEARCH_TOOL) : "") + request.messages.map((m) => m.content).join("");
  const inputTokens = estimateTokens(text) + request.messages.length * MESSAGE_OVERHEAD_TOKENS + REQUEST_OVERHEAD_TOKENS;
  return { model, role: "planner", inputTokens, maxTokens };
}
