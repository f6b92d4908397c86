/** Without an SDK registered, tracing does nothing and hands tools no traceparent. */
import { describe, expect, it } from "vitest";
import { createCallLayer } from "../../src/calls/index.js";
import { otelCallObserver, startChatSpan, startRunSpan, traceDecision } from "../../src/tracing/index.js";
import { request, scriptedTool } from "../calls/support.js";

describe("tracing with no SDK", () => {
  it("spans are not recorded and calls run as without an observer", async () => {
    const run = startRunSpan({ agentName: "a" });
    expect(run.span?.isRecording() ?? false).toBe(false);
    const chat = startChatSpan({ model: "m", parent: run });
    chat.end({ usage: { input: 1, cacheRead: 0, cacheWrite: 0, output: 1 } });
    traceDecision({ tool: "t", callId: "c", decision: "deny", sideEffect: true, argsTrusted: false, parent: run });
    const { tool, seen } = scriptedTool(["ok"]);
    const out = await createCallLayer({ observer: otelCallObserver() }).executeCall({ ...request(tool), trace: { parent: run } });
    run.end({ status: "completed" });
    expect(out.kind).toBe("value");
    expect(seen[0].ctx.traceparent).toBeUndefined();
  });
});
