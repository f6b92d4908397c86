/**
 * `sluice serve` has no quarantined model of its own: when the MCP client offers sampling,
 * a plan's query_ai_assistant asks the client's model (no tools, none of the client's
 * conversation) and the answer is checked against the plan's schema; else the call is an
 * error the program catches. The client is the official SDK with a sampling handler that
 * plays the client's model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { READER_SYSTEM_PROMPT } from "../../src/models/reader-output.js";
import { connectHost, runPlan, startHttp, type Started } from "./serve-support.js";

const ASK_DEADLINE = `const mail = list_emails()[0];
query_ai_assistant("By when does the sender want the notes? " + mail.body, { type: "object", properties: { deadline: { type: "string" } }, required: ["deadline"] }).deadline`;

const CAUGHT = `const mail = list_emails()[0];
try { query_ai_assistant("What is the sender's phone number? " + mail.body, { type: "object", properties: { phone: { type: "string" } }, required: ["phone"] }).phone }
catch (e) { e.name + ": " + e.message }`;

/** One sampling request as the client's model saw it. */
interface Seen {
  systemPrompt?: string;
  includeContext?: string;
  tools?: unknown;
  texts: string[];
}

/** A host whose model answers each sampling request with the next of `answers` (a function of what it read). */
async function samplingHost(url: string, mode: "legacy" | "auto", answers: Array<(seen: Seen) => string>) {
  const seen: Seen[] = [];
  const client = new Client({ name: "sampling-host", version: "1.0.0" }, { capabilities: { sampling: {} }, versionNegotiation: { mode } });
  client.setRequestHandler("sampling/createMessage", async (request) => {
    const p = request.params;
    const one: Seen = {
      systemPrompt: p.systemPrompt,
      includeContext: p.includeContext,
      tools: (p as { tools?: unknown }).tools,
      texts: p.messages.map((m) => (m.content as { text?: string }).text ?? ""),
    };
    seen.push(one);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
    return { role: "assistant", model: "host-model", content: { type: "text", text: answer(one) } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, seen };
}

const envelope = (answer: unknown) => JSON.stringify({ have_enough_information: answer !== null, answer });

let server: Started;
beforeAll(async () => {
  server = await startHttp();
});
afterAll(async () => {
  await server.handle.stop();
});

describe.each(["legacy", "auto"] as const)("query_ai_assistant through the client's sampling (%s)", (mode) => {
  it("is answered by the client's model, which reads the untrusted text with no tools and no context, and the answer stays labelled untrusted", async () => {
    const { client, seen } = await samplingHost(server.url, mode, [() => "```json\n" + envelope({ deadline: "Friday" }) + "\n```"]);
    const { answer } = await runPlan(client, ASK_DEADLINE);
    expect(answer.status).toBe("completed");
    expect(answer.value).toBe("Friday");
    expect(answer.label?.trusted).toBe(false);
    expect(seen).toHaveLength(1);
    expect(seen[0].systemPrompt).toBe(READER_SYSTEM_PROMPT);
    expect(seen[0].includeContext).toBe("none");
    expect(seen[0].tools).toBeUndefined();
    expect(seen[0].texts[0]).toContain("Could you send me your notes on the Q3 plan before Friday?");
    expect(seen[0].texts[0]).toContain('"have_enough_information"');
    await client.close();
  });

  it("an answer that does not match the schema is asked again with the problem named; a second bad one is an error the program catches", async () => {
    const { client, seen } = await samplingHost(server.url, mode, [() => envelope({ phone: 42 })]);
    const { answer } = await runPlan(client, CAUGHT);
    expect(seen).toHaveLength(2);
    expect(seen[1].texts.at(-1)).toMatch(/^That answer cannot be used: the answer does not match the schema/);
    expect(answer.status).toBe("completed");
    expect(answer.value).toMatch(/^Error: /);
    await client.close();
  });

  it("'not enough information' is a NotEnoughInformationError the program catches", async () => {
    const { client } = await samplingHost(server.url, mode, [() => envelope(null)]);
    const { answer } = await runPlan(client, CAUGHT);
    expect(answer.value).toMatch(/^NotEnoughInformationError: /);
    await client.close();
  });
});

it("a client without sampling: query_ai_assistant throws an error the program catches, and run_plan's description says when it works", async () => {
  const { client } = await connectHost(server.url, "auto");
  const { answer } = await runPlan(client, CAUGHT);
  expect(answer.value).toMatch(/^Error: query_ai_assistant is not available/);
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === "run_plan")?.description).toContain("query_ai_assistant asks your own model through MCP sampling when this client supports sampling");
  await client.close();
});
