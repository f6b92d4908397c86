/**
 * Model calls through the tool-call layer (docs/tool-calls.md, phase 2 step 8), on the real SDK
 * against the local Messages server: one retry policy (the layer's), the `model:anthropic`
 * resource shared by planner, reader and runtime, a budget reservation per attempt, and one
 * GenAI `chat <model>` span per call with its retries.
 */
import { metrics, trace, SpanStatusCode } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCallLayer, createRuntime } from "../../src/index.js";
import { anthropicPlanner, anthropicReader, BudgetExceededError, createUsageMeter, ModelError, withMeter } from "../../src/models/index.js";
import { overloaded, rateLimited, startMessagesServer, type MessagesServer } from "../support/messages-server.js";
import { dataPoints, TestReader } from "../support/metrics.js";

let server: MessagesServer;
let client: Anthropic;
const exporter = new InMemorySpanExporter();
const metricReader = new TestReader();
beforeAll(async () => {
  server = await startMessagesServer();
  client = new Anthropic({ apiKey: "test-key", baseURL: server.url });
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [metricReader] }));
});
afterAll(async () => {
  trace.disable();
  metrics.disable();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});
afterEach(() => exporter.reset());

const FAST = { baseMs: 1, capMs: 1 };
const ask = { system: "You are the planner.", messages: [{ role: "user" as const, content: "User request:\n\nsummarize my inbox" }] };
const EMAIL = { type: "object", properties: { email: { type: "string" } }, required: ["email"], additionalProperties: false };
const answer = (email: string) => ({ json: { have_enough_information: true, answer: { email } } });
const spans = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.name === name);

const points = (name: string) => dataPoints(metricReader, name);

