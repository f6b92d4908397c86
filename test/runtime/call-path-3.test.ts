/**
 * Written for a review of 32d05b9, in which the main thread, after answering, polls the worker's
 * port for up to 0.1 ms (while fewer than MAX_IN_A_ROW requests were answered since the event
 * loop last turned) and handles the message it finds; whatever shortcut the host's handshake
 * takes, these must hold. What this file checks: how many calls a run makes per event-loop turn, alone and with other runs on the
 * pool; what a tool schedules (process.nextTick, a promise chain, setImmediate, socket I/O)
 * runs before, or within a few of, the calls after it; the caller's async context
 * (AsyncLocalStorage, OpenTelemetry's active span) in every call; order and recursion over many
 * calls; runs that end right after fast calls.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, connect, type AddressInfo, type Socket } from "node:net";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool } from "../../src/index.js";
import { httpError } from "../calls/support.js";
import { sleep, trustedTool } from "./call-path-support.js";
import { MAX_IN_A_ROW } from "../../src/runtime/pool.js";


/** Counts event-loop turns: a setImmediate that schedules itself runs once per check phase. */
function turns(): { readonly n: number; stop(): void } {
  let n = 0;
  let going = true;
  const tick = () => {
    n++;
    if (going) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get n() {
      return n;
    },
    stop: () => void (going = false),
  };
}

/** How a tool answers: 0 at once, 1 after a microtask, 2 after a setImmediate, 3 after a timer, 4 after a process.nextTick. */
async function answerBy(d: number): Promise<void> {
  if (d === 4) await new Promise((r) => process.nextTick(r));
  if (d === 1) await Promise.resolve();
  if (d === 2) await new Promise((r) => setImmediate(r));
  if (d === 3) await sleep(1);
}

describe("the event loop turns every few calls", () => {
  it("held: a run makes at most MAX_IN_A_ROW (16) calls per event-loop turn, whether its tool answers at once, after a microtask, after a process.nextTick or after a setImmediate; a setImmediate a tool schedules runs within as many", async () => {
    for (const d of [0, 1, 4, 2]) {
      let n = 0;
      const perTurn = new Map<number, number>();
      const lags: number[] = [];
      let loop = turns();
      const fast = trustedTool({
        name: "fast",
        run: async (a: { v: number }) => {
          const at = ++n;
          perTurn.set(loop.n, (perTurn.get(loop.n) ?? 0) + 1);
          if (at % 50 === 0) setImmediate(() => lags.push(n - at));
          await answerBy(d);
          return { v: a.v };
        },
      });
      const rt = createRuntime({ tools: [fast], limits: { hostCalls: 100_000, timeMs: 60_000 } });
      await rt.run(`fast({ v: 1 })`);
      loop.stop();
      n = 0;
      perTurn.clear();
      loop = turns();
      const r = await rt.run(`let s = 0;\nfor (let i = 0; i < 1000; i++) s += fast({ v: 1 }).v;\ns`);
      loop.stop();
      expect(r.value).toBe(1000);
      expect(Math.max(...perTurn.values()), `answered by ${d}`).toBeLessThanOrEqual(MAX_IN_A_ROW);
      expect(Math.max(...lags), `answered by ${d}`).toBeLessThanOrEqual(MAX_IN_A_ROW);
    }
  }, 60_000);

  it("held: three runs at once on the pool (more runs than workers on 2 cores), tools answering at once: none makes more than 3 calls per event-loop turn, all finish", async () => {
    const loop = turns();
    const perTurn = new Map<string, number>();
    const runs = [1, 2, 3].map((k) => {
      const fast = trustedTool({
        name: "fast",
        run: (a: { v: number }) => {
          const key = `${k}:${loop.n}`;
          perTurn.set(key, (perTurn.get(key) ?? 0) + 1);
          return { v: a.v * k };
        },
      });
      return createRuntime({ tools: [fast], limits: { hostCalls: 100_000, timeMs: 60_000 } }).run(`let s = 0;\nfor (let i = 0; i < 600; i++) s += fast({ v: 1 }).v;\ns`);
    });
    const values = (await Promise.all(runs)).map((r) => r.value);
    loop.stop();
    expect(values).toEqual([600, 1200, 1800]);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(MAX_IN_A_ROW);
  }, 60_000);

  it("held: data another part of the process receives on a socket is read within a few calls of a run whose tool answers at once", async () => {
    // A socket's readiness is seen in the poll phase: no thread-pool thread that a busy machine may not schedule.
    let reader!: Socket;
    const server = createServer((s) => (reader = s));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const writer = connect((server.address() as AddressInfo).port, "127.0.0.1");
    await new Promise<void>((r) => writer.on("connect", r));
    while (reader === undefined) await sleep(1);
    let n = 0;
    const sentAt: number[] = [];
    const lags: number[] = [];
    reader.on("data", (b: Buffer) => {
      for (let i = 0; i < b.length; i++) lags.push(n - sentAt[lags.length]);
    });
    const fast = trustedTool({
      name: "fast",
      run: (a: { v: number }) => {
        if (++n % 50 === 0) {
          sentAt.push(n);
          writer.write("x");
        }
        return { v: a.v };
      },
    });
    try {
      const rt = createRuntime({ tools: [fast], limits: { hostCalls: 100_000, timeMs: 60_000 } });
      const r = await rt.run(`let s = 0;\nfor (let i = 0; i < 1500; i++) s += fast({ v: 1 }).v;\ns`);
      expect(r.value).toBe(1500);
      await sleep(20);
      expect(lags).toHaveLength(30);
      // One event-loop turn is at most MAX_IN_A_ROW calls; a write made in the check phase is read a turn later.
      expect(Math.max(...lags)).toBeLessThanOrEqual(2 * MAX_IN_A_ROW);
    } finally {
      writer.destroy();
      reader.destroy();
      server.close();
    }
  }, 60_000);
});

