/**
 * The 2026-07-28 input_required rounds of run_plan on the wire, as a client that speaks raw
 * JSON-RPC sends them (the conformance suite checks these rules only on its own fixture tools):
 * a tampered requestState is a JSON-RPC error, a retry that leaves an ask unanswered is asked
 * again, and an answered round goes on where the plan stopped.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { startHttp, type Started } from "./serve-support.js";

let server: Started;

beforeAll(async () => {
  server = await startHttp();
});

afterAll(async () => {
  await server.handle.stop();
});

const NOTES_TO_BOSS = `send_email({ to: "boss@corp.com", subject: "Q3 notes", body: read_file({ path: "~/notes/q3-plan.md" }) });\n"sent"`;

interface RpcResponse {
  result?: { resultType?: string; inputRequests?: Record<string, { method: string }>; requestState?: string; structuredContent?: { status: string; value?: unknown }; isError?: boolean };
  error?: { code: number; message: string };
}

let id = 0;

/** One tools/call of run_plan at revision 2026-07-28, with the per-request envelope. */
async function call(params: Record<string, unknown>): Promise<RpcResponse> {
  const body = {
    jsonrpc: "2.0",
    id: ++id,
    method: "tools/call",
    params: {
      name: "run_plan",
      arguments: { source: NOTES_TO_BOSS },
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      },
    },
  };
  const res = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "run_plan" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  // The answer comes as JSON or as server-sent events; the response is the event with our id.
  const messages = (res.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)];
  return messages.find((m: { id?: number }) => m.id === body.id) as RpcResponse;
}

const accept = { action: "accept", content: { approve: true } };

test("a plan that asks answers input_required with a signed requestState; the answered retry goes on and completes", async () => {
  const first = await call({});
  expect(first.result?.resultType).toBe("input_required");
  const [key] = Object.keys(first.result!.inputRequests!);
  expect(first.result!.inputRequests![key].method).toBe("elicitation/create");
  const done = await call({ requestState: first.result!.requestState, inputResponses: { [key]: accept } });
  expect(done.result?.structuredContent).toEqual(expect.objectContaining({ status: "completed", value: "sent" }));
});

test("a tampered requestState is refused with a JSON-RPC error, and nothing of the plan runs on", async () => {
  const first = await call({});
  const [key] = Object.keys(first.result!.inputRequests!);
  const tampered = await call({ requestState: `${first.result!.requestState}-TAMPERED`, inputResponses: { [key]: accept } });
  expect(tampered.result).toBeUndefined();
  expect(tampered.error?.code).toEqual(expect.any(Number));
  // The plan still waits for its real answer: the untampered state is honoured.
  const done = await call({ requestState: first.result!.requestState, inputResponses: { [key]: accept } });
  expect(done.result?.structuredContent?.status).toBe("completed");
});

test("a retry that carries no answer for an ask is asked again (not taken as a no)", async () => {
  const first = await call({});
  const [key] = Object.keys(first.result!.inputRequests!);
  const again = await call({ requestState: first.result!.requestState, inputResponses: {} });
  expect(again.result?.resultType).toBe("input_required");
  expect(Object.keys(again.result!.inputRequests!)).toEqual([key]);
  const done = await call({ requestState: again.result!.requestState, inputResponses: { [key]: { action: "decline" } } });
  expect(done.result?.structuredContent?.status).toBe("blocked");
});
