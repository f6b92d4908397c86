/**
 * How sluice's spans nest with each other and with everyone else's, as an application sees it
 * once its SDK registers a context manager (AsyncLocalStorageContextManager, as the Node SDK
 * does): one trace per agent request, the Anthropic SDK's and a tool's own spans under sluice's,
 * and the application's span above a run it starts.
 */
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, defineTool } from "../../src/index.js";
import { anthropicPlanner, anthropicReader, createAgent } from "../../src/models/index.js";
import { startMessagesServer, type MessagesServer } from "../support/messages-server.js";

let server: MessagesServer;
let client: Anthropic;
const exporter = new InMemorySpanExporter();
beforeAll(async () => {
  server = await startMessagesServer();
  client = new Anthropic({ apiKey: "test-key", baseURL: server.url, maxRetries: 0 });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(async () => {
  trace.disable();
  context.disable();
  await server.close();
});
afterEach(() => exporter.reset());

const finished = (): ReadableSpan[] => exporter.getFinishedSpans();
const named = (prefix: string): ReadableSpan[] => finished().filter((s) => s.name === prefix || s.name.startsWith(`${prefix} `));
const parentOf = (s: ReadableSpan): ReadableSpan | undefined => finished().find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);
/** The names from `s` up to its root. */
const ancestry = (s: ReadableSpan): string[] => {
  const out: string[] = [];
  for (let p = parentOf(s); p !== undefined; p = parentOf(p)) out.push(p.name);
  return out;
};

const readFile = defineTool({
  name: "read_file",
  description: "Reads a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  run: ({ path }: { path: string }) => {
    // A tool's own span, made the way any instrumented library makes one: in the active context.
    trace.getTracer("the-tool").startSpan(`fs.read ${path}`).end();
    if (path !== "notes.txt") throw new Error(`no such file: ${path}`);
    return "Meeting moved to Friday.";
  },
});

describe("one agent request is one trace", () => {
  it("over two plan rounds: one invoke_agent span, every chat and execute_tool span below it, the SDK's and the tool's spans under sluice's", async () => {
    const programs = ["read_file({ path: 'missing.txt' })", "query_ai_assistant(read_file({ path: 'notes.txt' }), { type: 'string' })"];
    let planned = 0;
    server.respondWith((body) => (body.output_config ? { json: { have_enough_information: true, answer: "Friday" } } : { text: "```js\n" + programs[planned++] + "\n```" }));
    const reader = anthropicReader({ client, model: "test-reader", maxTokens: 200 });
    const agent = createAgent({
      runtime: ({ quarantined }) => createRuntime({ tools: [readFile], ...(quarantined !== undefined ? { quarantined } : {}) }),
      reader,
      planner: anthropicPlanner({ client, model: "test-planner", maxTokens: 1000 }),
      planCheck: false,
    });

    const out = await agent.run("When is the meeting?");
    expect(out.status).toBe("completed");
    expect(out.attempts).toHaveLength(2);

    const spans = finished();
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(spans.filter((s) => parentOf(s) === undefined).map((s) => s.name)).toEqual(["invoke_agent"]);
    expect(named("invoke_agent")).toHaveLength(1);
    const [agentSpan] = named("invoke_agent");
    expect(agentSpan.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "sluice.status": "completed", "sluice.runs": 2 });

    // Each round's program run is a step of the agent, not an agent of its own.
    const rounds = named("sluice.run");
    expect(rounds.map((r) => [parentOf(r)?.name, r.attributes["sluice.status"]])).toEqual([
      ["invoke_agent", "failed"],
      ["invoke_agent", "completed"],
    ]);
    expect(named("chat test-planner").map(ancestry)).toEqual([["invoke_agent"], ["invoke_agent"]]);
    expect(named("chat test-reader").map(ancestry)).toEqual([["sluice.run", "invoke_agent"]]);
    expect(named("execute_tool read_file").map(ancestry)).toEqual([
      ["sluice.run", "invoke_agent"],
      ["sluice.run", "invoke_agent"],
    ]);
    // The Anthropic SDK's own span of each request is a child of sluice's chat span of that call.
    const sdk = named("anthropic.messages.create");
    expect(sdk).toHaveLength(3);
    expect(sdk.map((s) => parentOf(s)?.name).sort()).toEqual(["chat test-planner", "chat test-planner", "chat test-reader"]);
    expect(named("fs.read").map((s) => parentOf(s)?.name)).toEqual(["execute_tool read_file", "execute_tool read_file"]);
  });
});

describe("a bare run", () => {
  it("is one invoke_agent span, under the application's active span when there is one", async () => {
    const runtime = createRuntime({ tools: [readFile] });
    const app = trace.getTracer("the-app").startSpan("handle request");
    const r = await context.with(trace.setSpan(context.active(), app), () => runtime.run("read_file({ path: 'notes.txt' })"));
    app.end();
    expect(r.status).toBe("completed");
    const [run] = named("invoke_agent");
    expect(named("invoke_agent")).toHaveLength(1);
    expect(named("sluice.run")).toEqual([]);
    expect(parentOf(run)?.name).toBe("handle request");
    expect(named("execute_tool read_file").map(ancestry)).toEqual([["invoke_agent", "handle request"]]);
    expect(named("fs.read").map((s) => parentOf(s)?.name)).toEqual(["execute_tool read_file"]);

    exporter.reset();
    await runtime.run("read_file({ path: 'notes.txt' })");
    expect(named("invoke_agent").map((s) => parentOf(s))).toEqual([undefined]);
  });
});
