/**
 * The call path between the worker and the host: the worker's spin-then-sleep handshake (every
 * call reads its own answer, on the spin path and the sleep path, in batches, across runtimes,
 * after a stop; host time is not the program's), the arguments a tool gets (a fresh copy at every
 * attempt, also through a layer a user wrote), failure labels (replayed calls labelled as made
 * ones, also under a given layer's breaker), the label cache, canonical JSON and the buckets.
 * Written by a review of the per-call cuts of issue 11 (296b8e2, e2d1f3b).
 */
import { describe, expect, it } from "vitest";
import { Label, allow, createCallLayer, createRuntime, defineTool } from "../../src/index.js";
import type { CallLayer, CallRequest } from "../../src/calls/types.js";
import { createBuckets } from "../../src/calls/buckets.js";
import { failureLabelOf } from "../../src/calls/failure.js";
import { canonicalJson } from "../../src/policy/canonical.js";
import { httpError } from "../calls/support.js";
import { sleep, trustedTool } from "./call-path-support.js";


/** Echoes v; d picks how it answers: 0 at once (spin path), 1 after a microtask, 2 and 3 after a timer (sleep path). */
function echoTool(k = 1, name = "echo") {
  return trustedTool({
    name,
    description: "Echoes.",
    run: async (a: { v: number; d?: number }) => {
      const d = a.d ?? 0;
      if (d === 1) await Promise.resolve();
      if (d >= 2) await sleep(d - 1);
      return { v: a.v * k };
    },
  });
}

