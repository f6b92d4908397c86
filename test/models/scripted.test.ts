import { describe, expect, test } from "vitest";
import { createUsageMeter, NOT_ENOUGH_INFORMATION, scriptedPlanner, scriptedReader, withMeter } from "../../src/models/index.js";
import { NotEnoughInformation } from "../../src/runtime/types.js";

const ask = { system: "sys", messages: [{ role: "user" as const, content: "do it" }] };
const STR = { type: "string" };

describe("scriptedPlanner", () => {
  test("answers with the given programs in order, fenced, and keeps the requests", async () => {
    const planner = scriptedPlanner(["const a = 1;\na", { raw: "no code here" }, (req) => `// ${req.messages.length}`]);
    expect((await planner.complete(ask)).text).toBe("```js\nconst a = 1;\na\n```");
    expect((await planner.complete(ask)).text).toBe("no code here");
    expect((await planner.complete(ask)).text).toBe("```js\n// 1\n```");
    expect(planner.requests).toHaveLength(3);
    await expect(planner.complete(ask)).rejects.toThrow(/no program for turn 4/);
  });

  test("reports the usage it is told to, free by default", async () => {
    expect((await scriptedPlanner(["1"]).complete(ask)).usage).toEqual({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0 });
    const p = scriptedPlanner(["1"], { model: "m", maxTokens: 50, usage: { input: 10, cacheRead: 0, cacheWrite: 0, output: 5 } });
    expect(p.model).toBe("m");
    expect(p.maxTokens).toBe(50);
    expect((await p.complete(ask)).usage.input).toBe(10);
  });

  test("bad scripts are clear errors", async () => {
    expect(() => scriptedPlanner("x" as never)).toThrow(/array/);
    await expect(scriptedPlanner([42 as never]).complete(ask)).rejects.toThrow(/program string/);
  });
});

describe("scriptedReader", () => {
  test("answers from a table: first matching row, substring or pattern", async () => {
    const reader = scriptedReader([
      { when: /invoice #\d+/, answer: "invoice" },
      { when: "meeting", answer: "meeting" },
      { when: "meeting tomorrow", answer: "never reached" },
    ]);
    await expect(reader.query({ prompt: "about the meeting tomorrow", schema: STR })).resolves.toBe("meeting");
    await expect(reader.query({ prompt: "pay invoice #12", schema: STR })).resolves.toBe("invoice");
    expect(reader.requests.map((r) => r.prompt)).toEqual(["about the meeting tomorrow", "pay invoice #12"]);
  });

  test("an object table matches by substring; no match means not enough information", async () => {
    const reader = scriptedReader({ Bob: { email: "bob@example.com" } });
    const schema = { type: "object", properties: { email: { type: "string" } } };
    await expect(reader.query({ prompt: "Who is Bob?", schema })).resolves.toEqual({ email: "bob@example.com" });
    await expect(reader.query({ prompt: "Who is Alice?", schema })).rejects.toBeInstanceOf(NotEnoughInformation);
  });

  test("answers from a function, which can say it lacks the information", async () => {
    const reader = scriptedReader(({ prompt }) => (prompt.includes("?") ? NOT_ENOUGH_INFORMATION : prompt.length));
    await expect(reader.query({ prompt: "abcd", schema: { type: "integer" } })).resolves.toBe(4);
    await expect(reader.query({ prompt: "what?", schema: { type: "integer" } })).rejects.toBeInstanceOf(NotEnoughInformation);
  });

  test("answers are checked against the schema, as the real reader's are", async () => {
    const reader = scriptedReader({ x: "not a number" });
    await expect(reader.query({ prompt: "x", schema: { type: "number" } })).rejects.toThrow(/does not match the schema/);
    await expect(reader.query({ prompt: "x", schema: { type: "nope" } })).rejects.toThrow(/invalid JSON Schema/);
    expect(() => scriptedReader(null as never)).toThrow(/table of answers or a function/);
  });

  test("each query is a step of the run's budget", async () => {
    const reader = scriptedReader({ a: "b" });
    const meter = createUsageMeter({ budget: { steps: 1 } });
    await withMeter(meter, async () => {
      await reader.query({ prompt: "a", schema: STR });
      await expect(reader.query({ prompt: "a", schema: STR })).rejects.toThrow(/step budget/);
    });
    expect(meter.report().steps).toBe(1);
  });
});

describe("schema checks shared by the readers", () => {
  test("formats are enforced when known and accepted unchecked when not", async () => {
    const reader = scriptedReader({ mail: "not-an-email", phone: "+1 555" });
    await expect(reader.query({ prompt: "mail", schema: { type: "string", format: "email" } })).rejects.toThrow(/must match format "email"/);
    await expect(reader.query({ prompt: "phone", schema: { type: "string", format: "phone-number" } })).resolves.toBe("+1 555");
  });
});