describe("what a call schedules has run before the next call starts", () => {
  // Each request is its own port event, and Node drains the nextTick queue and the microtask
  // queue after each: whatever a tool's call queued there (a process.nextTick, a promise chain:
  // an EventEmitter's deferred 'end', a client freeing its connection) has run before the host
  // starts the next call. 32d05b9 handled a polled request inside the previous answer's promise
  // callback, before any nextTick, and the next call (and the one after) started first; it is
  // handled on the next tick now.
  it("a process.nextTick and a 20-step promise chain a tool starts have run when the next call of the run starts, whether the tool answers at once or after a microtask", async () => {
    for (const d of [0, 1]) {
      let n = 0;
      let ticked = 0;
      let chained = 0;
      const late: string[] = [];
      const tool = trustedTool({
        name: "t",
        run: async (a: { v: number }) => {
          const at = ++n;
          if (ticked !== at - 1) late.push(`call ${at}: the nextTick of call ${at - 1} has not run`);
          if (chained !== at - 1) late.push(`call ${at}: the promise chain of call ${at - 1} has not ended`);
          process.nextTick(() => (ticked = at));
          void (async () => {
            for (let j = 0; j < 20; j++) await null;
            chained = at;
          })();
          await answerBy(d);
          return { v: a.v };
        },
      });
      const r = await createRuntime({ tools: [tool], limits: { hostCalls: 10_000 } }).run(`let s = 0;\nfor (let i = 0; i < 1000; i++) s += t({ v: 1 }).v;\ns`);
      expect(r.value).toBe(1000);
      expect(late.slice(0, 3), `answered by ${d}: ${late.length} late`).toEqual([]);
    }
  }, 60_000);

  it("a tool that frees its client on the next tick (as a stream's 'end' does) is never called while the client is still busy", async () => {
    let busy = false;
    const client = {
      request(v: number): Promise<number> {
        if (busy) return Promise.reject(new Error("client busy"));
        busy = true;
        return new Promise((resolve) => {
          resolve(v);
          process.nextTick(() => (busy = false));
        });
      },
    };
    const tool = defineTool({ name: "get", description: "g", parameters: { type: "object" }, retry: { attempts: 1 }, label: () => Label.trusted(), run: async (a: { v: number }) => ({ v: await client.request(a.v) }) });
    const r = await createRuntime({ tools: [tool], limits: { hostCalls: 10_000 } }).run(`let bad = 0;\nfor (let i = 0; i < 1000; i++) { try { if (get({ v: i }).v !== i) bad++; } catch (e) { bad++; } }\nbad`);
    expect(r.status).toBe("completed");
    expect(r.value).toBe(0);
  }, 60_000);
});