describe("handshake (296b8e2): every call reads its own answer, on the spin and the sleep path", () => {
  it("400 sequential calls alternating answered-at-once and answered-after-a-timer", async () => {
    const r = await createRuntime({ tools: [echoTool()], limits: { hostCalls: 10_000 } }).run(
      `let bad = 0;\nfor (let i = 0; i < 400; i++) { if (echo({ v: i, d: i % 4 }).v !== i) bad++; }\nbad`,
    );
    expect(r.status).toBe("completed");
    expect(r.value).toBe(0);
    expect(r.calls).toHaveLength(400);
  }, 30_000);

  it("1500 calls answered around the spin's end (a main-thread busy wait of 0 to 0.5 ms): no lost wake-up, no stale answer", async () => {
    let x = 12345;
    const edge = defineTool({
      name: "edge",
      description: "Answers near 0.25 ms.",
      parameters: { type: "object" },
      label: () => Label.trusted(),
      run: (a: { v: number }) => {
        x = (x * 1103515245 + 12345) % 2147483648;
        const until = performance.now() + (x / 2147483648) * 0.5;
        while (performance.now() < until);
        return { v: a.v };
      },
    });
    const t0 = Date.now();
    const r = await createRuntime({ tools: [edge], limits: { hostCalls: 10_000 } }).run(`let bad = 0;\nfor (let i = 0; i < 1500; i++) { if (edge({ v: i }).v !== i) bad++; }\nbad`);
    expect(r.status).toBe("completed");
    expect(r.value).toBe(0);
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 30_000);

  it("Promise.all batches of mixed latencies: one answer per batch, in order", async () => {
    const r = await createRuntime({ tools: [echoTool()], limits: { hostCalls: 10_000 } }).run(
      `let bad = 0;\nfor (let k = 0; k < 60; k++) {\n  const rs = await Promise.all([echo({ v: k * 10, d: 0 }), echo({ v: k * 10 + 1, d: 3 }), echo({ v: k * 10 + 2, d: 1 }), echo({ v: k * 10 + 3, d: 2 })]);\n  for (let j = 0; j < 4; j++) if (rs[j].v !== k * 10 + j) bad++;\n  if (echo({ v: -k, d: k % 4 }).v !== -k) bad++;\n}\nbad`,
    );
    expect(r.status).toBe("completed");
    expect(r.value).toBe(0);
    expect(r.calls).toHaveLength(300);
  }, 30_000);

  it("six runtimes at once on the shared pool (more runs than workers on 2 cores) each get their own answers", async () => {
    const runs = [1, 2, 3, 4, 5, 6].map((k) =>
      createRuntime({ tools: [echoTool(k)] }).run(`let s = 0;\nfor (let i = 1; i <= 60; i++) s += echo({ v: i, d: (i + ${k}) % 4 }).v;\ns`),
    );
    expect((await Promise.all(runs)).map((r) => r.value)).toEqual([1, 2, 3, 4, 5, 6].map((k) => 1830 * k));
  }, 30_000);

  it("a run stopped by the host while its worker sleeps (slow failing attempt, then a budget refusal), and one stopped while it spins; the next run is answered correctly", async () => {
    let attempts = 0;
    const slow = defineTool({
      name: "slow",
      description: "Fails slowly.",
      parameters: { type: "object" },
      retry: { attempts: 5, baseMs: 1, capMs: 2, timeoutMs: 1000 },
      run: async (a: { d: number }) => {
        attempts++;
        if (a.d > 0) await sleep(a.d);
        throw httpError(503);
      },
    });
    for (const d of [20, 0]) {
      const r = await createRuntime({ tools: [slow], budget: { steps: 2 } }).run(`slow({ d: ${d} });`);
      expect(r.status).toBe("failed");
      expect(r.error?.kind).toBe("limit");
    }
    expect(attempts).toBe(4);
    const after = await createRuntime({ tools: [echoTool(7)] }).run(`let s = 0;\nfor (let i = 1; i <= 20; i++) s += echo({ v: i, d: i % 4 }).v;\ns`);
    expect(after.value).toBe(210 * 7);
  }, 30_000);

  it("the time limit: host time (spin included) is not the program's, and a busy program after its calls is still stopped", async () => {
    const fits = await createRuntime({ tools: [echoTool()], limits: { timeMs: 150, hostCalls: 10_000 } }).run(`let s = 0;\nfor (let i = 0; i < 150; i++) s += echo({ v: 1, d: 3 }).v;\ns`);
    expect(fits.status).toBe("completed");
    expect(fits.value).toBe(150);
    const t0 = Date.now();
    const busy = await createRuntime({ tools: [echoTool()], limits: { timeMs: 200, steps: 1e12, hostCalls: 10_000 } }).run(`for (let i = 0; i < 50; i++) echo({ v: 1, d: i % 2 });\nwhile (true) {}`);
    expect(busy.error).toMatchObject({ kind: "limit" });
    expect(Date.now() - t0).toBeLessThan(3000);
  }, 30_000);
});

describe("freshArgs (e2d1f3b): what a tool does to its arguments", () => {
  it("held, built-in layer: a tool mutating its args changes neither the record nor a retry, also after a timeout of an idempotent side effect", async () => {
    const seen: number[] = [];
    const tool = defineTool({
      name: "put",
      description: "Puts.",
      parameters: { type: "object" },
      sideEffect: true,
      idempotent: true,
      policy: () => allow(),
      retry: { attempts: 3, baseMs: 1, capMs: 2, timeoutMs: 30 },
      run: async (a: { n: number; list: number[] }, ctx) => {
        seen.push(a.n);
        a.n = 99;
        a.list.push(99);
        if (ctx!.attempt === 1) {
          await sleep(60);
          a.n = 100;
          throw httpError(503);
        }
        return { n: a.n, len: a.list.length };
      },
    });
    const r = await createRuntime({ tools: [tool] }).run(`put({ n: 1, list: [1] })`);
    expect(r.status).toBe("completed");
    expect(seen).toEqual([1, 1]);
    expect(r.calls[0].args).toEqual({ n: 1, list: [1] });
    expect(r.value).toEqual({ n: 99, len: 2 });
  });

  it("a layer given to createRuntime that rebuilds the request it forwards (dropping freshArgs) still gives the tool a mutable copy, not the recorded, frozen args", async () => {
    const base = createCallLayer({});
    // A wrapping layer, as a user might write (logging, metrics): it rebuilds the request it forwards.
    const layer: CallLayer = {
      ...base,
      executeCall: (q: CallRequest) =>
        base.executeCall({ tool: q.tool, args: q.args, callId: q.callId, idempotencyKey: q.idempotencyKey, decision: q.decision, argsTrusted: q.argsTrusted, ...(q.signal ? { signal: q.signal } : {}), ...(q.failureLabel ? { failureLabel: q.failureLabel } : {}) }),
    };
    let got: unknown;
    const tool = defineTool({
      name: "put",
      description: "Puts.",
      parameters: { type: "object" },
      run: (a: { n: number }) => {
        got = a;
        a.n = a.n + 1;
        return { n: a.n };
      },
    });
    const r = await createRuntime({ tools: [tool], layer }).run(`put({ n: 1 }).n`);
    // Before e2d1f3b the host wrapped tool.run with structuredClone(args): a mutable copy, whatever the layer.
    expect(got).not.toBe(r.calls[0].args);
    expect(r.status).toBe("completed");
    expect(r.value).toBe(2);
  });
});

describe("failure labels (e2d1f3b)", () => {
  const reader = Label.of({ readers: ["alice"], trusted: true, sources: ["db"] });

  it("held: a failing call's error carries the tool's label for no result, forced untrusted with the resource; an own failure label is kept", async () => {
    const failing = (name: string, extra: Record<string, unknown>) =>
      defineTool({ name, description: "Fails.", parameters: { type: "object" }, retry: { attempts: 1 }, run: () => { throw new Error("boom"); }, ...extra });
    const a = failing("fa", { label: () => reader, resource: "mcp:srv" });
    const b = failing("fb", { failureLabel: Label.trusted() });
    const rt = createRuntime({ tools: [a, b] });
    const ra = await rt.run(`let m = "";\ntry { fa({}); } catch (e) { m = e.message; }\nm`);
    expect(ra.label?.readers).toEqual(["alice"]);
    expect(ra.label?.trusted).toBe(false);
    expect(ra.label?.sources).toEqual(["db", "mcp:srv"]);
    const rb = await rt.run(`let m = "";\ntry { fb({}); } catch (e) { m = e.message; }\nm`);
    expect(rb.label?.trusted).toBe(true);
  });

  it("held: a replayed call (previous) and a made call give the same failure label to a later failure in the same try", async () => {
    let n = 0;
    const once = defineTool({ name: "once", description: "Side effect.", parameters: { type: "object" }, sideEffect: true, policy: () => allow(), label: () => reader, run: () => ({ id: ++n }) });
    const rt = createRuntime({ tools: [once] });
    const first = await rt.run(`once({ k: 1 }).id`);
    const second = await rt.run(`once({ k: 1 }).id`, { previous: first });
    expect(n).toBe(1);
    expect(second.value).toBe(1);
    expect(second.calls[0].replayed).toBe(true);
    expect(second.label?.equals(first.label!)).toBe(true);
  });

  it("held: the per-name cache never mixes two tools' or runtimes' labels, and survives being cleared", () => {
    const x = failureLabelOf(reader, "t1", "mcp:shared");
    const y = failureLabelOf(undefined, "t2", "mcp:shared");
    expect(x.readers).toEqual(["alice"]);
    expect(y.readers).toBe("public");
    expect(y.sources).toEqual(["mcp:shared", "t2"]);
    for (let i = 0; i < 2100; i++) failureLabelOf(undefined, `tool${i}`, `res${i}`);
    expect(failureLabelOf(reader, "t1", "mcp:shared").equals(x)).toBe(true);
    expect(failureLabelOf(undefined, "t2", "mcp:shared").equals(y)).toBe(true);
  });
});

describe("canonicalJson's stack (e2d1f3b)", () => {
  it("held: still rejects cycles, accepts shared (acyclic) references, same text as a sorted JSON", () => {
    const self: Record<string, unknown> = { a: 1 };
    self.self = self;
    const deep: Record<string, unknown> = { x: { y: [1, { z: null }] } };
    ((deep.x as { y: unknown[] }).y[1] as Record<string, unknown>).back = deep;
    const arr: unknown[] = [];
    arr.push([arr]);
    for (const c of [self, deep, arr]) expect(() => canonicalJson(c)).toThrow(/cycle/);
    const shared = { k: 1 };
    expect(canonicalJson({ b: [shared, shared], a: { s: shared, u: undefined } })).toBe(`{"a":{"s":{"k":1}},"b":[{"k":1},{"k":1}]}`);
  });

  it("held: 3000 levels deep is still quick (the stack is O(depth) per level)", () => {
    let v: unknown = 1;
    for (let i = 0; i < 3000; i++) v = { a: v };
    const t0 = performance.now();
    expect(canonicalJson(v).length).toBeGreaterThan(3000);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

describe("buckets (e2d1f3b)", () => {
  it("held: no bucket named gives undefined; a named bucket penalized after a 429 still waits", async () => {
    const b = createBuckets();
    expect(b.take({ keys: [["tool:x", undefined]], deadline: Date.now() + 10_000, name: "x" })).toBeUndefined();
    const keys = [["tool:y", { perSecond: 100, burst: 1 }]] as const;
    await b.take({ keys, deadline: Date.now() + 10_000, name: "y" });
    b.penalize("tool:y", 150);
    const t0 = Date.now();
    const p = b.take({ keys, deadline: Date.now() + 10_000, name: "y" });
    expect(p).toBeInstanceOf(Promise);
    await p;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it("held, through the layer: a 429 with Retry-After on a rate-limited tool delays the retry", async () => {
    const at: number[] = [];
    const tool = defineTool({
      name: "rl",
      description: "Rate-limited.",
      parameters: { type: "object" },
      rateLimit: { perSecond: 50, burst: 1 },
      retry: { attempts: 2, baseMs: 1, capMs: 2 },
      run: () => {
        at.push(Date.now());
        if (at.length === 1) throw httpError(429, { headers: { "retry-after": "0.2" } });
        return { ok: true };
      },
    });
    const layer = createCallLayer({});
    const out = await layer.executeCall({ tool, args: {}, callId: "c1", idempotencyKey: "k1", decision: "allow", argsTrusted: true });
    expect(out.kind).toBe("value");
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(180);
  });
});

describe("pre-existing (not from e2d1f3b): replayed calls' failure label with a given layer", () => {
  it("a replayed call under a given layer with a breaker is labelled as the call made through it: failures others can cause are untrusted", async () => {
    let n = 0;
    const pay = defineTool({ name: "pay", description: "Pays.", parameters: { type: "object" }, sideEffect: true, policy: () => allow(), failureLabel: Label.trusted(), label: () => Label.trusted(), run: () => ({ id: ++n }) });
    const rt = createRuntime({ tools: [pay], layer: createCallLayer({ breaker: { failures: 5, cooldownMs: 60_000 } }) });
    const program = `let ok = true;\ntry { pay({ to: "bob" }); } catch (e) { ok = false; }\nok`;
    const made = await rt.run(program);
    const replayed = await rt.run(program, { previous: made });
    expect(replayed.calls[0].replayed).toBe(true);
    expect(made.label?.trusted).toBe(false);
    expect(replayed.label?.trusted).toBe(made.label?.trusted);
  });
});
