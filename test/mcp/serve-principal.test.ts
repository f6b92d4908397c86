/**
 * `sluice serve` with a principal for the calling agent: an agent that is not the user's alone
 * (a shared assistant, a model someone else runs) must not get, through run_plan's answer, what
 * the user's tools return for the user's eyes only. Without a principal, the agent is the user's
 * own and gets every value, labelled.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ask, defineTool, Label } from "../../src/index.js";
import { createPlanServer, serveOverHttp, type HttpServing, type PlanAnswer } from "../../src/mcp/serve/index.js";
import { messageIsTrusted } from "../../src/models/planner-messages.js";
import { functionDeclarations, planLanguageRules } from "../../src/models/planner-prompt.js";
import { sluice } from "../cli/capture.js";

const PIN = "door code 4711";

const tools = [
  defineTool({
    name: "get_door_code",
    description: "The user's door code, for the user alone.",
    returns: { type: "string" },
    label: () => Label.of({ trusted: true, readers: ["maya@quill.example"], sources: ["vault"] }),
    run: () => PIN,
  }),
  defineTool({
    name: "get_opening_hours",
    description: "The office's opening hours, public.",
    returns: { type: "string" },
    label: () => Label.of({ trusted: true, readers: "public", sources: ["office"] }),
    run: () => "9-17",
  }),
  defineTool({
    name: "send_note",
    description: "Sends a note to the user's partner.",
    sideEffect: true,
    parameters: { type: "object", properties: { to: { type: "string" }, text: { type: "string" } } },
    policy: () => ask("sending a note is put to the person"),
    run: () => ({ ok: true }),
  }),
];

async function start(principal?: string): Promise<{ client: Client; serving: HttpServing }> {
  const server = createPlanServer({
    tools,
    language: { rules: planLanguageRules(), declarations: functionDeclarations(tools), messageIsTrusted },
    ...(principal === undefined ? {} : { principal }),
  });
  const serving = await serveOverHttp(server, 0);
  const client = new Client({ name: "t", version: "1" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  return { client, serving };
}

async function run(client: Client, source: string): Promise<PlanAnswer> {
  const result = await client.callTool({ name: "run_plan", arguments: { source } });
  return result.structuredContent as unknown as PlanAnswer;
}

describe("serve answering a shared agent (principal assistant@corp.example)", () => {
  let s: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    s = await start("assistant@corp.example");
  });
  afterAll(async () => {
    await s.client.close();
    await s.serving.close();
  });

  test("a value only the user may read is withheld, with its label and why", async () => {
    const answer = await run(s.client, `get_door_code()`);
    expect(answer.status).toBe("completed");
    expect(answer.value).toBeUndefined();
    expect(JSON.stringify(answer)).not.toContain("4711");
    expect(answer.withheld).toContain("assistant@corp.example");
    expect(answer.label?.readers).toEqual(["maya@quill.example"]);
  });

  test("a public value is given", async () => {
    const answer = await run(s.client, `"Open " + get_opening_hours()`);
    expect(answer).toMatchObject({ status: "completed", value: "Open 9-17" });
    expect(answer.withheld).toBeUndefined();
  });

  test("a call's private arguments are neither shown nor quoted in its reason", async () => {
    const answer = await run(s.client, `send_note({ to: "sam@quill.example", text: get_door_code() })`);
    expect(answer.status).toBe("blocked");
    const call = answer.calls.find((c) => c.tool === "send_note")!;
    expect(call.args).toBeUndefined();
    expect(JSON.stringify(answer)).not.toContain("4711");
    expect(call.argsLabel?.readers).toEqual(["maya@quill.example"]);
  });

  test("an error message made of a private value is withheld", async () => {
    const answer = await run(s.client, `throw new Error(get_door_code())`);
    expect(answer.status).toBe("failed");
    expect(JSON.stringify(answer)).not.toContain("4711");
  });
});

describe("serve answering the user's own agent (no principal)", () => {
  let s: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(async () => {
    await s.client.close();
    await s.serving.close();
  });

  test("the user's private value is given, labelled as the user's", async () => {
    const answer = await run(s.client, `get_door_code()`);
    expect(answer).toMatchObject({ status: "completed", value: PIN, label: { readers: ["maya@quill.example"], trusted: true } });
    expect(answer.withheld).toBeUndefined();
  });

  test("a call's trusted private arguments are shown to the user's agent", async () => {
    const answer = await run(s.client, `send_note({ to: "sam@quill.example", text: get_door_code() })`);
    expect(answer.calls.find((c) => c.tool === "send_note")?.args).toEqual({ to: "sam@quill.example", text: PIN });
  });
});

test("`sluice serve --principal` with an empty name is a clear error", async () => {
  const out = await sluice(["serve", "--principal", ""]);
  expect(out.code).not.toBe(0);
  expect(out.stderr).toContain("--principal needs a principal's name");
});
