/**
 * The tool-call layer: timeouts, retries with full jitter, idempotency keys, circuit
 * breakers, token buckets and attempt budgets, between a decided call and the tool.
 * See docs/tool-calls.md.
 */
export * from "./types.js";
export { createCallLayer, madeLayer, type LayerSharing } from "./layer.js";
export { DEFAULT_RETRY, resolveRetry, type ResolvedRetry } from "./execute.js";
export { backoffBound, retryWait } from "./backoff.js";
export { isRetryable, isCallerFault, retryAfterOf, statusOf } from "./classify.js";
export { countsAgainstBreaker } from "./breakers.js";
export { failureLabelOf, failureSummary, failuresAreOwn } from "./failure.js";
export { allBudgets, createAttemptBudget, lentBudget, withLentBudget, withoutLentBudget, type AttemptLimits, type AttemptLedger } from "./budget.js";
export { createKeyring, idempotencyKey, newRunKey, type Keyring } from "./idempotency.js";
export { withCallScope, currentCallScope, type CallScope } from "./scope.js";
