/**
 * Review (attacker + concurrency) of 18e402a's host-boundary cuts: the worker's port carries
 * everything and the main thread polled it after an answer (since removed), self-disabling
 * spins (spin.ts), no span without a tracer provider (observer.ts), one abort listener per
 * signal (timeout.ts), and the frozen default retry (execute.ts). It found that the poll could
 * hold the event loop for hundreds of calls; the poll is removed.
 */
import { metrics, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { DEFAULT_RETRY, Label, createCallLayer, createRuntime, defineTool } from "../../src/index.js";
import { resolveRetry } from "../../src/calls/execute.js";
import { MAX_IN_A_ROW } from "../../src/runtime/pool.js";
import { sleep, trustedTool } from "./call-path-support.js";

const within = <T>(p: Promise<T>, ms: number): Promise<T | "hung"> => Promise.race([p, sleep(ms).then(() => "hung" as const)]);

function echoTool(name = "echo", k = 1) {
  return trustedTool({
    name,
    description: "Echoes.",
    run: async (a: { v: number; d?: number }) => {
      if ((a.d ?? 0) > 0) await sleep(a.d!);
      return { v: a.v * k };
    },
  });
}

describe("pool: port messages, the poll after an answer, worker reuse", () => {
  it("200 short runs in a row on the reused workers: each its own result (a 'done' found by the poll)", async () => {
    const rt = createRuntime({ tools: [echoTool()] });
    for (let i = 0; i < 200; i++) {
      const r = await rt.run(`echo({ v: ${i} }).v + echo({ v: 1 }).v`);
      expect(r.value).toBe(i + 1);
    }
  }, 60_000);

  it("runs interleaving fast and slow tools (the spins switching off and on) on several runtimes at once", async () => {
    const runs = [1, 2, 3, 4, 5, 6, 7, 8].map((k) =>
      createRuntime({ tools: [echoTool("echo", k)], limits: { hostCalls: 1000 } }).run(`let s = 0;\nfor (let i = 1; i <= 80; i++) s += echo({ v: i, d: (i % 7 === 0) ? 2 : 0 }).v;\ns`),
    );
    expect((await Promise.all(runs)).map((r) => r.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((k) => 3240 * k));
  }, 60_000);

  it("host time is not the program's: 5 tool calls of 150 ms under a 300 ms time limit complete", async () => {
    const r = await createRuntime({ tools: [echoTool()], limits: { timeMs: 300 } }).run(`let s = 0;\nfor (let i = 0; i < 5; i++) s += echo({ v: 1, d: 150 }).v;\ns`);
    expect(r.status).toBe("completed");
    expect(r.value).toBe(5);
  }, 20_000);

  it("a program that spins after fast calls is still stopped by its time limit; the next run on the pool is fine", async () => {
    const rt = createRuntime({ tools: [echoTool()], limits: { timeMs: 200, steps: 1e12 } as never });
    const r = await rt.run(`let s = 0;\nfor (let i = 0; i < 20; i++) s += echo({ v: 1 }).v;\nwhile (true) { s++; }`);
    expect(r.status).not.toBe("completed");
    const again = await rt.run(`echo({ v: 7 }).v`);
    expect(again.value).toBe(7);
  }, 20_000);

  it("a budget refusal right after fast calls (found by the poll) ends the run as a limit, and the pool recovers", async () => {
    const rt = createRuntime({ tools: [echoTool()], budget: { steps: 5 }, limits: { hostCalls: 100 } });
    const r = await within(rt.run(`let s = 0;\nfor (let i = 0; i < 20; i++) s += echo({ v: 1 }).v;\ns`), 10_000);
    expect(r).not.toBe("hung");
    expect((r as { status: string }).status).not.toBe("completed");
    const again = await createRuntime({ tools: [echoTool()] }).run(`echo({ v: 3 }).v`);
    expect(again.value).toBe(3);
  }, 20_000);
});

describe("what a tool can return: the run ends, the host never throws out of run() nor hangs", () => {
  const odd: Record<string, () => unknown> = {
    fn: () => ({ f: () => 1 }),
    symbol: () => ({ s: Symbol("x") }),
    bigint: () => ({ b: 10n }),
    getterThrows: () => ({ get x() { throw new Error("boom"); } }),
    proxyThrows: () => new Proxy({}, { ownKeys() { throw new Error("boom"); } }),
    cyclic: () => { const o: Record<string, unknown> = {}; o.self = o; return o; },
    map: () => new Map([[1, 2]]),
    date: () => new Date(0),
  };
  for (const [name, make] of Object.entries(odd)) {
    it(`a tool returning ${name}`, async () => {
      const tool = defineTool({ name: "odd", description: "Odd.", parameters: { type: "object" }, label: () => Label.trusted(), run: () => make() as never });
      const p = createRuntime({ tools: [tool] }).run(`const x = odd({}); 1`);
      const r = await within(p.then((v) => v, (e: unknown) => ({ threw: String(e) })), 5_000);
      expect(r).not.toBe("hung");
      expect(r).not.toHaveProperty("threw");
    }, 10_000);
  }
});

describe("abort: one listener per signal (timeout.ts)", () => {
  const slowTool = (seen: AbortSignal[]) =>
    defineTool({
      name: "slow",
      description: "Slow.",
      parameters: { type: "object" },
      label: () => Label.trusted(),
      retry: { attempts: 1, timeoutMs: 5_000 },
      run: async (_a: unknown, ctx) => {
        seen.push(ctx!.signal);
        await sleep(300);
        return { ok: true };
      },
    });

  it("aborting one run's signal cancels its in-flight attempt, not another's under another signal", async () => {
    const seen: AbortSignal[] = [];
    const tool = slowTool(seen);
    const layer = createCallLayer({});
    const a = new AbortController();
    const b = new AbortController();
    const base = { tool, args: {}, decision: "allow" as const, argsTrusted: true };
    const pa = layer.executeCall({ ...base, callId: "a", idempotencyKey: "a", signal: a.signal });
    const pb = layer.executeCall({ ...base, callId: "b", idempotencyKey: "b", signal: b.signal });
    await sleep(20);
    a.abort();
    const [ra, rb] = await Promise.all([pa, pb]);
    expect(ra.kind).not.toBe("value");
    expect(seen[0].aborted).toBe(true);
    expect(rb.kind).toBe("value");
    expect(seen[1].aborted).toBe(false);
  });

  it("a signal shared by sequential calls: the abort during the third cancels the third (the first two's entries gone)", async () => {
    const seen: AbortSignal[] = [];
    const tool = slowTool(seen);
    const layer = createCallLayer({});
    const a = new AbortController();
    const req = (i: number) => layer.executeCall({ tool, args: {}, decision: "allow", argsTrusted: true, callId: `c${i}`, idempotencyKey: `k${i}`, signal: a.signal });
    expect((await req(1)).kind).toBe("value");
    expect((await req(2)).kind).toBe("value");
    const p3 = req(3);
    await sleep(20);
    a.abort();
    const r3 = await p3;
    expect(r3.kind).not.toBe("value");
    expect(seen[2].aborted).toBe(true);
    expect(seen[0].aborted).toBe(false);
  });
});

describe("spans (observer.ts): none without a provider, all with one, also one registered after the runtime was made", () => {
  it("registered after createRuntime: an execute_tool span per call; after trace.disable() none, and no throw", async () => {
    const rt = createRuntime({ tools: [echoTool()] });
    expect((await rt.run(`echo({ v: 1 }).v`)).value).toBe(1);
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      expect((await rt.run(`echo({ v: 1 }).v + echo({ v: 2 }).v`)).value).toBe(3);
      expect(exporter.getFinishedSpans().filter((s) => s.name === "execute_tool echo")).toHaveLength(2);
    } finally {
      trace.disable();
    }
    exporter.reset();
    expect((await rt.run(`echo({ v: 1 }).v`)).value).toBe(1);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});

describe("resolveRetry (execute.ts): the frozen default", () => {
  it("calls with no retry options run with the defaults, which stay as they were; given options still win", async () => {
    expect(resolveRetry()).toBe(DEFAULT_RETRY);
    expect(resolveRetry(undefined, undefined)).toBe(DEFAULT_RETRY);
    expect(resolveRetry({ attempts: 1 }).attempts).toBe(1);
    const r = await createRuntime({ tools: [echoTool()] }).run(`echo({ v: 2 }).v`);
    expect(r.value).toBe(2);
    expect(DEFAULT_RETRY).toEqual({ attempts: 3, baseMs: 200, capMs: 5000, timeoutMs: 30_000, deadlineMs: 120_000, jitter: "full" });
    expect(Object.isFrozen(DEFAULT_RETRY)).toBe(true);
  });
});

describe("metrics without a tracer provider (observer.ts measuredOnly)", () => {
  it("the duration histogram is recorded for every call when only a meter provider is registered", async () => {
    class Reader extends MetricReader {
      protected async onShutdown() {}
      protected async onForceFlush() {}
    }
    const reader = new Reader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    try {
      const rt = createRuntime({ tools: [echoTool()] });
      expect((await rt.run(`echo({ v: 1 }).v + echo({ v: 2 }).v + echo({ v: 3 }).v`)).value).toBe(6);
      const { resourceMetrics } = await reader.collect();
      const all = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
      const hist = all.find((m) => m.descriptor.name.includes("duration") && m.dataPoints.some((d) => (d.attributes as Record<string, unknown>)["gen_ai.tool.name"] === "echo"));
      expect(hist).toBeDefined();
      const count = hist!.dataPoints.filter((d) => (d.attributes as Record<string, unknown>)["gen_ai.tool.name"] === "echo").reduce((n, d) => n + (d.value as { count: number }).count, 0);
      expect(count).toBe(3);
    } finally {
      metrics.disable();
    }
  });
});

describe("the event loop turns between a run's calls", () => {
  // 18e402a's main thread polled for the worker's next ask after each answer and handled it at
  // once: with a tool that answers in microtasks, call after call ran in one microtask chain and
  // the event loop (timers, I/O, other runs' workers, setImmediate) did not turn: 270-552 calls
  // here, unbounded where the spin never misses; a cap of 4 polled calls still let it wait 17-35.
  // The look is now bounded: at most MAX_IN_A_ROW requests are answered before the loop turns.
  it("a setImmediate a tool schedules runs within a few calls", async () => {
    let n = 0;
    const lags: number[] = [];
    const fast = defineTool({
      name: "fast",
      description: "Answers in the same tick.",
      parameters: { type: "object" },
      label: () => Label.trusted(),
      run: (a: { v: number }) => {
        const at = ++n;
        if (at % 500 === 0) setImmediate(() => lags.push(n - at));
        return { v: a.v };
      },
    });
    const rt = createRuntime({ tools: [fast], limits: { hostCalls: 100_000, timeMs: 60_000 } });
    await rt.run(`fast({ v: 1 })`);
    const r = await rt.run(`let s = 0;\nfor (let i = 0; i < 10000; i++) s += fast({ v: 1 }).v;\ns`);
    expect(r.value).toBe(10000);
    expect(Math.max(...lags)).toBeLessThan(MAX_IN_A_ROW + 2);
  }, 60_000);

  it("another run on the pool makes progress while one run makes many fast calls", async () => {
    const fast = defineTool({ name: "fast", description: "f", parameters: { type: "object" }, label: () => Label.trusted(), run: (a: { v: number }) => ({ v: a.v }) });
    let ticks = 0;
    const ticker = defineTool({ name: "tick", description: "t", parameters: { type: "object" }, label: () => Label.trusted(), run: async () => { await new Promise((r) => setImmediate(r)); return ++ticks; } });
    const hot = createRuntime({ tools: [fast], limits: { hostCalls: 100_000, timeMs: 60_000 } });
    const cold = createRuntime({ tools: [ticker], limits: { hostCalls: 100_000, timeMs: 60_000 } });
    await Promise.all([hot.run(`fast({ v: 1 })`), cold.run(`tick({})`)]);
    ticks = 0;
    let hotDone = false;
    const coldRun = cold.run(`let s = 0;\nfor (let i = 0; i < 100000; i++) s = tick({});\ns`);
    const t0 = performance.now();
    await hot.run(`let s = 0;\nfor (let i = 0; i < 10000; i++) s += fast({ v: 1 }).v;\ns`).then(() => (hotDone = true));
    const took = performance.now() - t0;
    const during = ticks;
    void coldRun;
    expect(hotDone).toBe(true);
    // At least one tick of the other run per 2 ms of the hot run (at 0ee8534: several hundred per second).
    expect(during).toBeGreaterThan(took / 2);
  }, 60_000);
});