describe("budgets count every attempt", () => {
  it("each attempt is a step charged its worst case; a retry the budget cannot cover is refused before it is sent", async () => {
    const planner = anthropicPlanner({ client, model: "test-planner", retry: { ...FAST, attempts: 3 } });
    const meter = createUsageMeter({ budget: { steps: 2 } });
    server.enqueue(overloaded(1), overloaded(1));
    const err = await withMeter(meter, () => planner.complete(ask)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect(err).toMatchObject({ limit: "steps" });
    // The third attempt was refused, not sent.
    expect(server.requests.map((r) => r.status)).toEqual([529, 529]);
    expect(meter.report().steps).toBe(2);
  });

  it("with room in the budget the retries are counted and only the answer's usage is billed", async () => {
    const reader = anthropicReader({ client, model: "test-reader", retry: FAST });
    const meter = createUsageMeter({ prices: { "test-reader": { input: 1, output: 5 } } });
    server.enqueue(rateLimited(1), answer("a@b.co"));
    await expect(withMeter(meter, () => reader.query({ prompt: "Mail: a@b.co", schema: EMAIL }))).resolves.toEqual({ email: "a@b.co" });
    const report = meter.report();
    expect(report.steps).toBe(2);
    expect(report.output).toBeGreaterThan(0);
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });
});

describe("one resource, model:anthropic", () => {
  it("a planner and a reader sharing a layer share its breaker: once it opens, neither sends anything", async () => {
    const layer = createCallLayer({ breaker: { failures: 2, cooldownMs: 60_000 } });
    const planner = anthropicPlanner({ client, model: "test-planner", layer, retry: { attempts: 1 } });
    const reader = anthropicReader({ client, model: "test-reader", layer, retry: { attempts: 1 } });
    const broken = { status: 500, errorType: "api_error", message: "Internal server error" };
    server.enqueue(broken, broken);
    await expect(planner.complete(ask)).rejects.toMatchObject({ status: 500 });
    await expect(reader.query({ prompt: "Mail: a@b.co", schema: EMAIL })).rejects.toMatchObject({ status: 500 });
    expect(layer.breakerState("model:anthropic")).toBe("open");
    const fast = await planner.complete(ask).catch((e: unknown) => e);
    expect(fast).toBeInstanceOf(ModelError);
    expect((fast as Error).message).toMatch(/circuit breaker is open/);
    expect(server.requests).toHaveLength(2);
  });

  it("inside a run the reader goes through the runtime's layer: the runtime's breaker stops its second query", async () => {
    const reader = anthropicReader({ client, model: "test-reader", retry: { attempts: 1 } });
    const runtime = createRuntime({ quarantined: reader, breaker: { failures: 1, cooldownMs: 60_000 } });
    server.enqueue({ status: 503, errorType: "api_error", message: "unavailable" });
    const schema = JSON.stringify(EMAIL);
    const r = await runtime.run(`
      let a; try { a = query_ai_assistant("first", ${schema}); } catch (e) { a = "failed"; }
      let b; try { b = query_ai_assistant("second", ${schema}); } catch (e) { b = "failed"; }
      [a, b]`);
    expect(r.status).toBe("completed");
    expect(r.value).toEqual(["failed", "failed"]);
    expect(server.requests).toHaveLength(1);
    expect(r.queries[1].error).toMatch(/circuit breaker is open/);
  });

  it("createRuntime({ rateLimits: { \"model:anthropic\" } }): a 429's retry-after holds back the run's next reader query", async () => {
    const reader = anthropicReader({ client, model: "test-reader", retry: { attempts: 1 } });
    const runtime = createRuntime({ quarantined: reader, rateLimits: { "model:anthropic": { perSecond: 50, burst: 5 } } });
    // When each request reached the server: the bucket, not a retry (there is none), makes the second wait.
    const arrived: number[] = [];
    server.respondWith(() => (arrived.push(performance.now()), arrived.length === 1 ? rateLimited(400) : answer("a@b.co")));
    try {
      const schema = JSON.stringify(EMAIL);
      const r = await runtime.run(`
        let a; try { a = query_ai_assistant("first", ${schema}).email; } catch (e) { a = "failed"; }
        const b = query_ai_assistant("second", ${schema}).email;
        [a, b]`);
      expect(r.value).toEqual(["failed", "a@b.co"]);
      expect(server.requests.map((q) => q.status)).toEqual([429, 200]);
      // A lower bound only (a loaded machine makes it longer, never shorter): the server said 400 ms.
      expect(arrived[1] - arrived[0]).toBeGreaterThanOrEqual(380);
    } finally {
      server.respondWith(() => ({ status: 400, errorType: "invalid_request_error", message: "mock server: no reply queued for this request" }));
    }
  });

  it("createRuntime({ layer }) takes a layer in place of the options it is built from", () => {
    const layer = createCallLayer();
    expect(() => createRuntime({ layer })).not.toThrow();
    expect(() => createRuntime({ layer, retry: { attempts: 2 } })).toThrow(/pass retry to createCallLayer/);
    expect(() => createRuntime({ layer: {} as never })).toThrow(/createCallLayer/);
  });
});

describe("chat spans", () => {
  it("one chat span per call, covering its retries, with the GenAI conventions' attributes and metrics", async () => {
    const planner = anthropicPlanner({ client, model: "test-planner", maxTokens: 300, retry: FAST });
    server.enqueue(rateLimited(1), { text: "```js\n1\n```" });
    const r = await planner.complete(ask);
    const [chat] = spans("chat test-planner");
    expect(spans("chat test-planner")).toHaveLength(1);
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "test-planner",
      "gen_ai.request.max_tokens": 300,
      "gen_ai.response.model": "test-planner",
      "gen_ai.response.finish_reasons": ["end_turn"],
      "gen_ai.usage.input_tokens": r.usage.input + r.usage.cacheRead + r.usage.cacheWrite,
      "gen_ai.usage.output_tokens": r.usage.output,
      "gen_ai.usage.cache_creation.input_tokens": r.usage.cacheWrite,
      "server.address": "127.0.0.1",
      "server.port": Number(new URL(server.url).port),
      "sluice.attempts": 2,
    });
    expect(chat.attributes["gen_ai.response.id"]).toMatch(/^msg_mock_/);
    expect(chat.events.filter((e) => e.name === "sluice.retry").map((e) => e.attributes?.["error.type"])).toEqual(["rate_limited"]);
    expect(exporter.getFinishedSpans().filter((s) => s.name.startsWith("execute_tool"))).toEqual([]);
    const tokens = await points("gen_ai.client.token.usage");
    expect(tokens.map((p) => p.attributes["gen_ai.token.type"])).toEqual(expect.arrayContaining(["input", "output"]));
    expect((await points("gen_ai.client.operation.duration")).length).toBeGreaterThan(0);
  });

  it("a prompt-cache hit: the SDK's usage.cache_read_input_tokens is the span's gen_ai.usage.cache_read.input_tokens", async () => {
    // A model of its own, so the mock's cache is cold for the first call and warm for the second.
    const planner = anthropicPlanner({ client, model: "test-planner-cache", retry: FAST });
    server.enqueue({ text: "```js\n1\n```" }, { text: "```js\n1\n```" });
    const cold = await planner.complete(ask);
    const warm = await planner.complete(ask);
    expect(cold.usage.cacheRead).toBe(0);
    expect(warm.usage.cacheRead).toBeGreaterThan(0);
    const chats = spans("chat test-planner-cache");
    expect(chats.map((c) => c.attributes["gen_ai.usage.cache_read.input_tokens"])).toEqual([0, warm.usage.cacheRead]);
    expect(chats.map((c) => c.attributes["gen_ai.usage.cache_creation.input_tokens"])).toEqual([cold.usage.cacheWrite, warm.usage.cacheWrite]);
    expect(cold.usage.cacheWrite).toBeGreaterThan(0);
  });

  it("a call that fails ends its span with the provider's error code", async () => {
    const planner = anthropicPlanner({ client, model: "test-planner", retry: { ...FAST, attempts: 2 } });
    server.enqueue(overloaded(1), overloaded(1));
    await expect(planner.complete(ask)).rejects.toBeInstanceOf(ModelError);
    const [chat] = spans("chat test-planner");
    expect(chat.attributes).toMatchObject({ "error.type": "overloaded_error", "sluice.attempts": 2 });
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("the reader's chat span is a child of the run's invoke_agent span", async () => {
    const reader = anthropicReader({ client, model: "test-reader" });
    server.enqueue(answer("a@b.co"));
    const r = await createRuntime({ quarantined: reader }).run(`query_ai_assistant("Mail: a@b.co", ${JSON.stringify(EMAIL)}).email`);
    expect(r.value).toBe("a@b.co");
    const [run] = spans("invoke_agent");
    const [chat] = spans("chat test-reader");
    expect(chat.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(chat.attributes).toMatchObject({ "sluice.role": "reader", "gen_ai.operation.name": "chat" });
  });
});
