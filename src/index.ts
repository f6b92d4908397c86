/**
 * sluice: run an AI agent's plan with a label on every value, so that text written by
 * strangers cannot steer what the agent does without a person approving it.
 */
export { Label, joinAll, labeled, isLabeled } from "./labels/index.js";
export type { Readers, LabelSpec, Labeled } from "./labels/index.js";
export { defineTool, allow, deny, ask, labelIsDeclared } from "./tools/types.js";
export type { Tool, ToolSpec, ToolCall, Decision, JsonSchema, Json } from "./tools/types.js";
export type { OutputLabels, LabelTemplate } from "./tools/output.js";
export { createRuntime, NotEnoughInformation, QUERY } from "./runtime/index.js";
export type {
  Runtime,
  SluiceRuntime,
  RuntimeOptions,
  ExtendedRuntimeOptions,
  RunOptions,
  RunResult,
  RunError,
  CallRecord,
  Limits,
  QuarantinedModel,
  ApprovalRequest,
} from "./runtime/index.js";
export { ProgramError } from "./language/errors.js";
export * from "./policy/index.js";
export { checkPlan, planFeedback } from "./plancheck/index.js";
export type { PlanCheck, PlanCheckOptions, PlanFinding } from "./plancheck/index.js";
export * from "./models/index.js";
export {
  connectMcp,
  McpConfigError,
  McpConnectError,
  McpToolError,
  PinFileError,
  readMcpConfig,
  resolveMcpConfig,
  mcpSinkPolicy,
  sendingIsReading,
  sluiceToolName,
  mcpOffer,
  IFC_META_KEY,
  PARTS_META_KEY,
} from "./mcp/index.js";
export type {
  McpConfig,
  McpServerConfig,
  McpToolOverride,
  McpOptions,
  McpConnection,
  McpToolInfo,
  McpServerInfo,
  McpPinStatus,
  McpPolicyName,
  McpTrust,
  LockFile,
} from "./mcp/index.js";
export type { ToolContext, RetryOptions, RateLimitOptions, BreakerOptions } from "./tools/types.js";
export {
  createCallLayer,
  createAttemptBudget,
  createKeyring,
  idempotencyKey,
  BudgetRefusal,
  DEFAULT_RETRY,
  isRetryable,
  retryAfterOf,
} from "./calls/index.js";
export type { CallLayer, CallLayerOptions, CallRequest, CallOutcome, CallFailure, FailureKind, CallObserver, CallObservation, CallInfo, AttemptBudget, Keyring } from "./calls/index.js";
export { otelCallObserver, startRunSpan, startChatSpan, traceDecision, traceparentOf, mcpToolAttributes, operatorFigures, passHatK, percentile } from "./tracing/index.js";
export type { RunSpan, ChatSpan, TraceSpan, SpanHandle, DecisionInfo, TaskRun, OperatorFigures } from "./tracing/index.js";
export * from "./a2a/index.js";
export * from "./search/index.js";
