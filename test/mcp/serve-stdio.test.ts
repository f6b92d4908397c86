/**
 * `sluice serve` over stdio, as an MCP host runs it: the built command in a child process,
 * spawned by the official client SDK's stdio transport, on both protocol eras. One server
 * process per era serves the tests of that era (a host keeps one connection too); the era is
 * pinned, since negotiation is the SDK's (its "auto" mode would spawn a probe process first).
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { PlanAnswer } from "../../src/mcp/serve/index.js";

// Built once per test run by test/support/build-cli.ts, apart from dist/.
const main = inject("sluiceCli");

beforeAll(() => {
  expect(existsSync(main)).toBe(true);
});

type Mode = "legacy" | { pin: "2026-07-28" };

async function spawnServe(mode: Mode, elicit: boolean): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string; asked: string[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [main, "serve"], stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: "sluice-test-host", version: "1.0.0" }, { capabilities: elicit ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode } });
  const asked: string[] = [];
  if (elicit) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: true } };
    });
  }
  await client.connect(transport);
  return { client, transport, stderr: () => err, asked };
}

async function runPlan(client: Client, source: string): Promise<PlanAnswer> {
  const result = await client.callTool({ name: "run_plan", arguments: { source } });
  return result.structuredContent as unknown as PlanAnswer;
}

describe.each([["2025-11-25", "legacy"], ["2026-07-28", { pin: "2026-07-28" }]] as const)("sluice serve over stdio (%s)", (revision, mode) => {
  let served: Awaited<ReturnType<typeof spawnServe>>;
  beforeAll(async () => {
    served = await spawnServe(mode, true);
    expect(served.client.getNegotiatedProtocolVersion()).toBe(revision);
  }, 30_000);
  afterAll(async () => {
    await served.client.close();
  });

  test("runs a plan and answers its value with its label; says on stderr what it serves", async () => {
    const answer = await runPlan(served.client, `get_last_email().from`);
    expect(answer).toEqual(
      expect.objectContaining({ status: "completed", value: "eve@evil.com", label: { trusted: false, readers: "public", sources: ["email:eve@evil.com"] } }),
    );
    expect(served.stderr()).toContain("serving 5 tools of the example workspace over stdio");
    expect(served.asked).toEqual([]);
  }, 30_000);

  test("puts an ask to the person through elicitation and goes on when approved", async () => {
    const answer = await runPlan(served.client, `send_email({ to: "boss@corp.com", body: read_file({ path: "~/notes/q3-plan.md" }) })`);
    expect(served.asked).toHaveLength(1);
    expect(served.asked[0]).toContain('to: "boss@corp.com"');
    expect(answer.status).toBe("completed");
    expect(answer.calls.at(-1)).toEqual(expect.objectContaining({ tool: "send_email", decision: "ask", approved: true }));
  }, 30_000);
});

test("the server ends when the host closes its standard input", async () => {
  const { client, transport } = await spawnServe("legacy", false);
  const pid = transport.pid;
  expect(pid).toEqual(expect.any(Number));
  await client.close();
  const alive = () => {
    try {
      process.kill(pid as number, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
  expect(alive()).toBe(false);
}, 30_000);
