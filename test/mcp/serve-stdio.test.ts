/**
 * `sluice serve` over stdio, as an MCP host runs it: the built command in a child process,
 * spawned by the official client SDK's stdio transport, on both protocol eras.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { PlanAnswer } from "../../src/mcp/serve/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
// Built apart from dist/, so the test never overwrites what `npm run build` made.
const outDir = `${root}node_modules/.cache/sluice-serve-test-dist`;
const main = `${outDir}/cli/main.js`;

beforeAll(() => {
  const tsc = `${root}node_modules/typescript/bin/tsc`;
  execFileSync(process.execPath, [tsc, "-p", `${root}tsconfig.build.json`, "--outDir", outDir, "--incremental", "--tsBuildInfoFile", `${outDir}/.tsbuildinfo`], { stdio: "pipe" });
  expect(existsSync(main)).toBe(true);
}, 120_000);

async function spawnServe(mode: "legacy" | "auto", elicit: boolean): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string; asked: string[] }> {
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

describe.each(["legacy", "auto"] as const)("sluice serve over stdio (%s)", (mode) => {
  test("runs a plan and answers its value with its label; says on stderr what it serves", async () => {
    const { client, stderr } = await spawnServe(mode, false);
    const answer = await runPlan(client, `get_last_email().from`);
    expect(answer).toEqual(
      expect.objectContaining({ status: "completed", value: "eve@evil.com", label: { trusted: false, readers: "public", sources: ["email:eve@evil.com"] } }),
    );
    expect(stderr()).toContain("serving 5 tools of the example workspace over stdio");
    await client.close();
  }, 30_000);

  test("puts an ask to the person through elicitation and goes on when approved", async () => {
    const { client, asked } = await spawnServe(mode, true);
    const answer = await runPlan(client, `send_email({ to: "boss@corp.com", body: read_file({ path: "~/notes/q3-plan.md" }) })`);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('to: "boss@corp.com"');
    expect(answer.status).toBe("completed");
    expect(answer.calls.at(-1)).toEqual(expect.objectContaining({ tool: "send_email", decision: "ask", approved: true }));
    await client.close();
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
