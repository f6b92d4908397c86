/**
 * A model call as the call layer sees it, watched as a GenAI `chat <model>` span: one span per
 * logical call, covering its retries (the conventions ask for that), with an event per retry,
 * the attempts made, usage and response details from the answer, and the conventions' client
 * duration and token metrics.
 */
import type { CallObservation, CallObserver, CallOutcome } from "../calls/types.js";
import { A } from "./attributes.js";
import { attemptEvents, withinSpan } from "./handle.js";
import { meters } from "./metrics.js";
import { startChatSpan, type ChatResult, type ChatServer } from "./spans.js";

/** What {@link chatObserver} needs to know about the call and how to read its answer. */
export interface ChatObserverOptions {
  model: string;
  provider?: string;
  role?: "planner" | "reader";
  maxTokens?: number;
  server?: ChatServer;
  /** The run's span, when the call is made inside a run. */
  parent?: unknown;
  /** Usage, response model, id and stop reason of the answer (the layer's value). */
  details(value: unknown): Omit<ChatResult, "errorType">;
  /** The error code of a failed call: the provider's, else the layer's failure kind. */
  errorType(outcome: Exclude<CallOutcome, { kind: "value" }>): string;
}

/** An observer for one model call; pass it as the request's `observer`. */
export function chatObserver(o: ChatObserverOptions): CallObserver {
  return {
    startCall(): CallObservation {
      const chat = startChatSpan(o);
      const span = chat.span;
      return {
        ...attemptEvents(span),
        // The SDK's own span of the request (and fetch instrumentation's) nest under this one.
        within: (fn) => withinSpan(chat, fn),
        end(outcome) {
          span?.setAttribute(A.attempts, outcome.attempts);
          const base = { [A.operation]: "chat", [A.provider]: o.provider ?? "anthropic", [A.requestModel]: o.model };
          if (outcome.kind === "value") {
            const details = o.details(outcome.value);
            chat.end(details);
            const m = meters();
            const attrs = { ...base, ...(details.responseModel !== undefined ? { [A.responseModel]: details.responseModel } : {}) };
            m?.modelDuration.record(outcome.durationMs / 1000, attrs);
            if (details.usage !== undefined) {
              const u = details.usage;
              m?.modelTokens.record(u.input + u.cacheRead + u.cacheWrite, { ...attrs, [A.tokenType]: "input" });
              m?.modelTokens.record(u.output, { ...attrs, [A.tokenType]: "output" });
            }
            return;
          }
          const errorType = o.errorType(outcome);
          chat.end({ errorType });
          meters()?.modelDuration.record(outcome.durationMs / 1000, { ...base, "error.type": errorType });
        },
      };
    },
  };
}
