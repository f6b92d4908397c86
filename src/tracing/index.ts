/**
 * Tracing over `@opentelemetry/api` (an optional peer): GenAI-convention spans for runs, model
 * calls and tool calls, decision counters and a latency histogram, all no-ops when no SDK is
 * registered. See docs/tool-calls.md for where each span starts and ends.
 */
// Not otel.ts: its declarations name @opentelemetry/api's types, and the public ones must not.
export { INSTRUMENTATION, A as ATTRIBUTES, mcpToolAttributes } from "./attributes.js";
export { traceparentOf, type SpanHandle, type TraceSpan } from "./handle.js";
export { startRunSpan, startAgentSpan, startChatSpan, traceDecision, RUN_STEP, type RunSpan, type AgentSpan, type AgentSpanOptions, type ChatSpan, type ChatUsage, type ChatResult, type ChatServer, type DecisionInfo } from "./spans.js";
export { otelCallObserver } from "./observer.js";
export { chatObserver, type ChatObserverOptions } from "./chat.js";
export * from "./operator.js";
