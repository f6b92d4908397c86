/**
 * Shared by the `sluice serve` tests: start the server in-process (the same `startServe`
 * the command runs) and connect the official MCP client SDK to it as the host would.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startServe, type ServeCommandOptions, type ServeHandle } from "../../src/cli/commands/serve.js";
import type { PlanAnswer } from "../../src/mcp/serve/index.js";

/** A server started on a free port, with what it wrote on stderr. */
export interface Started {
  handle: ServeHandle;
  url: string;
  stderr: string[];
}

export async function startHttp(options: Partial<ServeCommandOptions> = {}): Promise<Started> {
  const stderr: string[] = [];
  const handle = await startServe({ http: 0, approve: "no", ...options }, { stdout: () => {}, stderr: (s) => void stderr.push(s), env: {} }, process.cwd());
  if (handle.url === undefined) throw new Error("startServe gave no URL");
  return { handle, url: handle.url, stderr };
}

/** What the person answers to each form: accept with the box ticked or not, decline, or cancel. */
export type PersonAnswer = "approve" | "refuse" | "decline" | "cancel";

export interface Host {
  client: Client;
  /** The messages of the forms the person was shown. */
  asked: string[];
}

/** Connects like an MCP host: `mode` picks the revision (legacy: 2025 handshake, auto: 2026-07-28). */
export async function connectHost(url: string, mode: "legacy" | "auto", person?: PersonAnswer): Promise<Host> {
  const asked: string[] = [];
  const client = new Client(
    { name: "sluice-test-host", version: "1.0.0" },
    { capabilities: person === undefined ? {} : { elicitation: { form: {} } }, versionNegotiation: { mode } },
  );
  if (person !== undefined) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      if (person === "decline" || person === "cancel") return { action: person };
      return { action: "accept", content: { approve: person === "approve" } };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, asked };
}

/** Calls run_plan; gives the structured answer and whether the result was an error. */
export async function runPlan(client: Client, source: string, extra: Record<string, unknown> = {}): Promise<{ answer: PlanAnswer; isError: boolean; text: string }> {
  const result = await client.callTool({ name: "run_plan", arguments: { source, ...extra } });
  const content = result.content as Array<{ type: string; text?: string }>;
  return { answer: result.structuredContent as unknown as PlanAnswer, isError: result.isError === true, text: content[0]?.text ?? "" };
}
