/** Circuit breakers and token buckets, shared by the calls of one resource, on a fake clock. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCallLayer, type CallOutcome } from "../../src/calls/index.js";
import { createBuckets } from "../../src/calls/buckets.js";
import { drain, httpError, installClock, request, scriptedTool, socketError } from "./support.js";

let clock: ReturnType<typeof installClock>;
beforeEach(() => {
  clock = installClock();
});
afterEach(() => clock.uninstall());

const kinds = (outs: CallOutcome[]) => outs.map((o) => (o.kind === "error" ? o.failure.kind : o.kind));

describe("circuit breaker", () => {
  it("opens after `failures` failed calls, fails fast with a plain error, lets one trial through after the cooldown, closes when it succeeds", async () => {
    const down = socketError("ECONNREFUSED");
    const { tool, seen } = scriptedTool([down, down, down, down, "back"]);
    const layer = createCallLayer({ retry: { attempts: 1 }, breaker: { failures: 3, cooldownMs: 1000 } });
    const call = () => drain(clock, layer.executeCall(request(tool)));
    const first = [await call(), await call(), await call()];
    expect(kinds(first)).toEqual(["connection", "connection", "connection"]);
    expect(layer.breakerState("flaky")).toBe("open");

    const fast = await call();
    expect(seen).toHaveLength(3);
    expect(fast).toMatchObject({ kind: "error", failure: { kind: "circuit_open" } });
    expect(fast.kind === "error" && fast.message).toBe(
      "flaky is not being called: its circuit breaker is open after repeated failures (its last 3 calls failed; one trial call goes through every 1000 ms); catch this error to do without it",
    );

    await clock.tickAsync(1000);
    expect(kinds([await call()])).toEqual(["connection"]); // the trial: still down, open again
    expect(seen).toHaveLength(4);
    expect(kinds([await call()])).toEqual(["circuit_open"]);
    await clock.tickAsync(1000);
    expect(await call()).toMatchObject({ kind: "value", value: "back" });
    expect(layer.breakerState("flaky")).toBe("closed");
    expect(kinds([await call(), await call()])).toEqual(["value", "value"]);
    expect(seen).toHaveLength(7);
  });

  it("counts calls, not attempts, and the half-open trial is one attempt", async () => {
    const { tool, seen } = scriptedTool([httpError(503)]);
    const layer = createCallLayer({ retry: { attempts: 3, baseMs: 1, capMs: 1 }, breaker: { failures: 2, cooldownMs: 500 } });
    const call = () => drain(clock, layer.executeCall(request(tool)));
    await call();
    expect(layer.breakerState("flaky")).toBe("closed");
    await call();
    expect(seen).toHaveLength(6);
    expect(layer.breakerState("flaky")).toBe("open");
    await clock.tickAsync(500);
    const trial = await call();
    expect(trial).toMatchObject({ kind: "error", attempts: 1, failure: { kind: "unavailable" } });
    expect(seen).toHaveLength(7);
  });

  it("a tool saying the request was wrong (4xx) does not open it", async () => {
    const { tool } = scriptedTool([httpError(400)]);
    const layer = createCallLayer({ breaker: { failures: 2, cooldownMs: 500 } });
    for (let i = 0; i < 5; i++) await drain(clock, layer.executeCall(request(tool)));
    expect(layer.breakerState("flaky")).toBe("closed");
  });

  it("is shared by every tool of one resource (an MCP server)", async () => {
    const a = scriptedTool([socketError("ECONNRESET")]);
    const b = scriptedTool(["fine"], { name: "other" });
    const layer = createCallLayer({ retry: { attempts: 1 }, breaker: { failures: 2, cooldownMs: 500 } });
    for (let i = 0; i < 2; i++) await drain(clock, layer.executeCall({ ...request(a.tool), resource: "mcp:files" }));
    const out = await drain(clock, layer.executeCall({ ...request(b.tool), resource: "mcp:files" }));
    expect(out).toMatchObject({ kind: "error", failure: { kind: "circuit_open" } });
    expect(out.kind === "error" && out.message).toMatch(/mcp:files's last 2 calls failed/);
    expect(b.seen).toHaveLength(0);
  });
});

describe("token bucket", () => {
  it("paces a tool's calls to perSecond after its burst", async () => {
    const { tool, seen } = scriptedTool(["ok"], { rateLimit: { perSecond: 2, burst: 2 } });
    const layer = createCallLayer();
    const t0 = Date.now();
    await drain(clock, Promise.all(Array.from({ length: 6 }, (_, i) => layer.executeCall(request(tool, i)))));
    expect(seen.map((s) => s.at - t0)).toEqual([0, 0, 500, 1000, 1500, 2000]);
  });

  it("a 429 with Retry-After holds back every caller of the resource until then", async () => {
    const { tool, seen } = scriptedTool([httpError(429, { retryAfterMs: 3000 }), "ok"]);
    const layer = createCallLayer({ retry: { baseMs: 1, capMs: 1 }, rateLimits: { "mcp:web": { perSecond: 10 } } });
    const t0 = Date.now();
    const first = layer.executeCall({ ...request(tool, 1), resource: "mcp:web" });
    await clock.tickAsync(10);
    const second = layer.executeCall({ ...request(tool, 2), resource: "mcp:web" });
    await drain(clock, Promise.all([first, second]));
    expect(seen.map((s) => s.at - t0)).toEqual([0, 3000, 3100]);
  });

  it("fails fast as rate_limited when the next slot comes after the deadline, without calling the tool", async () => {
    const { tool, seen } = scriptedTool(["ok"], { rateLimit: { perSecond: 0.01, burst: 1 } });
    const layer = createCallLayer({ retry: { deadlineMs: 10_000 } });
    await drain(clock, layer.executeCall(request(tool, 1)));
    const out = await drain(clock, layer.executeCall(request(tool, 2)));
    expect(seen).toHaveLength(1);
    expect(out).toMatchObject({ kind: "error", attempts: 1, failure: { kind: "rate_limited" } });
  });

  it("charges a model request's worst-case tokens per minute", async () => {
    const buckets = createBuckets();
    const keys = [["model:anthropic", { tokensPerMinute: 60_000 }]] as const;
    const t0 = Date.now();
    const starts: number[] = [];
    const take = async () => {
      await buckets.take({ keys, tokens: 40_000, deadline: Infinity, name: "planner" });
      starts.push(Date.now() - t0);
    };
    await drain(clock, Promise.all([take(), take(), take()]));
    // 60k at the start: one request; then 1,000 tokens a second refill the 20k missing, then 40k more.
    expect(starts).toEqual([0, 20_000, 60_000]);
  });
});

describe("a model API behind the layer", () => {
  it("charges each attempt's worst-case tokens to the resource's tokens-per-minute bucket", async () => {
    const { tool, seen } = scriptedTool([{ text: "plan" }], { name: "anthropic_messages" });
    const layer = createCallLayer({ rateLimits: { "model:anthropic": { tokensPerMinute: 60_000 } } });
    const t0 = Date.now();
    const call = (n: number) => layer.executeCall({ ...request(tool, n), resource: "model:anthropic", tokens: 40_000 });
    await drain(clock, Promise.all([call(1), call(2)]));
    expect(seen.map((s) => s.at - t0)).toEqual([0, 20_000]);
  });
});
