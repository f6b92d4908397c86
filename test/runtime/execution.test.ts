/**
 * A run executes once, in a worker that waits for each tool call (issue 11, docs/execution.md):
 * limits count over the whole run and state the limit, tool waits are not the program's time,
 * Promise.all makes every deferred call and throws the first failure in program order.
 */
import { describe, expect, it } from "vitest";
import { Label, allow, createRuntime, defineTool, deny, labeled } from "../../src/index.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function counter(options: { delayMs?: number } = {}) {
  const seen: number[] = [];
  const tool = defineTool({
    name: "tick",
    description: "Counts.",
    parameters: { type: "object", properties: { i: { type: "number" } } },
    label: () => Label.trusted(),
    run: async (args: { i?: number }) => {
      if (options.delayMs) await sleep(options.delayMs);
      seen.push(args.i ?? -1);
      return { n: seen.length };
    },
  });
  return { tool, seen };
}

describe("one execution per run", () => {
  it("a loop of calls makes each call once, in order, and the code around them sees every result", async () => {
    const { tool, seen } = counter();
    const r = await createRuntime({ tools: [tool] }).run(`const log = [];\nfor (let i = 0; i < 5; i++) { log.push(i); tick({ i }); }\nlog.length`);
    expect(r.status).toBe("completed");
    expect(r.value).toBe(5);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it("a time limit ends a run that keeps calling tools, and its message states the limit", async () => {
    const { tool } = counter();
    const r = await createRuntime({ tools: [tool], limits: { timeMs: 300, hostCalls: 10_000_000 } }).run(`let s = 0;\nwhile (true) { s += tick({}).n; for (let k = 0; k < 200; k++) s += k; }`);
    expect(r.status).toBe("failed");
    expect(r.error).toMatchObject({ kind: "limit", message: "the program ran past its time limit of 300 ms" });
    expect(r.calls.length).toBeGreaterThan(1);
  });

  it("time spent in tools is not the program's: ten 60 ms calls fit in a 200 ms limit", async () => {
    const { tool, seen } = counter({ delayMs: 60 });
    const r = await createRuntime({ tools: [tool], limits: { timeMs: 200 } }).run(`for (let i = 0; i < 10; i++) tick({ i });\n"done"`);
    expect(r.status).toBe("completed");
    expect(seen).toHaveLength(10);
  });

  it("the step limit counts the steps of the whole run, across tool calls", async () => {
    const { tool, seen } = counter();
    const r = await createRuntime({ tools: [tool], limits: { steps: 60 } }).run(`for (let i = 0; i < 100; i++) tick({ i });`);
    expect(r.error).toMatchObject({ kind: "limit", message: "the program ran more than 60 steps" });
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.length).toBeLessThan(60);
    expect(r.calls).toHaveLength(seen.length);
  });

  it("the tool-call limit states the limit; every call made is in the record", async () => {
    const { tool } = counter();
    const r = await createRuntime({ tools: [tool], limits: { hostCalls: 5 } }).run(`for (let i = 0; i < 100; i++) tick({ i });`);
    expect(r.error).toMatchObject({ kind: "limit", message: "the program made more than 5 tool calls and queries" });
    expect(r.calls).toHaveLength(5);
  });

  it("arguments the host keeps count against the run's memory: forty calls with one 2 MB string end at the limit", async () => {
    const store = defineTool({ name: "store", description: "Stores.", parameters: { type: "object" }, sideEffect: true, policy: () => allow(), run: () => ({ ok: true }) });
    const r = await createRuntime({ tools: [store], limits: { memoryBytes: 16 * 2 ** 20 } }).run(`const s = "ab".repeat(2 ** 19);\nfor (let i = 0; i < 40; i++) store({ value: s });`);
    expect(r.error?.kind).toBe("limit");
    expect(r.error?.message).toBe(`the program allocated more than ${16 * 2 ** 20} bytes`);
    expect(r.calls.length).toBeLessThan(16);
  });

  it("a result's labelled parts keep their labels across the thread boundary, nested ones too", async () => {
    const inbox = defineTool({
      name: "inbox",
      description: "Lists mail.",
      parameters: { type: "object" },
      label: () => Label.trusted(),
      run: () => ({ items: [labeled({ from: "eve", body: labeled("hi", Label.untrusted("body:eve")) }, Label.untrusted("email:eve")), { from: "me", body: "note" }] }),
    });
    const r = await createRuntime({ tools: [inbox] }).run(`const m = inbox({}).items;\n[m[0].body, m[1].body]`);
    expect(r.status).toBe("completed");
    expect(r.value).toEqual(["hi", "note"]);
    expect(r.label?.sources).toEqual(["body:eve", "email:eve"]);
    const mine = await createRuntime({ tools: [inbox] }).run(`inbox({}).items[1].body`);
    expect(mine.label?.trusted).toBe(true);
  });

  it("runs of several runtimes at once each get their own answers", async () => {
    const runs = [1, 2, 3, 4].map(async (k) => {
      const echo = defineTool({ name: "echo", description: "Echoes.", parameters: { type: "object" }, label: () => Label.trusted(), run: async (a: { v: number }) => (await sleep(5), { v: a.v * k }) });
      return createRuntime({ tools: [echo] }).run(`let s = 0;\nfor (let i = 1; i <= 10; i++) s += echo({ v: i }).v;\ns`);
    });
    expect((await Promise.all(runs)).map((r) => r.value)).toEqual([55, 110, 165, 220]);
  });

  it("a program with no tool call gives the same result in a worker and in-process", async () => {
    const source = `const xs = [3, 1, 2].map((x) => x * 2).sort();\nJSON.stringify(xs)`;
    const [a, b] = await Promise.all([createRuntime({}).run(source), createRuntime({ inProcess: true }).run(source)]);
    // Each run has a key of its own; everything else is the same.
    expect({ ...a, runKey: undefined }).toEqual({ ...b, runKey: undefined });
    expect(a.runKey).not.toBe(b.runKey);
    expect(a.value).toBe("[2,4,6]");
  });
});

describe("Promise.all in one execution", () => {
  function tools(failFirst: boolean) {
    const made: string[] = [];
    const fetchPage = defineTool({
      name: "fetch_page",
      description: "Reads a page.",
      parameters: { type: "object" },
      label: () => Label.untrusted("web"),
      run: async () => {
        made.push("fetch_page");
        if (failFirst) throw new Error("503");
        return { body: "hello" };
      },
    });
    const notify = defineTool({ name: "notify", description: "Posts.", parameters: { type: "object" }, sideEffect: true, policy: () => allow(), run: async () => (made.push("notify"), { posted: true }) });
    const pay = defineTool({ name: "pay", description: "Pays.", parameters: { type: "object" }, sideEffect: true, policy: (c) => (c.args.to === "mallory" ? deny("not mallory") : allow()), run: async (a: { to: string }) => (made.push(`pay ${a.to}`), { receipt: a.to }) });
    return { list: [fetchPage, notify, pay], made };
  }

  it("every deferred call is made; the first failure in program order is thrown; the next call is really made", async () => {
    for (const failFirst of [true, false]) {
      const t = tools(failFirst);
      const r = await createRuntime({ tools: t.list }).run(`let failed = "no";\ntry { await Promise.all([fetch_page({}), notify({})]); } catch (e) { failed = e.message; }\nconst receipt = pay({ to: "alice" });\n[failed, receipt.receipt]`);
      expect(r.status).toBe("completed");
      expect(t.made.sort()).toEqual(["fetch_page", "notify", "pay alice"]);
      expect(r.calls.map((c) => c.tool)).toEqual(["fetch_page", "notify", "pay"]);
      expect((r.value as unknown[])[0]).toBe(failFirst ? "fetch_page failed: 503" : "no");
      expect((r.value as unknown[])[1]).toBe("alice");
    }
  });

  it("results land in order with their own labels", async () => {
    const t = tools(false);
    const r = await createRuntime({ tools: t.list }).run(`const [page, posted] = await Promise.all([fetch_page({}), notify({})]);\nposted.posted`);
    expect(r.value).toBe(true);
    expect(r.label?.trusted).toBe(false);
    const page = await createRuntime({ tools: t.list }).run(`const [page, posted] = await Promise.all([fetch_page({}), notify({})]);\npage.body`);
    expect(page.value).toBe("hello");
    expect(page.label?.sources).toContain("web");
  });

  it("a denial in a batch ends the run blocked; the calls after it are not made", async () => {
    const t = tools(false);
    const r = await createRuntime({ tools: t.list }).run(`await Promise.all([notify({}), pay({ to: "mallory" }), pay({ to: "bob" })]);`);
    expect(r.status).toBe("blocked");
    expect(r.calls.map((c) => `${c.tool}:${c.decision}`)).toEqual(["notify:allow", "pay:deny"]);
    expect(t.made).toEqual(["notify"]);
  });

  it("a throw that ends the argument comes after the calls deferred before it, which are made", async () => {
    const t = tools(true);
    const r = await createRuntime({ tools: t.list }).run(`let m = "";\ntry { await Promise.all([fetch_page({}), JSON.parse("{")]); } catch (e) { m = e.message; }\nm`);
    expect(r.value).toBe("fetch_page failed: 503");
    expect(t.made).toEqual(["fetch_page"]);
  });
});