describe("the caller's async context in every call, polled ones included", () => {
  it("held: three runs at once, each started in its own AsyncLocalStorage store: every call of each sees its run's store (answered at once, after a microtask, after a setImmediate, after a timer; Promise.all batches)", async () => {
    const als = new AsyncLocalStorage<string>();
    const seen: Record<string, string[]> = {};
    const tool = trustedTool({
      name: "who",
      run: async (a: { k: string; d: number }) => {
        (seen[a.k] ??= []).push(als.getStore() ?? "none");
        await answerBy(a.d);
        (seen[a.k] ??= []).push(als.getStore() ?? "none");
        return { ok: true };
      },
    });
    const rt = createRuntime({ tools: [tool], limits: { hostCalls: 10_000 } });
    const program = (k: string) =>
      `for (let i = 0; i < 200; i++) { who({ k: "${k}", d: i % 4 }); who({ k: "${k}", d: 0 }); }\nfor (let i = 0; i < 20; i++) await Promise.all([who({ k: "${k}", d: 0 }), who({ k: "${k}", d: 1 }), who({ k: "${k}", d: 3 })]);\n1`;
    const rs = await Promise.all(["a", "b", "c"].map((k) => als.run(k, () => rt.run(program(k)))));
    expect(rs.map((r) => r.status)).toEqual(["completed", "completed", "completed"]);
    for (const k of ["a", "b", "c"]) {
      expect(seen[k]).toHaveLength(2 * 460);
      expect(new Set(seen[k])).toEqual(new Set([k]));
    }
  }, 60_000);

  it("held: with a context manager registered, a tool's own span is a child of its call's execute_tool span, in the trace of the span its run was started under, for every call of two runs at once", async () => {
    const exporter = new InMemorySpanExporter();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      const tool = trustedTool({
        name: "traced",
        run: async (a: { k: string; d: number }) => {
          trace.getTracer("the-tool").startSpan(`own ${a.k}`).end();
          await answerBy(a.d);
          return { ok: true };
        },
      });
      const rt = createRuntime({ tools: [tool], limits: { hostCalls: 10_000 } });
      const tracer = trace.getTracer("app");
      const roots: Record<string, string> = {};
      await Promise.all(
        ["a", "b"].map((k) =>
          tracer.startActiveSpan(`app ${k}`, async (span) => {
            roots[k] = span.spanContext().traceId;
            const r = await rt.run(`for (let i = 0; i < 150; i++) traced({ k: "${k}", d: i % 3 === 2 ? 1 : 0 });\n1`);
            span.end();
            return r;
          }),
        ),
      );
      const spans = exporter.getFinishedSpans();
      const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
      for (const k of ["a", "b"]) {
        const own = spans.filter((s) => s.name === `own ${k}`);
        expect(own).toHaveLength(150);
        for (const s of own) {
          expect(s.spanContext().traceId).toBe(roots[k]);
          expect(byId.get(s.parentSpanContext?.spanId ?? "")?.name).toBe("execute_tool traced");
        }
      }
    } finally {
      trace.disable();
      context.disable();
    }
  }, 60_000);
});

