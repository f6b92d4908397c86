/**
 * Every tool call of a run goes through the tool-call layer (docs/tool-calls.md, phase 2):
 * what the contract's "Retries, idempotency, rate limits" section promises, checked on
 * `createRuntime` and `run`, with small real waits.
 */
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool } from "../../src/index.js";
import { httpError, scriptedTool, socketError } from "../calls/support.js";

const FAST = { baseMs: 1, capMs: 2, timeoutMs: 200 };

describe("retries through the runtime", () => {
  it("a 503 then a success: one call in the record, its attempts counted, ctx.attempt 1, 2 and one idempotency key", async () => {
    const { tool, seen } = scriptedTool([httpError(503), { ok: true }]);
    const r = await createRuntime({ tools: [tool], retry: FAST }).run(`flaky({ n: 1 })`);
    expect(r.status).toBe("completed");
    expect(r.value).toEqual({ ok: true });
    expect(seen.map((s) => s.ctx.attempt)).toEqual([1, 2]);
    expect(new Set(seen.map((s) => s.ctx.idempotencyKey)).size).toBe(1);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ tool: "flaky", attempts: 2, callId: "call_1", idempotencyKey: seen[0].ctx.idempotencyKey });
    expect(r.calls[0].durationMs).toEqual(expect.any(Number));
  });

  it("each attempt gets its own copy of the arguments", async () => {
    const { tool, seen } = scriptedTool([httpError(503), { ok: true }], {
      run: (args: Record<string, unknown>, ctx: { attempt: number }) => {
        seen.push({ at: 0, ctx: ctx as never, args: { ...args } });
        args.n = 99;
        if (ctx.attempt === 1) throw httpError(503);
        return { ok: true };
      },
    });
    const r = await createRuntime({ tools: [tool], retry: FAST }).run(`flaky({ n: 1 })`);
    expect(seen.map((s) => s.args.n)).toEqual([1, 1]);
    expect(r.calls[0].args).toEqual({ n: 1 });
  });

  it("an attempt that times out has its signal aborted and is retried; the last one is a catchable timeout", async () => {
    const { tool, seen } = scriptedTool(["hang"], { idempotent: true });
    const r = await createRuntime({ tools: [tool], retry: { ...FAST, attempts: 2, timeoutMs: 30 } }).run(`let m = "";\ntry { flaky({}); } catch (e) { m = e.message; }\nm`);
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.ctx.signal.aborted)).toBe(true);
    expect(r.value).toBe("flaky timed out: no answer within 30 ms (2 attempts)");
    expect(r.label?.trusted).toBe(false);
    expect(r.calls[0]).toMatchObject({ failure: "timeout", attempts: 2 });
  });

  it("a tool's own error is not retried; a connection reset is", async () => {
    const own = scriptedTool([new Error("no such invoice")]);
    const a = await createRuntime({ tools: [own.tool], retry: FAST }).run(`flaky({})`);
    expect(own.seen).toHaveLength(1);
    expect(a.error?.message).toContain("flaky failed: no such invoice");
    const reset = scriptedTool([socketError("ECONNRESET"), { ok: 1 }], { idempotent: true });
    const b = await createRuntime({ tools: [reset.tool], retry: FAST }).run(`flaky({})`);
    expect(reset.seen).toHaveLength(2);
    expect(b.status).toBe("completed");
  });

  it("a denied call never reaches the tool, and is not retried", async () => {
    const { tool, seen } = scriptedTool([{ ok: true }], { policy: () => ({ kind: "deny", reason: "no" }) });
    const r = await createRuntime({ tools: [tool], retry: FAST }).run(`flaky({})`);
    expect(r.status).toBe("blocked");
    expect(seen).toHaveLength(0);
    expect(r.calls[0]).toMatchObject({ decision: "deny", callId: "call_1" });
  });
});

