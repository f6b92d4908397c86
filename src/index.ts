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
