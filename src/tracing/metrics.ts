/**
 * sluice's instruments: decisions by tool and kind, refused sink calls (an incident signal:
 * each is a plan that tried to act where a policy said no), and tool-call latency. Made
 * lazily on the global meter provider, so they are no-ops until an SDK is registered.
 */
import type { Counter, Histogram } from "@opentelemetry/api";
import { INSTRUMENTATION, otel } from "./otel.js";

interface Instruments {
  decisions: Counter;
  blockedSends: Counter;
  toolDuration: Histogram;
  modelDuration: Histogram;
  modelTokens: Histogram;
}

let instruments: Instruments | null | undefined;
let provider: unknown;

/** The instruments, made again when the application registers another meter provider. */
export function meters(): Instruments | undefined {
  const api = otel();
  if (api === undefined) return undefined;
  const current = api.metrics.getMeterProvider();
  if (instruments === undefined || provider !== current) {
    provider = current;
    const meter = api.metrics.getMeter(INSTRUMENTATION);
    instruments = {
      decisions: meter.createCounter("sluice.tool.decisions", { description: "Tool calls decided, by tool and decision (allow, deny, ask)", unit: "{call}" }),
      blockedSends: meter.createCounter("sluice.blocked_sends", { description: "Side-effecting calls refused: denied, or asked and not approved", unit: "{call}" }),
      toolDuration: meter.createHistogram("sluice.tool.duration", { description: "Time from the first attempt of a tool call to its outcome, retries included", unit: "s" }),
      // The GenAI conventions' client metrics, one measurement per model call (retries included).
      modelDuration: meter.createHistogram("gen_ai.client.operation.duration", { description: "GenAI operation duration", unit: "s" }),
      modelTokens: meter.createHistogram("gen_ai.client.token.usage", { description: "Number of input and output tokens used", unit: "{token}" }),
    };
  }
  return instruments ?? undefined;
}
