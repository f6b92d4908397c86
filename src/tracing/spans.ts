/**
 * The spans a run makes besides its tool calls: `invoke_agent` around a run, `chat <model>`
 * around each model call, and the decision of every tool call (counted, and for a refused
 * call an `execute_tool` span of its own, since it never reaches the call layer).
 */
import { A } from "./attributes.js";
import { endSpan, NO_SPAN, startSpan, type SpanHandle } from "./handle.js";
import { meters } from "./metrics.js";

/** Token counts of a model call, as src/models counts them (input excludes the cached tokens). */
export interface ChatUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

/** A started span; `end` may be called once, later calls do nothing. */
export interface RunSpan extends SpanHandle {
  end(result: { status: "completed" | "blocked" | "failed"; error?: { kind: string; message?: string }; calls?: number }): void;
}

function once<T>(f: (x: T) => void): (x: T) => void {
  let done = false;
  return (x) => {
    if (done) return;
    done = true;
    f(x);
  };
}

/** What identifies an agent on its `invoke_agent` span. */
export interface AgentSpanOptions {
  agentName?: string;
  conversationId?: string;
  /** The span above: a handle from sluice, else the active context's span. */
  parent?: unknown;
}

/** The name of a run's span when it is one step of an agent's request (see {@link startRunSpan}). */
export const RUN_STEP = "sluice.run";

function startInvokeAgent(o: AgentSpanOptions): SpanHandle {
  const attrs: Record<string, string> = { [A.operation]: "invoke_agent", [A.provider]: "sluice" };
  if (o.agentName !== undefined) attrs[A.agentName] = o.agentName;
  if (o.conversationId !== undefined) attrs[A.conversationId] = o.conversationId;
  const h = startSpan(o.agentName === undefined ? "invoke_agent" : `invoke_agent ${o.agentName}`, "internal", attrs, o.parent);
  return h === NO_SPAN ? h : { ...h, operation: "invoke_agent" };
}

/**
 * Starts the span of one run: `invoke_agent` (INTERNAL: the agent runs in this process), under
 * `parent` or else the active span; but when `parent` is an agent's `invoke_agent` span (the
 * agent runs one program per plan round), a {@link RUN_STEP} span under it, so one request of an
 * agent is one `invoke_agent` span however many programs it runs (docs/tool-calls.md).
 */
export function startRunSpan(o: AgentSpanOptions = {}): RunSpan {
  const step = (o.parent as SpanHandle | undefined)?.operation === "invoke_agent";
  const h = step ? startSpan(RUN_STEP, "internal", {}, o.parent) : startInvokeAgent(o);
  if (h === NO_SPAN) return { ...NO_SPAN, end() {} };
  return {
    ...h,
    end: once((r) => {
      h.span?.setAttribute(A.status, r.status);
      if (r.calls !== undefined) h.span?.setAttribute("sluice.tool_calls", r.calls);
      endSpan(h.span, r.status === "completed" ? undefined : r.status === "blocked" ? "blocked" : (r.error?.kind ?? "failed"), r.error?.kind);
    }),
  };
}

/** The `invoke_agent` span of one request to an agent; `end` may be called once. */
export interface AgentSpan extends SpanHandle {
  end(result: { status: "completed" | "blocked" | "failed"; stop: string; runs: number; calls: number }): void;
}

/** Starts the `invoke_agent` span of one agent request: its planner calls and program runs are its children. */
export function startAgentSpan(o: AgentSpanOptions = {}): AgentSpan {
  const h = startInvokeAgent(o);
  if (h === NO_SPAN) return { ...NO_SPAN, end() {} };
  return {
    ...h,
    end: once((r) => {
      h.span?.setAttribute(A.status, r.status);
      h.span?.setAttribute("sluice.stop", r.stop);
      h.span?.setAttribute("sluice.runs", r.runs);
      h.span?.setAttribute("sluice.tool_calls", r.calls);
      endSpan(h.span, r.status === "completed" ? undefined : r.status === "blocked" ? "blocked" : r.stop, r.status === "completed" ? undefined : r.stop);
    }),
  };
}

/** A started `chat <model>` span. */
export interface ChatSpan extends SpanHandle {
  end(result: ChatResult): void;
}

