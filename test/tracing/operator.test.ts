/** The operator figures of a scenario report, as pure functions. */
import { describe, expect, it } from "vitest";
import { operatorFigures, passHatK, percentile, type TaskRun } from "../../src/tracing/index.js";

describe("pass^k", () => {
  it("is C(c, k) / C(n, k): the chance k runs drawn from n all succeed", () => {
    expect(passHatK(4, 4, 3)).toBe(1);
    expect(passHatK(3, 4, 3)).toBeCloseTo(1 / 4);
    expect(passHatK(2, 4, 3)).toBe(0);
    expect(passHatK(5, 10, 1)).toBe(0.5);
    expect(passHatK(8, 10, 2)).toBeCloseTo((8 * 7) / (10 * 9));
  });
  it("refuses a k it cannot estimate", () => {
    expect(() => passHatK(1, 2, 3)).toThrow(/at least 3 runs/);
    expect(() => passHatK(1, 2, 0)).toThrow(/whole k/);
  });
});

describe("percentile", () => {
  it("is the nearest rank", () => {
    const v = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(v, 50)).toBe(50);
    expect(percentile(v, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });
});

describe("operatorFigures", () => {
  const runs: TaskRun[] = [
    ...[true, true, true].map((success) => ({ suite: "banking", task: "pay-rent", success, cost: 0.02, toolLatenciesMs: [10, 30] })),
    ...[true, false, true].map((success) => ({ suite: "banking", task: "refund", success, cost: 0.04, blockedSends: success ? 0 : 1 })),
    { suite: "workspace", task: "summary", success: false, cost: 0.01, toolLatenciesMs: [500], blockedSends: 2 },
  ];
  it("by suite and overall", () => {
    const { bySuite, overall } = operatorFigures(runs, 3);
    expect(bySuite.banking).toMatchObject({ tasks: 2, runs: 6, successRate: 5 / 6, passK: (1 + 0) / 2, toolLatencyP50: 10, toolLatencyP99: 30, blockedSends: 1 });
    expect(bySuite.banking.costPerTask).toBeCloseTo(0.03, 12);
    expect(bySuite.workspace.passK).toBeUndefined();
    expect(overall).toMatchObject({ tasks: 3, runs: 7, blockedSends: 3, toolLatencyP99: 500 });
    expect(overall.passK).toBe(0.5);
  });
  it("run time and tool attempts per run, for runs that report them", () => {
    const timed: TaskRun[] = [40, 10, 30, 20].map((durationMs, i) => ({ suite: "s", task: "t", success: true, durationMs, toolAttempts: i === 3 ? 7 : 2 }));
    const { overall } = operatorFigures([...timed, { suite: "s", task: "t", success: false }], 1);
    expect(overall).toMatchObject({ runTimeP50: 20, runTimeP99: 40, toolAttemptsP50: 2, toolAttemptsP99: 7 });
    expect(operatorFigures(runs, 1).overall.runTimeP50).toBeUndefined();
  });
});
