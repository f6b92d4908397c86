import type { QuarantinedModel } from "../runtime/types.js";

/**
 * The shapes shared by the privileged planner, the agent loop and the usage meter.
 * The quarantined reader's interface is `QuarantinedModel` from src/runtime/types.ts.
 */

/** Token counts of one or more model calls, as the provider bills them. */
export interface TokenUsage {
  /** Input tokens neither read from nor written to the prompt cache. */
  input: number;
  /** Input tokens read from the prompt cache (cheap). */
  cacheRead: number;
  /** Input tokens written to the prompt cache (a little dearer than plain input). */
  cacheWrite: number;
  /** Output tokens. */
  output: number;
}

/** One turn of the planner's conversation. Only trusted text ever goes in here. */
export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
  /** On an assistant turn: the planner searched for tools (`content` is any text it wrote first). */
  search?: PlannerSearch;
  /** On a user turn: the answer to the planner's search with this id (`content` is the answer). */
  searchResult?: { id: string; isError?: boolean };
}

/**
 * A search for more tools the planner made before writing its program (with tool search: a
 * tool-use turn of `search_tools({ query })`).
 */
export interface PlannerSearch {
  /** The id the answer must carry. */
  id: string;
  /** What the planner searched for; empty when its input held no string `query`. */
  query: string;
}

/** What the agent asks the privileged planner. */
export interface PlannerRequest {
  /** The system prompt: language, rules and tool declarations. Byte-identical for one tool set. */
  system: string;
  /**
   * With tool search: the declarations chosen for this request, which follow `system` (itself
   * then the fixed part, identical for every request). Absent without tool search.
   */
  tools?: string;
  /**
   * With tool search during planning: the planner may answer with a search for more tools
   * (`PlannerResponse.search`) instead of a program. Its definition is fixed, so the cached
   * prefix stays the same.
   */
  searchTool?: boolean;
  /** The conversation so far: the user's request, earlier programs and trusted feedback. */
  messages: readonly ChatMessage[];
  /** Aborts the call when the run's wall-time budget runs out. */
  signal?: AbortSignal;
}

/** What the privileged planner answered. */
export interface PlannerResponse {
  /** The answer's text; the agent expects exactly one fenced code block. */
  text: string;
  /** What the call cost. */
  usage: TokenUsage;
  /** Why the model stopped (`"end_turn"`, `"max_tokens"`, `"refusal"`, `"tool_use"`, ...), when known. */
  stopReason?: string;
  /** The planner searched for more tools instead of answering with a program (only when offered `searchTool`). */
  search?: PlannerSearch;
}

/**
 * The privileged model: writes programs from the user's request. It never sees tool results
 * or any other untrusted text.
 */
export interface PlannerModel {
  /** Model identifier, used for pricing and records. */
  readonly model: string;
  /** Most output tokens one call may produce: the output part of a call's worst case. */
  readonly maxTokens: number;
  /**
   * True when `complete` charges the current usage meter itself, once per attempt (sluice's
   * `anthropicPlanner`, whose retries are the call layer's); the agent then does not charge
   * the call again. Otherwise the agent charges each `complete` as one call.
   */
  readonly metered?: boolean;
  /** Answers one planner turn. */
  complete(request: PlannerRequest): Promise<PlannerResponse>;
}

/** A usage with every counter at zero. */
export function zeroUsage(): TokenUsage {
  return { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
}

/** Adds `b` into a copy of `a`. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    output: a.output + b.output,
  };
}

/** All tokens of a usage, cached ones included. */
export function totalTokens(u: TokenUsage): number {
  return u.input + u.cacheRead + u.cacheWrite + u.output;
}

/** A quarantined model with its identifier, as sluice's readers are. */
export interface NamedReader extends QuarantinedModel {
  /** Model identifier, used for pricing and records. */
  readonly model: string;
}