describe("order, recursion and the end of a run with the poll", () => {
  it("held: 12,000 calls answered at once: each call reads its own answer, the record is in program order, no stack growth", async () => {
    const depths: number[] = [];
    const tool = trustedTool({
      name: "echo",
      run: (a: { v: number }) => {
        if (a.v % 100 === 0) {
          const limit = Error.stackTraceLimit;
          Error.stackTraceLimit = Infinity;
          depths.push(new Error().stack!.split("\n").length);
          Error.stackTraceLimit = limit;
        }
        return { v: a.v };
      },
    });
    const r = await createRuntime({ tools: [tool], limits: { hostCalls: 100_000, timeMs: 60_000 } }).run(`let bad = 0;\nfor (let i = 0; i < 12000; i++) { if (echo({ v: i }).v !== i) bad++; }\nbad`);
    expect(r.status).toBe("completed");
    expect(r.value).toBe(0);
    expect(r.calls).toHaveLength(12000);
    expect(r.calls.every((c, i) => (c.args as { v: number }).v === i)).toBe(true);
    // The stack a tool runs on does not grow with the calls before it (a polled request is not handled on the previous one's stack).
    expect(depths).toHaveLength(120);
    expect(Math.max(...depths)).toBeLessThan(Math.min(...depths) + 20);
    expect(Math.max(...depths)).toBeLessThan(100);
  }, 60_000);

  it("held: runs that end right after fast calls (a throw, a step limit, a budget refusal, a host failure, a completed value) each end as they should while another run on the pool goes on; the pool then answers correctly", async () => {
    const fast = trustedTool({ name: "fast", run: (a: { v: number }) => ({ v: a.v }) });
    let fails = 0;
    const boom = defineTool({ name: "boom", description: "b", parameters: { type: "object" }, retry: { attempts: 1 }, run: () => { fails++; throw httpError(503); } });
    const ends = async () => {
      const thrown = await createRuntime({ tools: [fast] }).run(`for (let i = 0; i < 30; i++) fast({ v: i });\nthrow new Error("after");`);
      expect(thrown.status).toBe("failed");
      expect(thrown.error?.message).toContain("after");
      const steps = await createRuntime({ tools: [fast], limits: { steps: 400 } }).run(`for (let i = 0; i < 10000; i++) fast({ v: i });\n1`);
      expect(steps.error?.kind).toBe("limit");
      const budget = await createRuntime({ tools: [fast], budget: { steps: 25 } }).run(`for (let i = 0; i < 100; i++) fast({ v: i });\n1`);
      expect(budget.error?.kind).toBe("limit");
      expect(budget.calls.length).toBeLessThanOrEqual(26);
      const failed = await createRuntime({ tools: [fast, boom] }).run(`for (let i = 0; i < 30; i++) fast({ v: i });\nlet m = ""; try { boom({}); } catch (e) { m = "caught"; }\nfast({ v: 7 }).v`);
      expect(failed.value).toBe(7);
      const done = await createRuntime({ tools: [fast] }).run(`let s = 0; for (let i = 0; i < 30; i++) s += fast({ v: i }).v;\ns`);
      expect(done.value).toBe(435);
    };
    const other = createRuntime({ tools: [fast], limits: { hostCalls: 100_000 } }).run(`let s = 0;\nfor (let i = 0; i < 3000; i++) s += fast({ v: 1 }).v;\ns`);
    for (let i = 0; i < 3; i++) await ends();
    expect((await other).value).toBe(3000);
    expect(fails).toBe(3);
    const after = await createRuntime({ tools: [fast] }).run(`fast({ v: 5 }).v + fast({ v: 6 }).v`);
    expect(after.value).toBe(11);
  }, 60_000);

  it("held: host time is not the program's with polled calls: 400 calls each answered after a 2 ms timer fit a 300 ms time limit; the program's own work between fast calls adds up to its limit; a busy loop after 300 fast calls is still stopped", async () => {
    const slowish = trustedTool({ name: "slowish", run: async (a: { v: number }) => { await sleep(2); return { v: a.v }; } });
    const fits = await createRuntime({ tools: [slowish], limits: { timeMs: 300, hostCalls: 10_000 } }).run(`let s = 0;\nfor (let i = 0; i < 400; i++) s += slowish({ v: 1 }).v;\ns`);
    expect(fits.status).toBe("completed");
    expect(fits.value).toBe(400);
    const fast = trustedTool({ name: "fast", run: (a: { v: number }) => ({ v: a.v }) });
    // The program's own work between fast calls adds up: 400 × 100,000 steps is well over 200 ms.
    const works = await createRuntime({ tools: [fast], limits: { timeMs: 200, steps: 1e12, hostCalls: 10_000 } as never }).run(`for (let i = 0; i < 400; i++) { let j = 0; while (j < 100000) j++; fast({ v: j }); }\n1`);
    expect(works.error?.kind).toBe("limit");
    expect(works.calls.length).toBeLessThan(400);
    const t0 = Date.now();
    const busy = await createRuntime({ tools: [fast], limits: { timeMs: 200, steps: 1e12, hostCalls: 10_000 } as never }).run(`for (let i = 0; i < 300; i++) fast({ v: 1 });\nwhile (true) {}`);
    expect(busy.error?.kind).toBe("limit");
    expect(Date.now() - t0).toBeLessThan(10_000);
  }, 60_000);
});
