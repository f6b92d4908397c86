/**
 * The clock (CONTRACT.md, "Clock"): `createRuntime({ now })` takes a Date, an ISO 8601 string or
 * milliseconds since the epoch; in programs `new Date()` and `Date.now()` give that instant,
 * trusted, the same for the whole run; without `now`, the real time when `run` starts.
 */
import { describe, expect, it } from "vitest";
import { createRuntime, defineTool } from "../../src/index.js";
import { sink, trustedSource, untrustedSource } from "../support/tools.js";

const INSTANT = "2025-12-20T09:30:00.000Z";
const MS = Date.parse(INSTANT);

describe("createRuntime({ now })", () => {
  it.each([
    ["a Date", new Date(MS)],
    ["an ISO 8601 string", INSTANT],
    ["milliseconds since the epoch", MS],
  ])("takes %s: new Date() and Date.now() give that instant", async (_what, now) => {
    const r = await createRuntime({ now }).run("[new Date().toISOString(), Date.now(), new Date().getTime(), new Date().getUTCDay()]");
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([INSTANT, MS, MS, 6]);
  });

  it("a date-only ISO string is midnight UTC of that day", async () => {
    const r = await createRuntime({ now: "2025-12-20" }).run("new Date().toISOString()");
    expect(r.value).toBe("2025-12-20T00:00:00.000Z");
  });

  it("the instant is trusted and public: a sink with the default policy takes it without asking", async () => {
    const seen: unknown[] = [];
    let asked = 0;
    const runtime = createRuntime({ now: INSTANT, tools: [sink("send", seen)], approve: () => (asked++, false) });
    const r = await runtime.run('send({ value: "today is " + new Date().toISOString().slice(0, 10) + ", t=" + Date.now() }); Date.now()');
    expect(r.status).toBe("completed");
    expect(r.label?.trusted).toBe(true);
    expect(r.label?.readers).toBe("public");
    expect(asked).toBe(0);
    expect(seen).toEqual([`today is 2025-12-20, t=${MS}`]);
  });

  it("the same instant for the whole run, across tool calls", async () => {
    const slow = defineTool({ name: "slow", description: "Takes a while.", run: async () => (await new Promise((r) => setTimeout(r, 30)), 1) });
    const r = await createRuntime({ tools: [slow] }).run("const a = Date.now(); slow(); slow(); const b = new Date().getTime(); [a === b, b]");
    expect(r.error).toBeUndefined();
    expect((r.value as [boolean, number])[0]).toBe(true);
  });

  it("each run reads the given instant again, however much real time has passed", async () => {
    const runtime = createRuntime({ now: MS });
    const first = await runtime.run("Date.now()");
    await new Promise((r) => setTimeout(r, 20));
    const second = await runtime.run("Date.now()");
    expect([first.value, second.value]).toEqual([MS, MS]);
  });

  it("without now: the real time when run starts, fixed for the run", async () => {
    const slow = defineTool({ name: "slow", description: "Takes a while.", run: async () => (await new Promise((r) => setTimeout(r, 25)), 1) });
    const before = Date.now();
    const r = await createRuntime({ tools: [slow] }).run("const a = Date.now(); slow(); [a, Date.now(), new Date().getTime()]");
    const after = Date.now();
    const [a, b, c] = r.value as number[];
    expect(a).toBeGreaterThanOrEqual(before);
    expect(a).toBeLessThanOrEqual(after);
    expect([b, c]).toEqual([a, a]);
    expect(r.label?.trusted).toBe(true);
  });

  it("without now, a later run reads a later time", async () => {
    const runtime = createRuntime();
    const first = (await runtime.run("Date.now()")).value as number;
    await new Promise((r) => setTimeout(r, 15));
    const second = (await runtime.run("Date.now()")).value as number;
    expect(second).toBeGreaterThan(first);
  });

  it("the runtime shows the clock it was given (the agent tells the planner that date)", () => {
    expect(createRuntime({ now: INSTANT }).now).toBe(INSTANT);
    expect(createRuntime().now).toBeUndefined();
  });

  it.each([["not a date"], [Number.NaN], [new Date(Number.NaN)], [{}], [true]])("refuses a bad clock (%s) with a clear error", (now) => {
    expect(() => createRuntime({ now: now as never })).toThrow(/createRuntime: now must be a Date, an ISO 8601 string .* or milliseconds since the epoch/);
  });

  it.each([
    ["trusted", trustedSource({ days: 3 }), true],
    ["untrusted", untrustedSource({ days: 3 }, "read_trusted"), false],
  ] as const)("a date from the clock moved by %s data carries that data's label", async (_what, tool, trusted) => {
    const runtime = createRuntime({ now: INSTANT, tools: [tool] });
    const r = await runtime.run("const d = new Date(); d.setUTCDate(d.getUTCDate() + read_trusted().days); d.toISOString()");
    expect(r.value).toBe("2025-12-23T09:30:00.000Z");
    expect(r.label?.trusted).toBe(trusted);
  });
});
