/**
 * An agent's dollar budget counts its tool attempts too (issue 12: "budgets count retries"): a
 * paid tool's `costPerAttempt` is charged to the agent's meter before every attempt, retries
 * and later rounds included, as a model call's worst case is.
 */
import { describe, expect, it } from "vitest";
import { createAgent, createRuntime, defineTool, scriptedPlanner } from "../../src/index.js";

const PROGRAM = `quote({ symbol: "ACME" });`;

function paidFlakyTool() {
  let attempts = 0;
  const tool = defineTool({
    name: "quote",
    description: "A paid market-data API that is down.",
    parameters: { type: "object", properties: { symbol: { type: "string" } } },
    costPerAttempt: 0.01,
    run: () => {
      attempts += 1;
      throw Object.assign(new Error("HTTP 503"), { status: 503 });
    },
  });
  return { tool, attempts: () => attempts };
}

describe("an agent's dollars and its tool attempts", () => {
  it("a budget allowing 3 attempts of a paid flaky tool stops the agent at the 4th, in its second round", async () => {
    const { tool, attempts } = paidFlakyTool();
    // Two attempts per call: round one makes two, round two one more and is refused the next.
    const runtime = createRuntime({ tools: [tool], retry: { attempts: 2, baseMs: 1, capMs: 1 } });
    const planner = scriptedPlanner([PROGRAM, PROGRAM, PROGRAM]);
    const out = await createAgent({ runtime, planner, budget: { dollars: 0.03 }, prices: { scripted: { input: 0, output: 0 } } }).run("What does ACME cost?");
    expect(attempts()).toBe(3);
    expect(out.attempts).toHaveLength(2);
    expect(out.attempts[0].result.calls[0]).toMatchObject({ failure: "unavailable", attempts: 2 });
    expect(out.attempts[1].result.error).toMatchObject({ kind: "limit" });
    expect(out.stop).toMatchObject({ reason: "budget", limit: "dollars" });
    expect(out.stop.message).toMatch(/attempt 2 of quote could cost up to \$0\.01 but \$0 of \$0\.03 remain/);
    expect(out.usage.cost).toBeCloseTo(0.03, 10);
    expect(out.usage.tools).toEqual({ attempts: 3, cost: expect.closeTo(0.03, 10) });
  });
});
