/**
 * A span together with the context its children start in; the opaque `parent` the call layer
 * passes around. The exported types are sluice's own shapes, not `@opentelemetry/api`'s, so
 * sluice's declarations type-check where that optional peer is not installed.
 */
import type { Context, Span } from "@opentelemetry/api";
import { INSTRUMENTATION, otel } from "./otel.js";

/**
 * As much of an OpenTelemetry `Span` as sluice's types name. It is an `@opentelemetry/api`
 * `Span`: cast it to one to use the rest.
 */
export interface TraceSpan {
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
  isRecording(): boolean;
  setAttribute(key: string, value: string | number | boolean | string[]): unknown;
  addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
  end(): void;
}

export interface SpanHandle {
  readonly span: TraceSpan | undefined;
  /** The OpenTelemetry `Context` the span's children start in (opaque here). */
  readonly context: unknown;
  /** `"invoke_agent"` for an agent's or a run's span: a run started under an agent's is a step of it. */
  readonly operation?: string;
}

/** What a run or model call span is when tracing is off. */
export const NO_SPAN: SpanHandle = Object.freeze({ span: undefined, context: undefined });

/** The context a child of `parent` starts in: the parent's, else the active one. */
function parentContext(parent: unknown): Context | undefined {
  const api = otel();
  if (api === undefined) return undefined;
  const p = parent as SpanHandle | undefined;
  return (p?.context as Context | undefined) ?? api.context.active();
}

/** W3C `traceparent` of a recording span (for MCP `_meta`), else undefined. */
export function traceparentOf(span: TraceSpan | undefined): string | undefined {
  const api = otel();
  if (span === undefined || api === undefined || !span.isRecording()) return undefined;
  const c = span.spanContext();
  if (!api.isSpanContextValid(c)) return undefined;
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/** Starts a span under `parent` and returns it with its context. */
export function startSpan(name: string, kind: "internal" | "client", attributes: Record<string, string | number | boolean>, parent: unknown): SpanHandle {
  const api = otel();
  if (api === undefined) return NO_SPAN;
  const ctx = parentContext(parent)!;
  const tracer = api.trace.getTracer(INSTRUMENTATION);
  const span = tracer.startSpan(name, { kind: kind === "client" ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL, attributes }, ctx);
  return { span, context: api.trace.setSpan(ctx, span) };
}

/** Runs `fn` with `handle`'s span active (its context current), so spans made inside are its children. */
export function withinSpan<T>(handle: SpanHandle, fn: () => T): T {
  const api = otel();
  if (api === undefined || handle.context === undefined) return fn();
  return api.context.with(handle.context as Context, fn);
}

/** Ends a span with an error status and `error.type` when `errorType` is given. */
export function endSpan(given: TraceSpan | undefined, errorType?: string, description?: string): void {
  const api = otel();
  if (given === undefined || api === undefined) return;
  // Every span sluice holds was made by startSpan: an OpenTelemetry Span.
  const span = given as Span;
  if (errorType !== undefined) {
    span.setAttribute("error.type", errorType);
    span.setStatus({ code: api.SpanStatusCode.ERROR, ...(description !== undefined ? { message: description } : {}) });
  }
  span.end();
}

/** The events of a call's attempts on its span: one when an attempt after the first starts, one per retry. */
export function attemptEvents(span: TraceSpan | undefined): { attempt(n: number): void; retry(n: number, waitMs: number, kind: string): void } {
  return {
    attempt(n) {
      if (n > 1) span?.addEvent("sluice.attempt", { "sluice.attempts": n });
    },
    retry(n, waitMs, kind) {
      span?.addEvent("sluice.retry", { "sluice.failed_attempt": n, "sluice.wait_ms": waitMs, "error.type": kind });
    },
  };
}
