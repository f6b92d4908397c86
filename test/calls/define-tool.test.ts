/** defineTool checks the call-layer options it is given. */
import { describe, expect, it } from "vitest";
import { defineTool } from "../../src/index.js";

const base = { name: "t", description: "", run: () => 1 };

describe("defineTool with call-layer options", () => {
  it("keeps valid retry, rateLimit and costPerAttempt", () => {
    const t = defineTool({ ...base, retry: { attempts: 5, timeoutMs: 2000 }, rateLimit: { perSecond: 2, burst: 5 }, costPerAttempt: 0.01 });
    expect(t).toMatchObject({ retry: { attempts: 5, timeoutMs: 2000 }, rateLimit: { perSecond: 2, burst: 5 }, costPerAttempt: 0.01 });
  });
  it.each([
    [{ retry: { attempts: 1.5 } }, /defineTool\(t\)\.retry\.attempts must be a positive integer, got 1.5/],
    [{ retry: { capMs: -1 } }, /retry\.capMs must be a positive number/],
    [{ rateLimit: { perSecond: 0 } }, /rateLimit\.perSecond must be a positive number/],
    [{ rateLimit: {} }, /rateLimit needs perSecond or tokensPerMinute/],
    [{ costPerAttempt: -1 }, /costPerAttempt must be a non-negative number of dollars/],
  ])("refuses %j with a clear error", (extra, message) => {
    expect(() => defineTool({ ...base, ...(extra as object) })).toThrow(message);
  });
});
