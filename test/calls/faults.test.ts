/**
 * Fault injection through the real layer on a fake clock, compared with closed forms
 * (tolerances: four binomial standard errors, seeded so a run is repeatable).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { binomialTolerance, predictFlaky, simulateContention, simulateDeadTool, simulateFlaky } from "../../src/calls/faults/index.js";
import { installClock, seeded } from "./support.js";

let clock: ReturnType<typeof installClock>;
beforeEach(() => {
  clock = installClock();
});
afterEach(() => clock.uninstall());

describe("a flaky tool: a = 0.01 lost before arrival, b = 0.02 executed with the reply lost, 100,000 calls", () => {
  const a = 0.01;
  const b = 0.02;
  const calls = 100_000;

  it("the closed forms give the issue's figures", () => {
    expect(predictFlaky(a, b, 2).duplicates).toBeCloseTo(0.0198, 4);
    expect(predictFlaky(a, b, 5).duplicates).toBeCloseTo(0.0202, 4);
    expect(predictFlaky(a, b, 1).duplicates).toBe(0);
    expect(predictFlaky(a, b, 2).availability).toBeCloseTo(1 - 0.03 ** 2, 12);
  });

  it.each([2, 5])("at %i attempts: duplicates without keys and availability match the closed forms; with keys, none", async (attempts) => {
    const r = await simulateFlaky({ calls, attempts, a, b, random: seeded(attempts), clock });
    const p = predictFlaky(a, b, attempts);
    expect(Math.abs(r.withoutKeys.duplicates / calls - p.duplicates)).toBeLessThan(binomialTolerance(p.duplicates, calls));
    expect(Math.abs(r.answered / calls - p.availability)).toBeLessThan(binomialTolerance(1 - p.availability, calls));
    expect(r.withKeys.duplicates).toBe(0);
    // Every call that was executed at all is executed once with keys.
    expect(r.withKeys.executions).toBeGreaterThan(calls * (1 - a ** attempts) - 4 * Math.sqrt(calls * a ** attempts) - 1);
    expect(r.withoutKeys.executions / calls).toBeCloseTo(p.executionsPerCall, 2);
  });
});

describe("contention: 100 clients on a resource that serves one request at a time (10 ms) and refuses the rest with 503", () => {
  it("full jitter cuts the total calls by more than half against no jitter, and every client gets through", async () => {
    const base = { clients: 100, serviceMs: 10, baseMs: 10, capMs: 2000, random: seeded(7), clock };
    const none = await simulateContention({ ...base, jitter: "none" });
    const full = await simulateContention({ ...base, jitter: "full" });
    expect(none.succeeded).toBe(100);
    expect(full.succeeded).toBe(100);
    // Without jitter the refused clients return together and only one wins each round: 100 + 99 + … + 1.
    expect(none.totalCalls).toBe(5050);
    expect(full.totalCalls).toBeLessThan(none.totalCalls / 2);
    expect(full.drainMs).toBeLessThan(none.drainMs);
  });
});

describe("a tool that dies for 10 s, called every 50 ms, breaker { failures: 3, cooldownMs: 1000 }, 3 attempts a call", () => {
  it("while open, one attempt per cooldown reaches it; once it is back the half-open trial closes the breaker", async () => {
    const r = await simulateDeadTool({ deadForMs: 10_000, runForMs: 15_000, everyMs: 50, failures: 3, cooldownMs: 1000, attempts: 3, clock });
    expect(r.firstOpenAt).toBeDefined();
    const trials = r.reached.filter((t) => t > r.firstOpenAt! && t < 10_000);
    // The calls before it opened made their attempts; after that, one trial per cooldown.
    expect(r.reachedWhileDead - trials.length).toBeLessThanOrEqual(3 * 3 + 2 * 3);
    const gaps = trials.slice(1).map((t, i) => t - trials[i]);
    for (const g of gaps) {
      expect(g).toBeGreaterThanOrEqual(1000);
      expect(g).toBeLessThanOrEqual(1000 + 50);
    }
    expect(trials.length).toBeGreaterThanOrEqual(Math.floor((10_000 - r.firstOpenAt!) / 1050));
    // 200 calls were made while it was dead; almost all failed fast without reaching it.
    const whileDead = r.calls.filter((c) => c.startedAt < 10_000);
    expect(whileDead.filter((c) => c.outcome === "circuit_open").length).toBeGreaterThan(whileDead.length - 15);
    // Back: the first attempt after 10 s is a trial that succeeds, and every later call goes through.
    const firstBack = r.reached.find((t) => t >= 10_000)!;
    expect(firstBack).toBeLessThanOrEqual(10_000 + 1000 + 50);
    const after = r.calls.filter((c) => c.startedAt > firstBack);
    expect(after.length).toBeGreaterThan(60);
    expect(after.every((c) => c.outcome === "value")).toBe(true);
  });
});