describe("idempotency keys", () => {
  it("two equal calls in one run get different keys; run(source, { previous }) repeats the failed one with its key", async () => {
    const { tool, seen } = scriptedTool([{ ok: 1 }, new Error("lost"), { ok: 2 }]);
    const rt = createRuntime({ tools: [tool], retry: FAST });
    const source = `flaky({ to: "bob" });\nflaky({ to: "bob" });`;
    const first = await rt.run(source);
    expect(first.status).toBe("failed");
    expect(first.runKey).toEqual(expect.any(String));
    const [k1, k2] = seen.map((s) => s.ctx.idempotencyKey);
    expect(k1).not.toBe(k2);
    const again = await rt.run(source, { previous: first });
    expect(again.status).toBe("completed");
    expect(again.runKey).toBe(first.runKey);
    // The first call returned before: not made again. The second is made again, with its key.
    expect(seen).toHaveLength(3);
    expect(seen[2].ctx.idempotencyKey).toBe(k2);
    expect(again.calls.map((c) => c.idempotencyKey)).toEqual([k1, k2]);
    expect(again.calls[0].replayed).toBe(true);
  });

  it("a run without previous gets a fresh run key, so its keys differ", async () => {
    const { tool, seen } = scriptedTool([{ ok: 1 }]);
    const rt = createRuntime({ tools: [tool] });
    await rt.run(`flaky({})`);
    await rt.run(`flaky({})`);
    expect(seen[0].ctx.idempotencyKey).not.toBe(seen[1].ctx.idempotencyKey);
  });
});

