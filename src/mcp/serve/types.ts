/**
 * The options of sluice's MCP server (`sluice serve`): the tools plans may call, what the
 * calling agent is told about the language, and how asks reach a person.
 */
import type { ExtendedRuntimeOptions, RunError } from "../../runtime/index.js";
import type { JsonSchema, Tool } from "../../tools/types.js";

/**
 * What the agent that writes plans is told, from the planner's own texts (`src/models`), so
 * an MCP host's agent and sluice's planner learn the same language and see the same
 * declarations. Passed in because `src/models` comes after `src/mcp`.
 */
export interface PlanLanguage {
  /** The language and the rules of a plan. */
  rules: string;
  /** The TypeScript declarations of everything a plan can call. */
  declarations: string;
  /**
   * True when a failed run's error message may be shown to the agent that wrote the plan;
   * `knows` is what that agent already has (its program, the tools), whose words a message may use.
   */
  messageIsTrusted(error: RunError, knows?: { program?: string; tools?: readonly Pick<Tool<any, any>, "name" | "parameters" | "schemaLabel">[] }): boolean;
}

/**
 * What the client's model is told when it serves as the quarantined reader through MCP
 * sampling, and how its answer is read: the texts of sluice's own reader (`src/models`),
 * passed in like {@link PlanLanguage}.
 */
export interface SamplingTexts {
  /** The system prompt of the quarantined reader. */
  system: string;
  /** The user message of one query: the prompt, and the JSON the answer must be. */
  message(prompt: string, schema: JsonSchema): string;
  /** What the model's answer means. */
  interpret(text: string, schema: JsonSchema): { kind: "answer"; value: unknown } | { kind: "not-enough-information" } | { kind: "invalid"; problem: string };
}

/** The answer to an ask when the client cannot put it to a person. */
export type AskFallback = "yes" | "no";

/** Options of {@link createPlanServer}. */
export interface ServeOptions {
  /** The tools plans may call, from `defineTool` or `connectMcp(...).tools`. */
  tools: readonly Tool<any, any>[];
  language: PlanLanguage;
  /**
   * With no `runtime.quarantined`: plans' `query_ai_assistant` asks the client's model through
   * MCP sampling when the client supports it (else it throws an error the program can catch).
   */
  sampling?: SamplingTexts;
  /** Everything else a run needs (quarantined model, limits, permissions). */
  runtime?: Omit<ExtendedRuntimeOptions, "tools" | "approve" | "mutants">;
  /**
   * What an ask gets when the client supports no form elicitation. Default `"no"`: declined,
   * and the plan stops as blocked. (When too many plans are already waiting for a person, an
   * ask is declined whatever this says: other clients' runs must not decide it.)
   */
  fallback?: AskFallback;
  /** How long a plan waits for a person's answer; after that the ask counts as declined. Default 10 minutes. */
  askTimeoutMs?: number;
  /** How many plans may wait for a person at once; asks beyond that are declined. Default 32. */
  maxWaiting?: number;
  /**
   * Who the calling agent reads as. Unset (the default), the agent is the user's own: it gets
   * every value the user may read, with its label saying whose data it is. Set, a run's value, a
   * call's arguments (and their quotes in reasons) and an error message are given only when this
   * principal may read them (`label.canBeReadBy(principal)`); otherwise the answer says they are
   * withheld. Use it when the agent behind the MCP host is not the user's alone (a shared agent,
   * a model run by someone else).
   */
  principal?: string;
  /** The name and version the server reports. */
  serverInfo?: { name: string; version: string };
  /** Where the server reports what it does, one line at a time (stderr in the CLI). */
  log?: (line: string) => void;
}
