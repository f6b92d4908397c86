/**
 * The call layer's observer over OpenTelemetry: an `execute_tool <tool>` span per admitted
 * call (INTERNAL, per the conventions), an event per retry, the outcome's `error.type`, and
 * the latency histogram.
 */
import type { CallInfo, CallObservation, CallObserver, CallOutcome } from "../calls/types.js";
import { A } from "./attributes.js";
import { attemptEvents, endSpan, startSpan, traceparentOf, withinSpan } from "./handle.js";
import { meters } from "./metrics.js";
import { otel } from "./otel.js";

function attributesOf(c: CallInfo): Record<string, string | number | boolean> {
  const attrs: Record<string, string | number | boolean> = {
    [A.operation]: "execute_tool",
    [A.toolName]: c.tool,
    [A.toolCallId]: c.callId,
    [A.toolType]: "function",
    [A.decision]: c.decision,
    [A.argsTrusted]: c.argsTrusted,
    [A.sideEffect]: c.sideEffect,
    [A.resource]: c.resource,
    ...(c.attributes ?? {}),
  };
  if (c.description !== "") attrs[A.toolDescription] = c.description;
  if (c.approved !== undefined) attrs[A.approved] = c.approved;
  return attrs;
}

function errorTypeOf(o: CallOutcome): string | undefined {
  return o.kind === "value" ? undefined : o.kind === "limit" ? "limit" : o.failure.kind;
}

let noopProvider: unknown;

/**
 * Whether no tracer provider is registered: the global proxy still delegates to OpenTelemetry's
 * no-op provider (compared with the one a fresh proxy delegates to, so a second copy of the API
 * module, whose no-op differs, reads as "a tracer is set up": the full path, slower, not wrong).
 * Checked per call, as an SDK may be registered at any time.
 */
function noTracer(): boolean {
  const api = otel()!;
  noopProvider ??= new api.ProxyTracerProvider().getDelegate();
  const provider = api.trace.getTracerProvider() as { getDelegate?: () => unknown };
  return typeof provider.getDelegate === "function" && provider.getDelegate() === noopProvider;
}

/** The call's duration on the latency histogram (nothing without a meter provider). */
function recordDuration(info: CallInfo, outcome: CallOutcome, errorType: string | undefined): void {
  meters()?.toolDuration.record(outcome.durationMs / 1000, { [A.toolName]: info.tool, ...(errorType !== undefined ? { "error.type": errorType } : {}) });
}

/** The duration histogram alone: no tracer to make spans for (or no OpenTelemetry at all). */
function measuredOnly(info: CallInfo): CallObservation {
  return {
    attempt() {},
    retry() {},
    end: (outcome) => recordDuration(info, outcome, errorTypeOf(outcome)),
  };
}

/** Makes spans and measurements for every call the layer runs; no-ops without an SDK. */
export function otelCallObserver(): CallObserver {
  return {
    startCall(info): CallObservation {
      // No span, no context switch around the tool, when nothing would keep them: each call's
      // cost (issue 11). The duration is still measured.
      if (otel() === undefined || noTracer()) return measuredOnly(info);
      const h = startSpan(`execute_tool ${info.tool}`, "internal", attributesOf(info), info.parent);
      const span = h.span;
      const traceparent = traceparentOf(span);
      return {
        ...(traceparent !== undefined ? { traceparent } : {}),
        ...attemptEvents(span),
        within: (fn) => withinSpan(h, fn),
        end(outcome) {
          span?.setAttribute(A.attempts, outcome.attempts);
          const errorType = errorTypeOf(outcome);
          recordDuration(info, outcome, errorType);
          endSpan(span, errorType, outcome.kind === "error" ? outcome.failure.summary : undefined);
        },
      };
    },
  };
}
