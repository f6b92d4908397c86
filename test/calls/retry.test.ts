/** Timeouts, retries, backoff waits, Retry-After, deadlines and budgets, on a fake clock. */
import type { ToolContext } from "../../src/tools/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { defineTool } from "../../src/index.js";
import { createAttemptBudget, createCallLayer, type CallOutcome } from "../../src/calls/index.js";
import { drain, httpError, installClock, request, scriptedTool, socketError } from "./support.js";

let clock: ReturnType<typeof installClock>;
beforeEach(() => {
  clock = installClock();
});
afterEach(() => clock.uninstall());

const gaps = (seen: Array<{ at: number }>) => seen.slice(1).map((s, i) => s.at - seen[i].at);

describe("retries", () => {
  it("retries a 503 and a 429 with waits drawn from [0, min(cap, base·2^(n−1))], one key and numbered attempts", async () => {
    const { tool, seen } = scriptedTool([httpError(503), httpError(429), httpError(503), { ok: true }]);
    const draws = [0.5, 0.25, 0.9];
    const layer = createCallLayer({ retry: { attempts: 4, baseMs: 100, capMs: 300 }, random: () => draws.shift()! });
    const out = await drain(clock, layer.executeCall(request(tool)));
    expect(out).toMatchObject({ kind: "value", value: { ok: true }, attempts: 4 });
    expect(seen.map((s) => s.ctx.attempt)).toEqual([1, 2, 3, 4]);
    expect(new Set(seen.map((s) => s.ctx.idempotencyKey))).toEqual(new Set(["key-1"]));
    // 0.5·100, 0.25·200, 0.9·min(300, 400)
    expect(gaps(seen)).toEqual([50, 50, 270]);
  });

  it("waits the whole bound with jitter 'none' (the comparison setting)", async () => {
    const { tool, seen } = scriptedTool([httpError(503), httpError(503), httpError(503), "done"]);
    const layer = createCallLayer({ retry: { attempts: 4, baseMs: 100, capMs: 250, jitter: "none" } });
    await drain(clock, layer.executeCall(request(tool)));
    expect(gaps(seen)).toEqual([100, 200, 250]);
  });

  it("retries connection resets and refusals, also when fetch wraps them in a cause", async () => {
    const wrapped = Object.assign(new TypeError("fetch failed"), { cause: socketError("ECONNRESET") });
    const { tool, seen } = scriptedTool([socketError("ECONNREFUSED"), wrapped, "ok"], { idempotent: true });
    const out = await drain(clock, createCallLayer({ retry: { attempts: 3 } }).executeCall(request(tool)));
    expect(out).toMatchObject({ kind: "value", value: "ok" });
    expect(seen).toHaveLength(3);
  });

  it.each([
    ["a plain error (the tool's own answer)", new Error("no such mailbox")],
    ["a 400", httpError(400)],
    ["a 404", httpError(404)],
    ["a 500 (not in the retry set)", httpError(500)],
    ["a 503 marked retryable: false", httpError(503, { retryable: false })],
  ])("does not retry %s", async (_name, err) => {
    const { tool, seen } = scriptedTool([err, "ok"]);
    const out = await drain(clock, createCallLayer({ retry: { attempts: 5 } }).executeCall(request(tool)));
    expect(seen).toHaveLength(1);
    expect(out).toMatchObject({ kind: "error", attempts: 1 });
  });

  it("retries any error marked retryable: true", async () => {
    const { tool, seen } = scriptedTool([Object.assign(new Error("try again"), { retryable: true }), "ok"]);
    const out = await drain(clock, createCallLayer().executeCall(request(tool)));
    expect(out).toMatchObject({ kind: "value", value: "ok", attempts: 2 });
    expect(seen).toHaveLength(2);
  });

  it("stops after `attempts` and reports the last failure", async () => {
    const { tool, seen } = scriptedTool([httpError(503)]);
    const out = await drain(clock, createCallLayer({ retry: { attempts: 3 } }).executeCall(request(tool)));
    expect(seen).toHaveLength(3);
    expect(out).toMatchObject({ kind: "error", attempts: 3, failure: { kind: "unavailable", status: 503 } });
  });
});

