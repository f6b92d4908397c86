import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { BudgetExceededError, createUsageMeter, estimateTokens, type UsageMeter } from "../../src/models/usage.js";
import { costOf, priceOf, DEFAULT_PRICES } from "../../src/models/prices.js";
import { meteredCall, withMeter, currentMeter } from "../../src/models/meter-context.js";
import type { TokenUsage } from "../../src/models/types.js";

const PRICES = { "test-model": { input: 3, output: 15 } };
const usage = (u: Partial<TokenUsage>): TokenUsage => ({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0, ...u });

describe("prices", () => {
  test("cache reads cost 0.1x and writes 1.25x input by default, or what is configured", () => {
    const p = { input: 4, output: 20 };
    expect(costOf(p, usage({ input: 1_000_000 }))).toBeCloseTo(4);
    expect(costOf(p, usage({ cacheRead: 1_000_000 }))).toBeCloseTo(0.4);
    expect(costOf(p, usage({ cacheWrite: 1_000_000 }))).toBeCloseTo(5);
    expect(costOf(p, usage({ output: 1_000_000 }))).toBeCloseTo(20);
    expect(costOf({ ...p, cacheRead: 1, cacheWrite: 2 }, usage({ cacheRead: 1_000_000, cacheWrite: 1_000_000 }))).toBeCloseTo(3);
  });

  test("a price key covers dated versions of the model", () => {
    expect(priceOf(DEFAULT_PRICES, "claude-haiku-4-5-20251001")).toEqual(DEFAULT_PRICES["claude-haiku-4-5"]);
    expect(priceOf(DEFAULT_PRICES, "some-other-model")).toBeUndefined();
  });

  test("bad prices and budgets are clear errors", () => {
    expect(() => createUsageMeter({ prices: { m: { input: -1, output: 1 } } })).toThrow(/non-negative/);
    expect(() => createUsageMeter({ prices: { m: { input: 1 } as never } })).toThrow(/input and output/);
    expect(() => createUsageMeter({ budget: { dollars: Number.NaN } })).toThrow(/budget.dollars/);
    expect(() => createUsageMeter({ budget: { cents: 3 } as never })).toThrow(/unknown limit/);
  });
});

