import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicPlanner, createAgent, createRuntime, plannerFixedPrompt, plannerSystemPrompt, scriptedPlanner } from "../../src/index.js";
import { startMessagesServer, type MessagesServer } from "../support/messages-server.js";
import { notes, tools } from "../support/search-corpus.js";

const search = { k: 5, notes };

describe("createAgent with tool search", () => {
  it("keeps the system prompt byte-identical across requests and sends the chosen declarations after it", async () => {
    const planner = scriptedPlanner(["1", "2"]);
    const agent = createAgent({ runtime: createRuntime({ tools }), planner, toolSearch: search });
    await agent.run("call off the meeting with Acme on Friday");
    await agent.run("give Bob his money back for order 55");
    const [a, b] = planner.requests;
    expect(a.system).toBe(plannerFixedPrompt());
    expect(b.system).toBe(a.system);
    expect(agent.systemPrompt).toBe(a.system);
    expect(a.tools).toContain("declare function calendar_delete_event(");
    expect(a.tools).not.toContain("stripe_create_refund");
    expect(b.tools).toContain("declare function stripe_create_refund(");
    expect((a.tools!.match(/declare function /g) ?? []).length).toBe(5);
  });

  it("changes nothing without tool search: every declaration in the system prompt, no tools field", async () => {
    const planner = scriptedPlanner(["1"]);
    const runtime = createRuntime({ tools });
    await createAgent({ runtime, planner }).run("call off the meeting");
    expect(planner.requests[0].system).toBe(plannerSystemPrompt(runtime.tools));
    expect(planner.requests[0].tools).toBeUndefined();
  });

  it("shows only the tools it is allowed to offer, however relevant the others are", async () => {
    const planner = scriptedPlanner(["1"]);
    const offer = (t: { name: string }) => !t.name.startsWith("calendar_");
    await createAgent({ runtime: createRuntime({ tools }), planner, toolSearch: { ...search, offer } }).run("call off the meeting with Acme");
    expect(planner.requests[0].tools).not.toContain("calendar_");
    // A retriever of your own sees only the offered tools too.
    const seen: string[][] = [];
    const own = scriptedPlanner(["1"]);
    const mine = (t: readonly { name: string }[], _q: string, k: number) => (seen.push(t.map((x) => x.name)), t.slice(0, k).map((x) => x.name));
    await createAgent({ runtime: createRuntime({ tools }), planner: own, toolSearch: { k: 2, offer, search: mine } }).run("anything");
    expect(seen[0].some((n) => n.startsWith("calendar_"))).toBe(false);
    expect((own.requests[0].tools!.match(/declare function /g) ?? []).length).toBe(2);
  });

  describe("on the Messages API", () => {
    let server: MessagesServer;
    beforeAll(async () => {
      server = await startMessagesServer();
    });
    afterAll(() => server.close());

    it("caches the fixed part: a second request with other tools still reads the cache", async () => {
      const client = new Anthropic({ apiKey: "test-key", baseURL: server.url, maxRetries: 0 });
      const planner = anthropicPlanner({ client, model: "test-planner" });
      server.enqueue({ text: "```js\n1\n```" }, { text: "```js\n2\n```" });
      const agent = createAgent({ runtime: createRuntime({ tools }), planner, toolSearch: search });
      const first = await agent.run("call off the meeting with Acme on Friday");
      const second = await agent.run("give Bob his money back for order 55");
      const [one, two] = server.requests.map((r) => r.body.system);
      expect(one[0]).toEqual({ type: "text", text: plannerFixedPrompt(), cache_control: { type: "ephemeral" } });
      expect(two[0]).toEqual(one[0]);
      expect(one[1].text).not.toBe(two[1].text);
      expect(one[1].cache_control).toBeUndefined();
      expect(first.usage.cacheWrite).toBeGreaterThan(0);
      expect(second.usage.cacheRead).toBe(first.usage.cacheWrite);
    });
  });
});