describe("timeouts and deadlines", () => {
  it("aborts ctx.signal when an attempt times out, and retries", async () => {
    const { tool, seen } = scriptedTool(["hang", "hang", "late but here"], { idempotent: true });
    const layer = createCallLayer({ retry: { attempts: 3, timeoutMs: 1000, baseMs: 10, capMs: 10 }, random: () => 0 });
    const out = await drain(clock, layer.executeCall(request(tool)));
    expect(out).toMatchObject({ kind: "value", value: "late but here", attempts: 3 });
    expect(seen.map((s) => s.ctx.signal.aborted)).toEqual([true, true, false]);
    expect(gaps(seen)).toEqual([1000, 1000]);
  });

  it("a tool that forwards its context with a spread forwards the attempt's signal, which still aborts", async () => {
    const forwarded: ToolContext[] = [];
    const inner = scriptedTool(["hang", "ok"], { idempotent: true });
    const tool = { ...inner.tool, run: (args: Record<string, unknown>, ctx?: ToolContext) => (forwarded.push({ ...ctx! }), inner.tool.run(args, { ...ctx! })) };
    const layer = createCallLayer({ retry: { attempts: 2, timeoutMs: 1000, baseMs: 10, capMs: 10 }, random: () => 0 });
    const out = await drain(clock, layer.executeCall(request(tool)));
    expect(out).toMatchObject({ kind: "value", value: "ok", attempts: 2 });
    expect(Object.keys(forwarded[0])).toEqual(["idempotencyKey", "signal", "attempt", "callId"]);
    expect(forwarded.map((c) => [c.attempt, c.signal.aborted])).toEqual([[1, true], [2, false]]);
  });

  it("a copy of the context made key by key from its descriptors says, when its signal is read, how to pass the context on", async () => {
    const tool = defineTool({
      name: "copier",
      description: "Copies its context property by property.",
      parameters: { type: "object" },
      run: (_args, ctx) => {
        const copy = {};
        for (const k of Object.keys(ctx!)) Object.defineProperty(copy, k, Object.getOwnPropertyDescriptor(ctx!, k)!);
        return (copy as ToolContext).signal.aborted;
      },
    });
    const out = await drain(clock, createCallLayer({ retry: { attempts: 1 } }).executeCall(request(tool)));
    expect(out).toMatchObject({ kind: "error", message: expect.stringMatching(/pass the context on as it is, or as a spread/) });
  });

  it("a read that ignores its signal still times out", async () => {
    const { tool } = scriptedTool([], {
      sideEffect: false,
      run: () => new Promise(() => {}),
    });
    const out = await drain(clock, createCallLayer({ retry: { attempts: 2, timeoutMs: 500 } }).executeCall(request(tool)));
    expect(out).toMatchObject({ kind: "error", attempts: 2, failure: { kind: "timeout" } });
    expect(out.durationMs).toBeGreaterThanOrEqual(1000);
  });

  it("keeps all attempts and waits within the deadline", async () => {
    const { tool, seen } = scriptedTool(["hang"], { idempotent: true });
    const layer = createCallLayer({ retry: { attempts: 10, timeoutMs: 1000, baseMs: 100, capMs: 100, deadlineMs: 2500 } });
    const out = (await drain(clock, layer.executeCall(request(tool)))) as Extract<CallOutcome, { kind: "error" }>;
    expect(out.kind).toBe("error");
    expect(out.durationMs).toBeLessThanOrEqual(2500);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeLessThan(10);
  });

  it("waits at least retryAfterMs, Retry-After seconds or an HTTP date", async () => {
    const date = new Date(Date.now() + 10_000).toUTCString();
    const { tool, seen } = scriptedTool([
      httpError(429, { retryAfterMs: 3000 }),
      httpError(429, { headers: new Headers({ "retry-after": "2" }) }),
      httpError(503, { response: { status: 503, headers: { "retry-after": date } } }),
      "ok",
    ]);
    const layer = createCallLayer({ retry: { attempts: 4, baseMs: 10, capMs: 10, deadlineMs: 60_000 }, random: () => 0 });
    const out = await drain(clock, layer.executeCall(request(tool)));
    expect(out.kind).toBe("value");
    const [a, b, c] = gaps(seen);
    expect(a).toBe(3000);
    expect(b).toBe(2000);
    // The date is 10 s after the start, 5 s of which have passed; it has a resolution of one second.
    expect(c).toBeGreaterThan(4000);
    expect(c).toBeLessThanOrEqual(5000);
  });

  it("does not retry when Retry-After points past the deadline", async () => {
    const { tool, seen } = scriptedTool([httpError(429, { retryAfterMs: 90_000 }), "ok"]);
    const out = await drain(clock, createCallLayer({ retry: { deadlineMs: 60_000 } }).executeCall(request(tool)));
    expect(seen).toHaveLength(1);
    expect(out).toMatchObject({ kind: "error", failure: { kind: "rate_limited", status: 429 } });
  });

  it("a stopped run cancels the attempt in flight and does not retry", async () => {
    const { tool, seen } = scriptedTool(["hang"]);
    const stop = new AbortController();
    const pending = createCallLayer({ retry: { attempts: 5, timeoutMs: 10_000 } }).executeCall({ ...request(tool), signal: stop.signal });
    await clock.tickAsync(100);
    stop.abort();
    const out = await drain(clock, pending);
    expect(out).toMatchObject({ kind: "error", failure: { kind: "cancelled" } });
    expect(seen).toHaveLength(1);
    expect(seen[0].ctx.signal.aborted).toBe(true);
  });
});