describe("usage meter", () => {
  test("records per-model usage, cost and steps", () => {
    const meter = createUsageMeter({ prices: PRICES });
    meter.reserve({ model: "test-model", role: "planner", inputTokens: 100, maxTokens: 100 }).settle(usage({ input: 10, cacheRead: 1000, cacheWrite: 0, output: 50 }));
    meter.reserve({ model: "other", role: "reader", inputTokens: 10, maxTokens: 10 }).settle(usage({ input: 5, output: 5 }));
    const r = meter.report();
    expect(r).toMatchObject({ input: 15, cacheRead: 1000, cacheWrite: 0, output: 55, totalTokens: 1070, steps: 2, unpriced: ["other"] });
    expect(r.cost).toBeCloseTo((10 * 3 + 1000 * 0.3 + 50 * 15) / 1e6);
    expect(r.byModel["test-model"]).toMatchObject({ calls: 1, input: 10, output: 50 });
  });

  test("a call whose worst case would overshoot the token budget is refused before it is made", () => {
    const meter = createUsageMeter({ budget: { tokens: 1000 } });
    meter.reserve({ model: "m", role: "planner", inputTokens: 300, maxTokens: 300 }).settle(usage({ input: 200, output: 100 }));
    expect(() => meter.reserve({ model: "m", role: "reader", inputTokens: 500, maxTokens: 300 })).toThrow(BudgetExceededError);
    expect(meter.exceeded?.limit).toBe("tokens");
    expect(meter.exceeded?.message).toMatch(/up to 800 tokens but 700 of 1,000 remain/);
    // Once stopped, stopped: even a call that would fit is refused.
    expect(() => meter.reserve({ model: "m", role: "reader", inputTokens: 1, maxTokens: 1 })).toThrow(BudgetExceededError);
    expect(meter.report().steps).toBe(1);
  });

  test("held reservations count against the budget until settled", () => {
    const meter = createUsageMeter({ budget: { tokens: 1000 } });
    const a = meter.reserve({ model: "m", role: "reader", inputTokens: 400, maxTokens: 100 });
    expect(() => meter.reserve({ model: "m", role: "reader", inputTokens: 400, maxTokens: 200 })).toThrow(BudgetExceededError);
    const b = createUsageMeter({ budget: { tokens: 1000 } });
    const h = b.reserve({ model: "m", role: "reader", inputTokens: 400, maxTokens: 100 });
    h.settle(usage({ input: 10, output: 10 }));
    expect(() => b.reserve({ model: "m", role: "reader", inputTokens: 400, maxTokens: 200 })).not.toThrow();
    a.settle(usage({}));
  });

  test("dollar budget uses the dearest input rate and max_tokens; unknown prices cannot be bounded", () => {
    const meter = createUsageMeter({ prices: PRICES, budget: { dollars: 0.01 } });
    // worst case: 1000 * 3.75 + 500 * 15 = 11,250 / 1e6 = $0.01125 > $0.01
    expect(() => meter.reserve({ model: "test-model", role: "planner", inputTokens: 1000, maxTokens: 500 })).toThrow(/could cost up to \$0.01125/);
    const m2 = createUsageMeter({ budget: { dollars: 1 } });
    expect(() => m2.reserve({ model: "mystery", role: "planner", inputTokens: 1, maxTokens: 1 })).toThrow(/no price for model "mystery"/);
  });

  test("step and wall-time budgets", () => {
    let clock = 1000;
    const meter = createUsageMeter({ budget: { steps: 2, wallTimeMs: 500 }, now: () => clock });
    meter.reserve({ model: "m", role: "planner", inputTokens: 1, maxTokens: 1 }).settle(usage({}));
    clock += 499;
    expect(meter.remainingMs()).toBe(1);
    meter.reserve({ model: "m", role: "planner", inputTokens: 1, maxTokens: 1 }).settle(usage({}));
    expect(() => meter.reserve({ model: "m", role: "planner", inputTokens: 1, maxTokens: 1 })).toThrow(/step budget/);
    const m2 = createUsageMeter({ budget: { wallTimeMs: 500 }, now: () => clock });
    clock += 500;
    expect(() => m2.reserve({ model: "m", role: "planner", inputTokens: 1, maxTokens: 1 })).toThrow(/wall-time budget/);
    expect(m2.exceeded?.limit).toBe("wallTimeMs");
  });

  test("estimateTokens never undercounts: it is the UTF-8 byte length", () => {
    expect(estimateTokens("abc")).toBe(3);
    expect(estimateTokens("é")).toBe(2);
    expect(estimateTokens("😀")).toBe(4);
  });

  test("property: with calls that stay within their worst case, a run never overshoots its budget", async () => {
    const call = fc.record({
      inputTokens: fc.integer({ min: 0, max: 5000 }),
      maxTokens: fc.integer({ min: 0, max: 2000 }),
      split: fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { maxLength: 30 }), fc.integer({ min: 0, max: 40_000 }), fc.double({ min: 0, max: 0.2, noNaN: true }), async (calls, tokens, dollars) => {
        const meter = createUsageMeter({ prices: PRICES, budget: { tokens, dollars } });
        let made = 0;
        for (const c of calls) {
          try {
            await meteredCall({ model: "test-model", role: "reader", inputTokens: c.inputTokens, maxTokens: c.maxTokens }, meter, async () => {
              made += 1;
              const input = Math.floor(c.inputTokens * c.split[0]);
              const cacheRead = Math.floor((c.inputTokens - input) * c.split[1]);
              const cacheWrite = c.inputTokens - input - cacheRead;
              return { value: null, usage: { input, cacheRead, cacheWrite, output: Math.floor(c.maxTokens * c.split[2]) } };
            });
          } catch (err) {
            expect(err).toBeInstanceOf(BudgetExceededError);
          }
        }
        const r = meter.report();
        expect(r.totalTokens).toBeLessThanOrEqual(tokens);
        expect(r.cost).toBeLessThanOrEqual(dollars + 1e-12);
        expect(r.steps).toBe(made);
      }),
    );
  });
});

describe("metered calls", () => {
  test("the run's meter travels with the async context, and each run sees its own", async () => {
    const a = createUsageMeter();
    const b = createUsageMeter();
    const seen: Array<UsageMeter | undefined> = [];
    const work = async () => {
      await new Promise((r) => setImmediate(r));
      seen.push(currentMeter());
      await meteredCall({ model: "m", role: "reader", inputTokens: 1, maxTokens: 1 }, undefined, async () => ({ value: 1, usage: usage({ output: 1 }) }));
    };
    await Promise.all([withMeter(a, work), withMeter(b, work), withMeter(a, work)]);
    expect(a.report().steps).toBe(2);
    expect(b.report().steps).toBe(1);
    expect(currentMeter()).toBeUndefined();
    expect(seen.filter((m) => m === a)).toHaveLength(2);
  });

  test("a call cut off by the wall-time deadline stops the run with a budget error", async () => {
    const controller = new AbortController();
    controller.abort();
    const meter = createUsageMeter({ budget: { wallTimeMs: 10_000 } });
    const stub: UsageMeter = { ...meter, reserve: meter.reserve, report: meter.report, stop: meter.stop, remainingMs: meter.remainingMs, get exceeded() { return meter.exceeded; }, deadlineSignal: () => controller.signal };
    const err = await meteredCall({ model: "m", role: "reader", inputTokens: 1, maxTokens: 1 }, stub, async ({ signal }) => {
      expect(signal?.aborted).toBe(true);
      throw new Error("aborted by signal");
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect((err as BudgetExceededError).limit).toBe("wallTimeMs");
    expect(meter.exceeded?.limit).toBe("wallTimeMs");
  });

  test("without a meter the call just runs", async () => {
    await expect(meteredCall({ model: "m", role: "reader", inputTokens: 1, maxTokens: 1 }, undefined, async () => ({ value: 42, usage: usage({}) }))).resolves.toBe(42);
  });
});
