/**
 * `sluice/testing`: property-test your own tools, labels and policies the way sluice tests its
 * interpreter. Generate plans (fast-check arbitraries over the whole supported language), run
 * each on two inputs that differ only in what an attacker controls (or only in secrets), and
 * check that the sinks you care about saw the same thing: {@link checkNoninterference}.
 *
 * Needs `fast-check` (a peer dependency) in your test suite.
 */
export {
  planArb,
  soundnessProgramArb,
  programArb,
  inputRecordArb,
  listItemArb,
  inputPairArb,
  soundnessTools,
  SOURCE_LABELS,
  numExpr,
  strExpr,
  condExpr,
  arrExpr,
  objExpr,
  sinkValue,
  statementArb,
  blockArb,
  sinkCallArb,
  topScope,
  FEATURES,
} from "./arbitraries.js";
export type { InputRecord, ListItem, SoundnessInput, PairKind, PlanOptions, SoundnessToolOptions, SinkSpec, ArgKind, ExprScope, StmtScope } from "./arbitraries.js";
export { focusedStatementArb } from "./gen-focused.js";
export { libraryStatementArb } from "./gen-library.js";
export { calledPositionArb } from "./gen-positions.js";
export { catchFinallyStatementArb, guardStatementArb } from "./gen-guards.js";
export { calleeStatementArb } from "./gen-callees.js";
export { logicalStatementArb } from "./gen-logical.js";
export { cutsStatementArb } from "./gen-cuts.js";
export { placeStatementArb, PLACE_TAGS } from "./gen-places.js";
export { mechanismStatementArb, MECHANISM_TAGS } from "./gen-mechanisms.js";
export { hostilePlanArb, HOSTILE_STATEMENTS, REFUSED_FRAGMENTS } from "./gen-hostile.js";
export { recordSource, labeledListSource, strictSink, obedientReader, obedientAnswer } from "./kit-tools.js";
export type { Guard } from "./kit-tools.js";
export { checkNoninterference, allowedCalls, sinkTrace, tracesAgree, agree, runPair, minimizeLines, cleanFor, plannerFeedback } from "./noninterference.js";
export type { NoninterferenceOptions, NoninterferenceReport, Counterexample, Varying, PairSetup, PairResult } from "./noninterference.js";
export { runNative, compareWithNative, compareLabelsInert, nativeHostFor, nativePlain, canonical, isSecurityStop, runSluice } from "./differential.js";
export type { NativeHost, NativeOutcome, Difference } from "./differential.js";
