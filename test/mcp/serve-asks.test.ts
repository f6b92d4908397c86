/**
 * Asks that wait for a person: several at once (calls started together by Promise.all), and
 * a person who answers too late. The server is built from its parts, with a short wait.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { exampleWorkspace } from "../../src/cli/example-tools.js";
import { createPlanServer, serveOverHttp, type HttpServing } from "../../src/mcp/serve/index.js";
import { messageIsTrusted } from "../../src/models/planner-messages.js";
import { functionDeclarations, planLanguageRules } from "../../src/models/planner-prompt.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { PlanAnswer } from "../../src/mcp/serve/index.js";

const TWO_SENDS = `const notes = read_file({ path: "~/notes/q3-plan.md" });
await Promise.all([
  send_email({ to: "boss@corp.com", body: notes }),
  send_email({ to: "cfo@corp.com", body: notes }),
]);
"both sent"`;

let serving: HttpServing;
const logs: string[] = [];

beforeAll(async () => {
  const { tools } = exampleWorkspace();
  const server = createPlanServer({
    tools,
    language: { rules: planLanguageRules(), declarations: functionDeclarations(tools), messageIsTrusted },
    // Long enough for an immediate answer on a loaded machine, short enough to wait out below.
    askTimeoutMs: 2000,
    log: (line) => void logs.push(line),
  });
  serving = await serveOverHttp(server, 0);
});

afterAll(async () => {
  await serving.close();
});

async function host(mode: "legacy" | "auto", answer: (message: string) => Promise<boolean>): Promise<Client> {
  const client = new Client({ name: "t", version: "1" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } });
  client.setRequestHandler("elicitation/create", async (request) => ({ action: "accept", content: { approve: await answer(request.params.message) } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  return client;
}

describe.each(["legacy", "auto"] as const)("asks (%s)", (mode) => {
  test("calls started together are asked about together, and each answer counts for its own call", async () => {
    const asked: string[] = [];
    const client = await host(mode, async (message) => {
      asked.push(message);
      return message.includes("boss@corp.com");
    });
    const result = await client.callTool({ name: "run_plan", arguments: { source: TWO_SENDS } });
    const answer = result.structuredContent as unknown as PlanAnswer;
    expect(asked).toHaveLength(2);
    const sends = answer.calls.filter((c) => c.tool === "send_email");
    expect(sends.map((c) => [c.args?.to, c.approved]).sort()).toEqual([
      ["boss@corp.com", true],
      ["cfo@corp.com", false],
    ]);
    expect(answer.status).toBe("blocked");
    await client.close();
  });
});

test("an answer that comes after the wait is over finds the plan stopped, its ask declined", async () => {
  const client = await host("auto", async () => {
    await new Promise((r) => setTimeout(r, 3000));
    return true;
  });
  const result = await client.callTool({ name: "run_plan", arguments: { source: TWO_SENDS } });
  expect(result.isError).toBe(true);
  expect((result.content as Array<{ text: string }>)[0].text).toMatch(/no longer open/);
  expect(logs.join("\n")).toMatch(/nobody answered within/);
  await client.close();
});
