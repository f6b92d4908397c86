export { createAgent } from "./agent.js";
export type { Agent, AgentAttempt, AgentToolSearch, AgentOptions, AgentResult, AgentRuntime, AgentStopReason, RuntimeFactory } from "./agent.js";
export type { AgentPlanCheckOptions, PlanCheckRecord } from "./agent-plancheck.js";
export { anthropicPlanner } from "./anthropic-planner.js";
export type { AnthropicPlannerOptions } from "./anthropic-planner.js";
export { anthropicReader, ReaderError } from "./anthropic-reader.js";
export type { AnthropicReaderOptions } from "./anthropic-reader.js";
export { ModelError } from "./anthropic-client.js";
export type { AnthropicConnection } from "./anthropic-client.js";
export { scriptedPlanner, scriptedReader, NOT_ENOUGH_INFORMATION } from "./scripted.js";
export type {
  RawAnswer,
  ReaderRequest,
  ReaderRow,
  ReaderScript,
  ScriptedPlanner,
  ScriptedPlannerOptions,
  ScriptedReader,
  ScriptedReaderOptions,
  ScriptedTurn,
  SearchAnswer,
} from "./scripted.js";
export { adversarialReader, INJECTION_MARKERS } from "./adversarial.js";
export type { AdversarialReader, AdversarialReaderOptions } from "./adversarial.js";
export { SEARCH_TOOL, SEARCH_TOOL_NAME } from "./planner-search.js";
export type { PlanningSearch } from "./planner-search.js";
export type { PlannerSearch } from "./types.js";
export { recordReplay } from "./record-replay.js";
export type { RecordMode, RecordReplayOptions } from "./record-replay.js";
export { createUsageMeter, estimateTokens, BudgetExceededError } from "./usage.js";
export type { Budget, BudgetLimit, CallEstimate, ModelUsage, Reservation, UsageMeter, UsageMeterOptions, UsageReport } from "./usage.js";
export { withMeter, currentMeter } from "./meter-context.js";
export { DEFAULT_PRICES, costOf, priceOf } from "./prices.js";
export type { ModelPrice, PriceTable } from "./prices.js";
export { functionDeclarations, planLanguageRules, plannerSystemPrompt, plannerFixedPrompt, plannerToolsBlock, toolDeclaration } from "./planner-prompt.js";
export type { PlannerPromptOptions } from "./planner-prompt.js";
export { EXTENDED_LANGUAGE, languageSection } from "./planner-language.js";
export type { PlannerLanguage } from "./planner-language.js";
export { extractProgram, failureTurn, requestTurn, todayText } from "./planner-messages.js";
export { typeText as schemaToTypeScript } from "./schema-to-ts.js";
export { READER_SYSTEM_PROMPT } from "./reader-output.js";
export type { ChatMessage, NamedReader, PlannerModel, PlannerRequest, PlannerResponse, TokenUsage } from "./types.js";
export { messageIsTrusted } from "./planner-messages.js";
export { MESSAGE_WORDS, shownMessage, type PlannerKnows } from "./planner-feedback.js";
