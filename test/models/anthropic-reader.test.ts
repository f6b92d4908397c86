import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import { rateLimited, startMessagesServer, type MessagesServer } from "../support/messages-server.js";
import { anthropicReader, BudgetExceededError, createUsageMeter, ReaderError, withMeter } from "../../src/models/index.js";
import { NotEnoughInformation } from "../../src/runtime/types.js";

let server: MessagesServer;
let client: Anthropic;
beforeAll(async () => {
  server = await startMessagesServer();
  client = new Anthropic({ apiKey: "test-key", baseURL: server.url, maxRetries: 2 });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const EMAIL = {
  type: "object",
  properties: { email: { type: "string", format: "email" }, name: { type: "string", minLength: 2 } },
  required: ["email"],
};
const PROMPT = "Find the sender's address in this message:\nHi, it's Bob (bob@example.com).";

describe("anthropicReader on the real SDK", () => {
  test("asks with the JSON-schema output format and no tools, and returns the validated answer", async () => {
    const reader = anthropicReader({ client, model: "test-reader" });
    server.enqueue({ json: { have_enough_information: true, answer: { email: "bob@example.com", name: "Bob" } } });
    await expect(reader.query({ prompt: PROMPT, schema: EMAIL })).resolves.toEqual({ email: "bob@example.com", name: "Bob" });
    const body = server.requests[0].body;
    expect(body.tools).toBeUndefined();
    expect(body.messages).toEqual([{ role: "user", content: PROMPT }]);
    expect(body.output_config.format.type).toBe("json_schema");
    const envelope = body.output_config.format.schema;
    expect(envelope.required).toEqual(["have_enough_information", "answer"]);
    expect(envelope.additionalProperties).toBe(false);
    // The constraint structured output cannot enforce is moved into the description; ajv enforces it.
    const inner = envelope.properties.answer.anyOf[0];
    expect(inner.properties.name.minLength).toBeUndefined();
    expect(inner.properties.name.description).toContain("minLength");
  });

  test("an answer that fails ajv is retried with the problem pointed out", async () => {
    const reader = anthropicReader({ client, model: "test-reader" });
    server.enqueue(
      { json: { have_enough_information: true, answer: { email: "not an address", name: "B" } } },
      { json: { have_enough_information: true, answer: { email: "bob@example.com" } } },
    );
    await expect(reader.query({ prompt: PROMPT, schema: EMAIL })).resolves.toEqual({ email: "bob@example.com" });
    expect(server.requests).toHaveLength(2);
    const retry = server.requests[1].body.messages;
    expect(retry).toHaveLength(3);
    expect(retry[1].role).toBe("assistant");
    expect(retry[2].content).toMatch(/does not match the schema.*email/);
  });

  test("retries are bounded: after maxAttempts invalid answers it gives up with a ReaderError", async () => {
    const reader = anthropicReader({ client, model: "test-reader", maxAttempts: 2 });
    server.enqueue({ text: "Bob's address is bob@example.com" }, { json: { have_enough_information: true, answer: { name: "Bob" } } });
    const err = await reader.query({ prompt: PROMPT, schema: EMAIL }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReaderError);
    expect((err as Error).message).toMatch(/no valid answer in 2 attempts/);
    expect(server.requests).toHaveLength(2);
  });

  test("when the text lacks the answer the program gets NotEnoughInformation, not a guess", async () => {
    const reader = anthropicReader({ client, model: "test-reader" });
    server.enqueue({ json: { have_enough_information: false, answer: null } });
    await expect(reader.query({ prompt: "Nothing here.", schema: EMAIL })).rejects.toBeInstanceOf(NotEnoughInformation);
    server.enqueue({ text: "", stopReason: "refusal" });
    await expect(reader.query({ prompt: "Nothing here.", schema: EMAIL })).rejects.toBeInstanceOf(NotEnoughInformation);
  });

  test("a cut-off answer is retried and named as such", async () => {
    const reader = anthropicReader({ client, model: "test-reader", maxAttempts: 1, maxTokens: 5 });
    server.enqueue({ text: '{"have_enough_information": tr', stopReason: "max_tokens" });
    await expect(reader.query({ prompt: PROMPT, schema: EMAIL })).rejects.toThrow(/cut off at max_tokens \(5\)/);
  });

  test("rate limits are retried by the call layer", async () => {
    const reader = anthropicReader({ client, model: "test-reader", retry: { baseMs: 1, capMs: 1 } });
    server.enqueue(rateLimited(1), { json: { have_enough_information: true, answer: { email: "a@b.co" } } });
    await expect(reader.query({ prompt: PROMPT, schema: EMAIL })).resolves.toEqual({ email: "a@b.co" });
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  test("a bad schema or prompt is a clear error and makes no request", async () => {
    const reader = anthropicReader({ client, model: "test-reader" });
    await expect(reader.query({ prompt: PROMPT, schema: { type: "strnig" } })).rejects.toThrow(/invalid JSON Schema/);
    await expect(reader.query({ prompt: 42 as unknown as string, schema: EMAIL })).rejects.toThrow(/prompt must be a string/);
    await expect(reader.query({ prompt: PROMPT, schema: {} })).rejects.toThrow(/cannot be used for structured output/);
    expect(server.requests).toHaveLength(0);
  });

  test("calls are charged to the run's meter, and refused before they are made when they could overshoot", async () => {
    const reader = anthropicReader({ client, model: "test-reader", maxTokens: 100 });
    const meter = createUsageMeter({ prices: { "test-reader": { input: 1, output: 5 } } });
    server.enqueue({ json: { have_enough_information: true, answer: { email: "a@b.co" } } });
    await withMeter(meter, () => reader.query({ prompt: PROMPT, schema: EMAIL }));
    const report = meter.report();
    expect(report.steps).toBe(1);
    expect(report.input).toBeGreaterThan(0);
    expect(report.output).toBeGreaterThan(0);
    expect(report.byModel["test-reader"].calls).toBe(1);

    const tight = createUsageMeter({ budget: { tokens: 500 } });
    const err = await withMeter(tight, () => reader.query({ prompt: PROMPT, schema: EMAIL })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect(server.requests).toHaveLength(1);
  });

  test("the worst-case estimate covers what the server bills", async () => {
    const reader = anthropicReader({ client, model: "test-reader", maxTokens: 300 });
    const long = "lorem ipsum ".repeat(400) + "contact: carol@example.com";
    let estimate = 0;
    const meter = createUsageMeter();
    const spy = { ...meter, reserve: (c: Parameters<typeof meter.reserve>[0]) => ((estimate = c.inputTokens + c.maxTokens), meter.reserve(c)) };
    server.enqueue({ json: { have_enough_information: true, answer: { email: "carol@example.com" } } });
    await withMeter(spy as typeof meter, () => reader.query({ prompt: long, schema: EMAIL }));
    expect(meter.report().totalTokens).toBeGreaterThan(0);
    expect(meter.report().totalTokens).toBeLessThanOrEqual(estimate);
  });
});
