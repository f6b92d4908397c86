/**
 * MCP host benchmark (issue 10), in one process, against the published filesystem server
 * (stdio, spawned with node):
 *
 * 1. time to the first call: connectMcp(...) up to the end of the first tool call through a
 *    sluice runtime, against the SDK's own Client (connect, listTools, callTool) with the same
 *    version negotiation ("auto": 2026-07-28, falling back to the older handshake);
 * 2. per-call overhead: one more call of read_text_file through sluice (a one-line plan run by
 *    createRuntime, and the adapted tool's run() alone) against client.callTool on the same
 *    connection.
 *
 *   npm run build && node benchmarks/mcp.js
 *   BENCH_CONNECTS=9 BENCH_CALLS=300 node benchmarks/mcp.js
 */
import { positive, median } from "./stats.js";
import { mkdtempSync, writeFileSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const DIST = process.env.SLUICE_DIST ?? fileURLToPath(new URL("../dist/", import.meta.url));
const { connectMcp, createRuntime } = await import(join(DIST, "index.js"));

const CONNECTS = positive(process.env.BENCH_CONNECTS, 7);
const CALLS = positive(process.env.BENCH_CALLS, 200);
const SERVER = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));

const now = () => Number(process.hrtime.bigint()) / 1e6;

const dir = realpathSync(mkdtempSync(join(tmpdir(), "sluice-bench-")));
const file = join(dir, "todo.txt");
writeFileSync(file, "Call the plumber.\n");
const config = { mcpServers: { files: { command: process.execPath, args: [SERVER, dir], trust: "trusted", readers: ["me"], principal: "me" } } };
const plan = `files_read_text_file({ path: ${JSON.stringify(file)} }).content`;

async function sdkFirstCall() {
  const t0 = now();
  const client = new Client({ name: "bench", version: "0" }, { versionNegotiation: { mode: "auto", probe: { timeoutMs: 10_000 } } });
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER, dir], stderr: "pipe" });
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: "read_text_file", arguments: { path: file } });
  const ms = now() - t0;
  return { ms, client };
}

async function sluiceFirstCall() {
  const t0 = now();
  const mcp = await connectMcp(config);
  const result = await createRuntime({ tools: mcp.tools }).run(plan);
  const ms = now() - t0;
  if (result.status !== "completed") throw new Error(`the plan did not complete: ${JSON.stringify(result.error)}`);
  return { ms, mcp };
}

async function firstCall() {
  const sdk = [];
  const ours = [];
  for (let i = 0; i < CONNECTS; i++) {
    // Alternate, so that load on the machine falls on both alike.
    const a = await sdkFirstCall();
    sdk.push(a.ms);
    await a.client.close();
    const b = await sluiceFirstCall();
    ours.push(b.ms);
    await b.mcp.close();
    process.stderr.write(".");
  }
  return { sdk: median(sdk), sluice: median(ours) };
}

async function perCall() {
  const client = new Client({ name: "bench", version: "0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER, dir], stderr: "pipe" }));
  await client.listTools();
  const mcp = await connectMcp(config);
  const tool = mcp.tools.find((t) => t.name === "files_read_text_file");
  const runtime = createRuntime({ tools: mcp.tools });
  const rounds = { sdk: [], run: [], plan: [] };
  const timed = async (fn) => {
    const t0 = now();
    await fn();
    return now() - t0;
  };
  for (let i = 0; i < 20; i++) {
    await client.callTool({ name: "read_text_file", arguments: { path: file } });
    await runtime.run(plan);
  }
  for (let i = 0; i < CALLS; i++) {
    rounds.sdk.push(await timed(() => client.callTool({ name: "read_text_file", arguments: { path: file } })));
    rounds.run.push(await timed(() => tool.run({ path: file })));
    rounds.plan.push(await timed(() => runtime.run(plan)));
  }
  await client.close();
  await mcp.close();
  return { sdk: median(rounds.sdk), run: median(rounds.run), plan: median(rounds.plan) };
}

try {
  const first = await firstCall();
  const call = await perCall();
  process.stderr.write("\n");
  const f = (x) => x.toFixed(2);
  console.log(`MCP host, filesystem server over stdio, medians (${CONNECTS} connections, ${CALLS} calls each way)\n`);
  console.log("| measure | SDK's own Client ms | sluice ms | sluice / SDK |");
  console.log("|---|---:|---:|---:|");
  console.log(`| connect, list tools, first call | ${f(first.sdk)} | ${f(first.sluice)} | ${f(first.sluice / first.sdk)} |`);
  console.log(`| one call: the adapted tool's run() | ${f(call.sdk)} | ${f(call.run)} | ${f(call.run / call.sdk)} |`);
  console.log(`| one call: a one-line plan through createRuntime | ${f(call.sdk)} | ${f(call.plan)} | ${f(call.plan / call.sdk)} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
