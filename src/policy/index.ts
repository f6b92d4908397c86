/**
 * The policy layer: sink rules over argument labels, ready policies for common tool
 * families, the permission engine, risk classes, endorsements, explanations and summaries.
 */
export type { Policy, Effect } from "./types.js";
export { combineDecisions, strictness, stricter, isDecision } from "./decisions.js";
export { describeSource, originText, secrecyText, labelText, listText } from "./describe.js";
export { explainCall, contextText, isFlagged } from "./explain.js";
export { traceReason } from "./trace-reason.js";
export type { ArgumentProvenance, CallExplanation } from "./explain.js";
export {
  requireTrusted,
  requirePublic,
  requireTrustedIfPrivate,
  requireReadableBy,
  requireTrustedContext,
  requireOneOf,
  all,
  askInstead,
  askIfApproverMayRead,
} from "./rules.js";
export type { RuleOptions, ReadableByOptions, ApproverOptions } from "./rules.js";
export { argumentLabel, principalsOf } from "./argument.js";
export type { ArgumentLabel, PrincipalReader, Principals } from "./argument.js";
export {
  outboundMessagePolicy,
  emailPolicy,
  messagePolicy,
  calendarInvitePolicy,
  fileSharePolicy,
  paymentPolicy,
  webRequestPolicy,
} from "./families.js";
export type { AskOptions, MessagePolicyOptions, FileSharePolicyOptions, PaymentPolicyOptions, WebRequestPolicyOptions } from "./families.js";
export { declareRequirements, requirementsOf, sameRequirements } from "./requirements.js";
export type { Requirement, RequirementEffect, PolicyRequirements } from "./requirements.js";
export { compileRule } from "./patterns.js";
export type { PermissionRule, PermissionRuleInput, CompiledRule } from "./patterns.js";
export { createPermissions } from "./permissions.js";
export type { Permissions, PermissionOptions, TargetExtractor } from "./permissions.js";
export { riskOf, needsApproval, riskText, riskDefaults } from "./risk.js";
export type { RiskFacts, RiskClass } from "./risk.js";
export { createEndorsements, withEndorsements, endorseCall, endorsementsFor, endorsedView } from "./endorsements.js";
export type { EndorseInput, Endorsement, AuditEntry, EndorsementStore, EndorseCallOptions } from "./endorsements.js";
export {
  defaultToolPolicy,
  runPolicy,
  decideCall,
  explainDecision,
  approvalRequest,
  formatApproval,
  callRecord,
  callText,
} from "./decide.js";
export type { DecideOptions, ApprovalPrompt, DecisionRecord } from "./decide.js";
export { summarizeCalls } from "./summary.js";
export type { CallSummary } from "./summary.js";
