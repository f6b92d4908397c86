import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import { overloaded, rateLimited, startMessagesServer, type MessagesServer } from "../support/messages-server.js";
import { anthropicPlanner, ModelError } from "../../src/models/index.js";

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

const SYSTEM = "You are the planner. ".repeat(50);
const ask = { system: SYSTEM, messages: [{ role: "user" as const, content: "User request:\n\nsummarize my inbox" }] };

describe("anthropicPlanner on the real SDK", () => {
  test("sends the system prompt as one cached block and maps usage with cache counters", async () => {
    const planner = anthropicPlanner({ client, model: "test-planner", maxTokens: 1000 });
    server.enqueue({ text: "```js\nget_inbox()\n```" }, { text: "```js\nget_inbox()\n```" });
    const first = await planner.complete(ask);
    const second = await planner.complete(ask);
    const body = server.requests[0].body;
    expect(body.system).toEqual([{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral" } }]);
    expect(body.max_tokens).toBe(1000);
    expect(body.model).toBe("test-planner");
    expect(body.messages).toEqual(ask.messages);
    expect(first.text).toBe("```js\nget_inbox()\n```");
    expect(first.usage.cacheWrite).toBeGreaterThan(0);
    expect(first.usage.cacheRead).toBe(0);
    // The same prompt again: the provider's cache is read, not written.
    expect(second.usage.cacheRead).toBe(first.usage.cacheWrite);
    expect(second.usage.cacheWrite).toBe(0);
    expect(second.usage.output).toBeGreaterThan(0);
    expect(first.stopReason).toBe("end_turn");
  });

  test("a one-hour cache lifetime can be asked for", async () => {
    const planner = anthropicPlanner({ client, model: "test-planner", cacheTtl: "1h" });
    server.enqueue({ text: "```js\n1\n```" });
    await planner.complete(ask);
    expect(server.requests[0].body.system[0].cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
  });

  test("429 and 529 are retried by sluice's call layer after the server's retry-after", async () => {
    const planner = anthropicPlanner({ client, model: "test-planner", retry: { baseMs: 1, capMs: 1 } });
    server.enqueue(rateLimited(1), overloaded(1), { text: "```js\n2\n```" });
    const r = await planner.complete(ask);
    expect(r.text).toBe("```js\n2\n```");
    expect(server.requests.map((q) => q.status)).toEqual([429, 529, 200]);
  });

  test("errors the layer gives up on become ModelErrors with status and type; the client's own retries are not used", async () => {
    // The client would retry 5 times by itself; only the layer's 2 attempts are made.
    const planner = anthropicPlanner({ client: new Anthropic({ apiKey: "k", baseURL: server.url, maxRetries: 5 }), model: "test-planner", retry: { attempts: 2, baseMs: 1, capMs: 1 } });
    server.enqueue(overloaded(1), overloaded(1));
    const err = await planner.complete(ask).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ status: 529, type: "overloaded_error" });
    expect(server.requests).toHaveLength(2);
    server.requests.length = 0;

    server.enqueue({ status: 400, errorType: "invalid_request_error", message: "prompt is too long" });
    const bad = await anthropicPlanner({ client, model: "test-planner" }).complete(ask).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, type: "invalid_request_error" });
    expect((bad as Error).message).toContain("prompt is too long");
    // A bad request is the caller's fault: not retried.
    expect(server.requests.map((q) => q.status)).toEqual([400]);
  });

  test("the mock server validates requests as the API does", async () => {
    const planner = anthropicPlanner({ client, model: "test-planner" });
    const err = await planner.complete({ system: SYSTEM, messages: [{ role: "assistant", content: "hi" }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
    expect((err as Error).message).toContain("first message must use the \"user\" role");
  });

  test("with no key the planner is still constructed, and a call explains what is missing", async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const planner = anthropicPlanner({ model: "test-planner", baseURL: server.url });
      await expect(planner.complete(ask)).rejects.toThrow(/no API key/);
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  test("an explicit apiKey and baseURL build a working client", async () => {
    const planner = anthropicPlanner({ model: "test-planner", apiKey: "k2", baseURL: server.url, maxRetries: 0 });
    server.enqueue({ text: "```js\n3\n```" });
    expect((await planner.complete(ask)).text).toBe("```js\n3\n```");
    expect(server.requests[0].headers.authorization ?? server.requests[0].headers["x-api-key"]).toContain("k2");
  });

  test("bad options are clear errors", () => {
    expect(() => anthropicPlanner({ model: "" })).toThrow(/model/);
    expect(() => anthropicPlanner({ model: "m", maxTokens: 0 })).toThrow(/maxTokens/);
  });
});
