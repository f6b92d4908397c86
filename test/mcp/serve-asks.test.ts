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

// The fallback (`--approve yes`) is for clients that cannot show a form. Plans another client
// leaves waiting must not turn this client's asks into the fallback's "yes": a full server
// declines them instead, without asking anyone.
test("when other clients' plans fill the waiting slots, an ask is declined, never answered by the fallback", async () => {
  const { tools } = exampleWorkspace();
  const server = createPlanServer({
    tools,
    language: { rules: planLanguageRules(), declarations: functionDeclarations(tools), messageIsTrusted },
    fallback: "yes",
    maxWaiting: 1,
    // Long enough that the squatter is still waiting when the person's plan asks, on a loaded machine.
    askTimeoutMs: 60_000,
  });
  const full = await serveOverHttp(server, 0);
  const connect = async (answer: (message: string) => Promise<boolean>) => {
    const c = new Client({ name: "t", version: "1" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "legacy" } });
    c.setRequestHandler("elicitation/create", async (request) => ({ action: "accept", content: { approve: await answer(request.params.message) } }));
    await c.connect(new StreamableHTTPClientTransport(new URL(full.url)));
    return c;
  };
  const send = `send_email({ to: "boss@corp.com", body: read_file({ path: "~/notes/q3-plan.md" }) });\n"sent"`;
  try {
    // The squatter's plan is parked once its ask reaches the squatter's client (never answered).
    let parked!: () => void;
    const isParked = new Promise<void>((r) => (parked = r));
    const squatter = await connect(() => (parked(), new Promise<boolean>(() => {})));
    const waiting = squatter.callTool({ name: "run_plan", arguments: { source: send } }).catch(() => undefined);
    await isParked;
    const asked: string[] = [];
    const person = await connect(async (m) => (asked.push(m), false));
    const result = await person.callTool({ name: "run_plan", arguments: { source: send } });
    const answer = result.structuredContent as unknown as PlanAnswer;
    expect(answer.status).toBe("blocked");
    expect(answer.calls.find((c) => c.tool === "send_email")?.approved).toBe(false);
    expect(answer.note).toMatch(/declined/);
    await person.close();
    await squatter.close().catch(() => {});
    await Promise.race([waiting, new Promise((r) => setTimeout(r, 100))]);
  } finally {
    server.close();
    await full.close();
  }
});
