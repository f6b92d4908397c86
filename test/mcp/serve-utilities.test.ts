/**
 * The MCP utilities `sluice serve` offers around run_plan, on both protocol eras, with the
 * official client SDK as the host: progress notifications (one per tool call that ended),
 * logging (at the level the client asked for, and none when it asked for none), cancellation
 * (a cancelled plan makes no further call), and the capabilities it declares.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createPlanServer, serveOverHttp, type HttpServing } from "../../src/mcp/serve/index.js";
import { messageIsTrusted } from "../../src/models/planner-messages.js";
import { functionDeclarations, planLanguageRules } from "../../src/models/planner-prompt.js";
import { defineTool, Label } from "../../src/index.js";

/** Every call the tools received, in order. */
const received: string[] = [];
/** Resolves the `wait` call in flight. */
let release: (() => void) | undefined;
let waitStarted: (() => void) | undefined;

const tools = [
  defineTool({
    name: "step",
    description: "Records a step.",
    parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    label: () => Label.trusted(),
    run: async ({ n }: { n: number }) => {
      received.push(`step ${n}`);
      return n;
    },
  }),
  defineTool({
    name: "wait",
    description: "Waits until the test releases it, or its signal is aborted.",
    label: () => Label.trusted(),
    run: (_args: Record<string, unknown>, ctx?: { signal?: AbortSignal }) =>
      new Promise((resolve, reject) => {
        received.push("wait");
        release = () => resolve("released");
        ctx?.signal?.addEventListener("abort", () => {
          received.push("wait aborted");
          reject(new Error("aborted"));
        });
        waitStarted?.();
      }),
  }),
];

let serving: HttpServing;

beforeAll(async () => {
  const server = createPlanServer({ tools, language: { rules: planLanguageRules(), declarations: functionDeclarations(tools), messageIsTrusted } });
  serving = await serveOverHttp(server, 0);
});

afterAll(async () => {
  await serving.close();
});

async function connect(mode: "legacy" | "auto"): Promise<{ client: Client; logs: Array<{ level: string; data: unknown }> }> {
  const logs: Array<{ level: string; data: unknown }> = [];
  const client = new Client({ name: "t", version: "1" }, { versionNegotiation: { mode } });
  client.setNotificationHandler("notifications/message", (n) => void logs.push({ level: n.params.level, data: n.params.data }));
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  return { client, logs };
}

const THREE_STEPS = `step({ n: 1 }); step({ n: 2 }); step({ n: 3 }); "done"`;

describe.each(["legacy", "auto"] as const)("sluice serve utilities (%s)", (mode) => {
  test("declares logging, and no tools/list_changed (its two tools never change)", async () => {
    const { client } = await connect(mode);
    const caps = client.getServerCapabilities();
    expect(caps?.logging).toEqual({});
    expect(caps?.tools?.listChanged).not.toBe(true);
    await client.close();
  });

  test("a request with a progress token gets one progress notification per call that ended", async () => {
    const { client } = await connect(mode);
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool({ name: "run_plan", arguments: { source: THREE_STEPS } }, { onprogress: (p) => void progress.push({ progress: p.progress, message: p.message }) });
    expect((result.structuredContent as { status: string }).status).toBe("completed");
    expect(progress).toEqual([
      { progress: 1, message: "call 1: step returned" },
      { progress: 2, message: "call 2: step returned" },
      { progress: 3, message: "call 3: step returned" },
    ]);
    await client.close();
  });

  test("logs each call (debug) and the run's summary (info, or warning when it did not complete) at the level the client asked for", async () => {
    const { client, logs } = await connect(mode);
    // 2025: logging/setLevel for the session (before it, everything is sent, as the SDK does);
    // 2026-07-28: the level travels with each request, and a request without one gets no log.
    const level = async (l: "debug" | "info" | "warning") => (mode === "legacy" ? (await client.setLoggingLevel(l), {}) : { _meta: { [LOG_LEVEL_META_KEY]: l } });
    if (mode === "auto") {
      await client.callTool({ name: "run_plan", arguments: { source: THREE_STEPS } });
      expect(logs).toEqual([]);
    }
    await client.callTool({ name: "run_plan", arguments: { source: THREE_STEPS }, ...(await level("debug")) });
    expect(logs).toEqual([
      { level: "debug", data: "run_plan: call 1: step returned" },
      { level: "debug", data: "run_plan: call 2: step returned" },
      { level: "debug", data: "run_plan: call 3: step returned" },
      { level: "info", data: "run_plan: completed; 3 call(s): 3 allowed, 0 asked, 0 denied" },
    ]);
    logs.length = 0;
    await client.callTool({ name: "run_plan", arguments: { source: THREE_STEPS }, ...(await level("info")) });
    expect(logs).toEqual([{ level: "info", data: "run_plan: completed; 3 call(s): 3 allowed, 0 asked, 0 denied" }]);
    logs.length = 0;
    await client.callTool({ name: "run_plan", arguments: { source: `step({ n: 1 });\nnull.x` }, ...(await level("warning")) });
    expect(logs).toEqual([{ level: "warning", data: "run_plan: failed at line 2; 1 call(s): 1 allowed, 0 asked, 0 denied" }]);
    await client.close();
  });

  test("a cancelled request aborts the call in flight and makes no further call", async () => {
    const { client } = await connect(mode);
    received.length = 0;
    const controller = new AbortController();
    const started = new Promise<void>((r) => (waitStarted = r));
    const call = client.callTool({ name: "run_plan", arguments: { source: `step({ n: 1 }); try { wait(); } catch (e) {} step({ n: 2 }); "done"` } }, { signal: controller.signal });
    await started;
    controller.abort("the person pressed stop");
    await expect(call).rejects.toThrow();
    // The server has had the time to go on, were it going to.
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toEqual(["step 1", "wait", "wait aborted"]);
    release?.();
    await client.close();
  });
});