describe("budgets count retries", () => {
  it("refuses the attempt that would pass the step budget: the run ends with a limit", async () => {
    const { tool, seen } = scriptedTool([httpError(503)]);
    const budget = createAttemptBudget({ steps: 2 });
    const out = await drain(clock, createCallLayer({ retry: { attempts: 5 } }).executeCall({ ...request(tool), budget }));
    expect(seen).toHaveLength(2);
    expect(out.kind).toBe("limit");
    expect(out.kind === "limit" && out.message).toMatch(/step budget of 2 tool attempts/);
  });

  it("checks each attempt's worst-case dollars before it starts", async () => {
    const { tool, seen } = scriptedTool([httpError(503)], { costPerAttempt: 0.4 });
    const budget = createAttemptBudget({ dollars: 1 });
    const out = await drain(clock, createCallLayer({ retry: { attempts: 5 } }).executeCall({ ...request(tool), budget }));
    expect(seen).toHaveLength(2);
    expect(budget.dollars).toBeCloseTo(0.8);
    expect(out.kind === "limit" && out.message).toMatch(/could cost up to \$0\.4 but \$0\.2 of \$1 remain/);
  });
});

describe("bad options are clear errors", () => {
  it.each([
    [{ retry: { attempts: 0 } }, /retry\.attempts must be a positive integer/],
    [{ retry: { attemps: 3 } }, /unknown option "attemps"/],
    [{ retry: { jitter: "half" } }, /jitter must be "full" or "none"/],
    [{ breaker: { failures: 3 } }, /needs both failures and cooldownMs/],
    [{ rateLimits: { web: { burst: 2 } } }, /rateLimits\["web"\] needs perSecond or tokensPerMinute/],
  ])("%j", (options, message) => {
    expect(() => createCallLayer(options as never)).toThrow(message);
  });
});

describe("side effects and attempts that may have acted", () => {
  /** One attempt's fate: a value, an error that says nothing was done, or one after which the effect may be done. */
  const fate = fc.constantFrom("ok", "503", "refused", "own-error", "reset", "timeout", "timeout-late-value");
  it("property: for any run of failures, a side-effecting tool that is not idempotent never gets an attempt after one that may have acted, nor two at once; an idempotent one never two at once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fate, { minLength: 1, maxLength: 6 }), fc.boolean(), async (script, idempotent) => {
        let running = 0;
        let overlapped = false;
        const acted: boolean[] = [];
        const tool = defineTool({
          name: "effect", description: "Does something.", sideEffect: true, idempotent, parameters: { type: "object" },
          run: async (_a, ctx) => {
            const step = script[Math.min(ctx!.attempt - 1, script.length - 1)];
            if (running > 0) overlapped = true;
            running += 1;
            try {
              acted.push(["reset", "timeout", "timeout-late-value", "ok"].includes(step));
              if (step === "ok") return { ok: true };
              if (step === "503") throw httpError(503);
              if (step === "refused") throw socketError("ECONNREFUSED");
              if (step === "own-error") throw new Error("no such account");
              if (step === "reset") throw socketError("ECONNRESET");
              // Slower than the attempt timeout, ignoring the signal.
              await new Promise((r) => setTimeout(r, 1500));
              if (step === "timeout") throw new Error("gave up");
              return { late: true };
            } finally {
              running -= 1;
            }
          },
        });
        const layer = createCallLayer({ retry: { attempts: 6, timeoutMs: 1000, baseMs: 10, capMs: 10, deadlineMs: 60_000 } });
        const out = await drain(clock, layer.executeCall(request(tool)));
        if (overlapped) return false;
        const firstActed = acted.findIndex((a, i) => a && script[Math.min(i, script.length - 1)] !== "ok");
        if (!idempotent && firstActed >= 0 && acted.length > firstActed + 1) return false;
        // A call that may have acted and got no value says so.
        if (out.kind === "error" && firstActed >= 0 && out.failure.outcome !== "unknown") return false;
        return true;
      }),
      { numRuns: 200 },
    );
  });
});