/** How a model call ended, for its span. */
export interface ChatResult {
  usage?: ChatUsage;
  responseModel?: string;
  responseId?: string;
  finishReason?: string;
  /** The provider's error code (`"overloaded_error"`) or the error's class, when the call failed. */
  errorType?: string;
}

/** Where the model API is, for `server.address` and `server.port`. */
export interface ChatServer {
  address: string;
  port?: number;
}

/** Starts the `chat <model>` span of one model call (CLIENT: the model is remote). */
export function startChatSpan(o: { model: string; provider?: string; role?: "planner" | "reader"; maxTokens?: number; server?: ChatServer; parent?: unknown }): ChatSpan {
  const attrs: Record<string, string | number> = { [A.operation]: "chat", [A.provider]: o.provider ?? "anthropic", [A.requestModel]: o.model };
  if (o.maxTokens !== undefined) attrs[A.maxTokens] = o.maxTokens;
  if (o.role !== undefined) attrs[A.role] = o.role;
  if (o.server !== undefined) {
    attrs[A.serverAddress] = o.server.address;
    if (o.server.port !== undefined) attrs[A.serverPort] = o.server.port;
  }
  const h = startSpan(`chat ${o.model}`, "client", attrs, o.parent);
  if (h === NO_SPAN) return { ...NO_SPAN, end() {} };
  return {
    ...h,
    end: once((r) => {
      const s = h.span;
      if (s !== undefined && s.isRecording()) {
        if (r.usage !== undefined) {
          // The conventions count cached input in input_tokens and break it out beside it.
          s.setAttribute(A.inputTokens, r.usage.input + r.usage.cacheRead + r.usage.cacheWrite);
          s.setAttribute(A.outputTokens, r.usage.output);
          s.setAttribute(A.cacheRead, r.usage.cacheRead);
          s.setAttribute(A.cacheWrite, r.usage.cacheWrite);
        }
        if (r.responseModel !== undefined) s.setAttribute(A.responseModel, r.responseModel);
        if (r.responseId !== undefined) s.setAttribute(A.responseId, r.responseId);
        if (r.finishReason !== undefined) s.setAttribute(A.finishReasons, [r.finishReason]);
      }
      endSpan(s, r.errorType);
    }),
  };
}

/** One tool call's decision, as the host makes it (before the call layer). */
export interface DecisionInfo {
  tool: string;
  callId: string;
  decision: "allow" | "deny" | "ask";
  approved?: boolean;
  sideEffect: boolean;
  argsTrusted: boolean;
  /**
   * Exported as `sluice.reason`: public, trusted text only (policy's `traceReason`: the flagged
   * argument names and label kinds), never the person's explanation, which quotes arguments.
   */
  reason?: string;
  parent?: unknown;
}

/**
 * Counts a decision; a refused call (denied, or asked and not approved) also gets its
 * `execute_tool` span here, ended at once, since the call layer never sees it. Admitted calls
 * get theirs from {@link otelCallObserver}.
 */
export function traceDecision(d: DecisionInfo): void {
  const m = meters();
  const refused = d.decision === "deny" || (d.decision === "ask" && d.approved !== true);
  if (m !== undefined) {
    const attrs: Record<string, string | boolean> = { [A.toolName]: d.tool, [A.decision]: d.decision, [A.sideEffect]: d.sideEffect };
    if (d.approved !== undefined) attrs[A.approved] = d.approved;
    m.decisions.add(1, attrs);
    if (refused && d.sideEffect) m.blockedSends.add(1, { [A.toolName]: d.tool, [A.decision]: d.decision });
  }
  if (!refused) return;
  const attrs: Record<string, string | boolean> = {
    [A.operation]: "execute_tool",
    [A.toolName]: d.tool,
    [A.toolCallId]: d.callId,
    [A.toolType]: "function",
    [A.decision]: d.decision,
    [A.argsTrusted]: d.argsTrusted,
    [A.sideEffect]: d.sideEffect,
  };
  if (d.approved !== undefined) attrs[A.approved] = d.approved;
  if (d.reason !== undefined) attrs[A.reason] = d.reason;
  const h = startSpan(`execute_tool ${d.tool}`, "internal", attrs, d.parent);
  endSpan(h.span, "blocked", d.decision === "deny" ? "denied by policy" : "not approved");
}