describe("breakers and budgets", () => {
  it("an open breaker fails fast with a plain error the program can catch, shared by the runtime's runs", async () => {
    const { tool, seen } = scriptedTool([httpError(503)]);
    const rt = createRuntime({ tools: [tool], retry: { ...FAST, attempts: 1 }, breaker: { failures: 2, cooldownMs: 60_000 } });
    await rt.run(`try { flaky({}); } catch (e) {}\ntry { flaky({}); } catch (e) {}`);
    expect(seen).toHaveLength(2);
    const r = await rt.run(`let m = "";\ntry { flaky({}); } catch (e) { m = e.message; }\nm`);
    expect(seen).toHaveLength(2);
    expect(r.value).toMatch(/circuit breaker is open/);
    expect(r.calls[0].failure).toBe("circuit_open");
  });

  it("a budget of attempts counts retries and ends the run as a limit; the call stays in the record", async () => {
    const { tool, seen } = scriptedTool([httpError(503)]);
    const r = await createRuntime({ tools: [tool], retry: { ...FAST, attempts: 5 }, budget: { steps: 3 } }).run(`try { flaky({}); } catch (e) {}\n"went on"`);
    expect(seen).toHaveLength(3);
    expect(r.status).toBe("failed");
    expect(r.error?.kind).toBe("limit");
    expect(r.error?.message).toMatch(/step budget of 3 tool attempts/);
    expect(r.calls).toHaveLength(1);
  });

  it("a limit in a batch ends the run without its other calls trying again: they settle, each in the record", async () => {
    const attempts: number[] = [];
    const failing = defineTool({
      name: "failing",
      description: "Fails with a 503, a while after it is called.",
      parameters: { type: "object" },
      retry: { attempts: 4, baseMs: 50, capMs: 50, timeoutMs: 1000, jitter: "none" },
      run: async (_args, ctx) => {
        attempts.push(ctx!.attempt);
        await new Promise((r) => setTimeout(r, 30));
        throw httpError(503);
      },
    });
    const costly = defineTool({ name: "costly", description: "Costs $5 an attempt.", parameters: { type: "object" }, costPerAttempt: 5, run: () => ({}) });
    const started = Date.now();
    const r = await createRuntime({ tools: [failing, costly], budget: { dollars: 4 } }).run(`const xs = await Promise.all([failing({}), costly({})]);\nxs`);
    expect(r.status).toBe("failed");
    expect(r.error?.kind).toBe("limit");
    // The first attempt was running when the budget refused: it settles; no second one starts.
    expect(attempts).toEqual([1]);
    expect(r.calls.map((c) => [c.tool, c.attempts])).toEqual([["failing", 1], ["costly", 1]]);
    // Three retries of 50 ms each and their attempts would take over 200 ms.
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("a side effect that may have acted keeps its unknown outcome when another call's limit ends the run, so a repeat asks first", async () => {
    let paid = 0;
    const reset = () => Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    const pay = defineTool({
      name: "pay",
      description: "Pays; its connection drops after the payment went out.",
      parameters: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
      sideEffect: true,
      idempotent: false,
      run: async () => {
        await new Promise((r) => setTimeout(r, 10));
        paid += 1;
        throw reset();
      },
    });
    const costly = defineTool({ name: "costly", description: "Costs $5 an attempt.", parameters: { type: "object" }, costPerAttempt: 5, run: () => ({}) });
    const source = `await Promise.all([pay({ to: "bob" }), costly({})])`;
    const first = await createRuntime({ tools: [pay, costly], budget: { dollars: 4 } }).run(source);
    expect(first.error?.kind).toBe("limit");
    expect(first.calls[0]).toMatchObject({ tool: "pay", outcome: "unknown" });
    let asked = 0;
    const again = await createRuntime({ tools: [pay, costly], approve: () => (asked++, false) }).run(source, { previous: first });
    expect(asked).toBe(1);
    expect(again.status).toBe("blocked");
    expect(paid).toBe(1);
  });

  it("a call approved after another call of its batch ended the run as a limit is not made, and the run does not crash while the approver is out", async () => {
    const made: string[] = [];
    const tool = (name: string, extra = {}) => defineTool({ name, description: "", parameters: { type: "object" }, sideEffect: true, ...extra, run: () => (made.push(name), {}) });
    const costly = defineTool({ name: "costly", description: "Costs $5 an attempt.", parameters: { type: "object" }, costPerAttempt: 5, run: () => ({}) });
    const approve = () => new Promise<boolean>((r) => setTimeout(() => r(true), 40));
    const rt = createRuntime({ tools: [costly, tool("asked", { policy: () => ({ kind: "ask", reason: "check" }) }), tool("other")], budget: { dollars: 4 }, approve });
    const r = await rt.run(`await Promise.all([costly({}), asked({}), other({})])`);
    await new Promise((res) => setTimeout(res, 20));
    expect(r.status).toBe("failed");
    expect(r.error?.kind).toBe("limit");
    expect(r.error?.message).toMatch(/costly was not called/);
    expect(made).toEqual([]);
    expect(r.calls.map((c) => [c.tool, c.approved ?? null, c.failure ?? null])).toEqual([["costly", null, "limit"], ["asked", true, "limit"]]);
    expect(r.calls[1].error).toMatch(/not made: the run had already ended as a limit/);
  });

  it("a repeat whose batch hits a limit still replays a payment made before, so the repeat of that repeat does not pay again", async () => {
    let paid = 0;
    const pay = defineTool({ name: "pay", description: "Pays.", parameters: { type: "object", properties: { to: { type: "string" } }, required: ["to"] }, sideEffect: true, idempotent: false, policy: () => ({ kind: "ask", reason: "money" }), run: () => (paid++, { ok: true }) });
    const costly = defineTool({ name: "costly", description: "Costs $5 an attempt.", parameters: { type: "object" }, costPerAttempt: 5, run: () => ({}) });
    const approve = () => new Promise<boolean>((r) => setTimeout(() => r(true), 30));
    const source = `await Promise.all([costly({}), pay({ to: "bob" })])`;
    const r1 = await createRuntime({ tools: [costly, pay], approve }).run(source);
    expect(r1.status).toBe("completed");
    const r2 = await createRuntime({ tools: [costly, pay], approve, budget: { dollars: 4 } }).run(source, { previous: r1 });
    expect(r2.error?.kind).toBe("limit");
    expect(r2.calls[1]).toMatchObject({ tool: "pay", replayed: true });
    const r3 = await createRuntime({ tools: [costly, pay], approve }).run(source, { previous: r2 });
    expect(r3.status).toBe("completed");
    expect(paid).toBe(1);
  });

  it("what an earlier run of a chain paid is carried by a repeat that did not reach it, was denied it or hit a limit first, so no later repeat pays again", async () => {
    let paid = 0;
    let allowPay = true;
    const pay = defineTool({ name: "pay", description: "Pays.", parameters: { type: "object", properties: { to: { type: "string" } }, required: ["to"] }, sideEffect: true, idempotent: false, policy: () => (allowPay ? { kind: "allow" } : { kind: "deny", reason: "not today" }), run: () => (paid++, { ok: true }) });
    const costly = defineTool({ name: "costly", description: "Costs $5 an attempt.", parameters: { type: "object" }, costPerAttempt: 5, run: () => ({}) });
    const source = `await costly({});\nawait pay({ to: "bob" })`;
    const plain = createRuntime({ tools: [costly, pay] });
    const r1 = await plain.run(source);
    expect(paid).toBe(1);
    // Ends at costly's limit, before pay: its own record has no pay, its `earlier` has r1's.
    const r2 = await createRuntime({ tools: [costly, pay], budget: { dollars: 4 } }).run(source, { previous: r1 });
    expect(r2.calls.map((c) => c.tool)).toEqual(["costly"]);
    expect(r2.earlier?.map((c) => c.tool)).toEqual(["pay"]);
    allowPay = false;
    const r3 = await plain.run(source, { previous: r2 });
    expect(r3.status).toBe("blocked");
    allowPay = true;
    const r4 = await plain.run(source, { previous: r3 });
    expect(r4.status).toBe("completed");
    expect(r4.calls[1]).toMatchObject({ tool: "pay", replayed: true });
    expect(paid).toBe(1);
  });

  it("bad layer options are an error when the runtime is made", () => {
    expect(() => createRuntime({ retry: { attempts: 0 } })).toThrow(/retry.attempts must be a positive integer/);
    expect(() => createRuntime({ breaker: { failures: 1 } as never })).toThrow(/breaker/);
    expect(() => createRuntime({ budget: { steps: -1 } })).toThrow(/budget/);
  });
});

describe("what a program sees of a failure", () => {
  it("the error of a trusted private tool is untrusted and keeps its readers; the success is labelled as the tool says", async () => {
    const vault = Label.of({ trusted: true, readers: ["me"], sources: ["vault"] });
    const { tool } = scriptedTool([socketError("ECONNREFUSED")], { label: () => vault, retry: { ...FAST, attempts: 1 } });
    const r = await createRuntime({ tools: [tool] }).run(`let m = "";\ntry { flaky({}); } catch (e) { m = e.message; }\nm`);
    expect(r.label?.trusted).toBe(false);
    expect(r.label?.readers).toEqual(["me"]);
  });
});

describe("a retried payment never pays twice", () => {
  /** A bank that executes every payment it receives once per key, and loses the replies it is told to. */
  function bank(lostReplies: number) {
    const paid = new Map<string, number>();
    let lose = lostReplies;
    let received = 0;
    const tool = scriptedTool([{}], {
      name: "pay",
      // It executes each key once, and says so: only then is a lost reply retried.
      idempotent: true,
      run: (args: { amount: number }, ctx: { idempotencyKey: string }) => {
        received += 1;
        if (!paid.has(ctx.idempotencyKey)) paid.set(ctx.idempotencyKey, args.amount);
        if (lose-- > 0) throw socketError("ECONNRESET");
        return { ok: true };
      },
    }).tool;
    return { tool, paid, received: () => received };
  }

  it("within a run: the reply of the first attempt is lost, the retry carries the same key, the money moves once", async () => {
    const b = bank(1);
    const r = await createRuntime({ tools: [b.tool], retry: FAST }).run(`pay({ amount: 100 })`);
    expect(r.status).toBe("completed");
    expect(b.received()).toBe(2);
    expect([...b.paid.values()]).toEqual([100]);
  });

  it("across runs: every reply of the first run is lost, previous repeats the call with its key, the money moves once", async () => {
    const b = bank(3);
    const rt = createRuntime({ tools: [b.tool], retry: { ...FAST, attempts: 3 } });
    const first = await rt.run(`pay({ amount: 100 })`);
    expect(first.status).toBe("failed");
    const again = await rt.run(`pay({ amount: 100 })`, { previous: first });
    expect(again.status).toBe("completed");
    expect(b.received()).toBe(4);
    expect([...b.paid.values()]).toEqual([100]);
  });
});

describe("a side effect that may have acted is not done again (attack round 4, finding 4)", () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** A transfer slower than the attempt timeout, that ignores its signal, as most tools do. */
  function slowTransfer(spec: Record<string, unknown> = {}) {
    const done: number[] = [];
    let running = 0;
    let most = 0;
    const tool = scriptedTool([{}], {
      name: "transfer",
      run: async (args: { amount: number }, ctx: { attempt: number }) => {
        running += 1;
        most = Math.max(most, running);
        await sleep(ctx.attempt === 1 ? 150 : 1);
        running -= 1;
        done.push(args.amount);
        return { ok: true };
      },
      ...spec,
    }).tool;
    return { tool, done, most: () => most };
  }

  it("by default (the contract), a timed-out attempt of a side effect is retried with the same key", async () => {
    const keys: string[] = [];
    const t = defineTool({
      name: "transfer",
      description: "Moves money.",
      sideEffect: true,
      parameters: { type: "object", properties: { amount: { type: "number" } } },
      run: async (_args: { amount: number }, ctx?: { attempt: number; idempotencyKey: string }) => {
        keys.push(ctx!.idempotencyKey);
        if (ctx!.attempt === 1) await sleep(150);
        return { ok: true, attempt: ctx!.attempt };
      },
    });
    const r = await createRuntime({ tools: [t], retry: { ...FAST, timeoutMs: 50 } }).run(`transfer({ amount: 50 })`);
    expect(r.status).toBe("completed");
    expect(r.calls[0]).toMatchObject({ attempts: 2, result: { ok: true, attempt: 2 } });
    expect(new Set(keys).size).toBe(1);
  });

  it("a tool that cannot dedupe (idempotent: false) is not retried after a timeout: one transfer, the record says the outcome is unknown, and previous asks first", async () => {
    const t = slowTransfer({ idempotent: false });
    const asked: string[] = [];
    const rt = createRuntime({ tools: [t.tool], retry: { ...FAST, timeoutMs: 50 }, approve: (req) => (asked.push(req.reason ?? ""), false) });
    const first = await rt.run(`transfer({ amount: 50 })`);
    await sleep(200);
    expect(t.done).toEqual([50]);
    expect(first.calls[0]).toMatchObject({ failure: "timeout", attempts: 1, outcome: "unknown" });
    const again = await rt.run(`transfer({ amount: 50 })`, { previous: first });
    await sleep(200);
    expect(again.status).toBe("blocked");
    expect(again.calls[0]).toMatchObject({ decision: "ask", approved: false });
    expect(asked[0]).toContain("may already have been done");
    expect(t.done).toEqual([50]);
  });

  it("an idempotent tool is retried after a timeout, but only once the timed-out attempt has ended, whose value is then the call's", async () => {
    const t = slowTransfer({ idempotent: true });
    const r = await createRuntime({ tools: [t.tool], retry: { ...FAST, timeoutMs: 50 } }).run(`transfer({ amount: 50 })`);
    expect(r.status).toBe("completed");
    expect(t.most()).toBe(1);
    // The first attempt ended with a value after its timeout: no second attempt was needed.
    expect(t.done).toEqual([50]);
    expect(r.calls[0]).toMatchObject({ result: { ok: true }, attempts: 1 });
  });

  it("a connection lost after the request went out is not retried for a side effect that cannot dedupe; a refused one is; a read is retried either way", async () => {
    const lost = scriptedTool([socketError("ECONNRESET"), { ok: 1 }], { idempotent: false });
    const a = await createRuntime({ tools: [lost.tool], retry: FAST }).run(`flaky({})`);
    expect(lost.seen).toHaveLength(1);
    expect(a.calls[0]).toMatchObject({ failure: "connection", outcome: "unknown" });
    const refused = scriptedTool([socketError("ECONNREFUSED"), { ok: 1 }]);
    const b = await createRuntime({ tools: [refused.tool], retry: FAST }).run(`flaky({})`);
    expect(refused.seen).toHaveLength(2);
    expect(b.status).toBe("completed");
    const read = scriptedTool([socketError("ECONNRESET"), "hang", { ok: 1 }], { sideEffect: false });
    const c = await createRuntime({ tools: [read.tool], retry: { ...FAST, timeoutMs: 30 } }).run(`flaky({})`);
    expect(read.seen).toHaveLength(3);
    expect(c.status).toBe("completed");
    expect(c.calls[0].outcome).toBeUndefined();
  });

  it("a tool error that says retryable: true is the tool's word that nothing was done: retried", async () => {
    const said = scriptedTool([Object.assign(socketError("ECONNRESET"), { retryable: true }), { ok: 1 }]);
    const r = await createRuntime({ tools: [said.tool], retry: FAST }).run(`flaky({})`);
    expect(said.seen).toHaveLength(2);
    expect(r.status).toBe("completed");
  });
});
