/**
 * TEST-ONLY stand-in for the runtime, which is being written separately. It runs nothing: each
 * `run` asks the test's `behave` function what the run result should be. It records every run
 * with the `previous` it was given, so tests can check what the agent handed over on retries.
 */
import type { CallRecord, RunResult } from "../../src/runtime/types.js";
import type { Tool } from "../../src/tools/types.js";
import type { AgentRuntime } from "../../src/models/index.js";

export interface FakeRun {
  source: string;
  previous?: RunResult;
}

export type Behave = (source: string, run: number, previous: RunResult | undefined) => Partial<RunResult> | Promise<Partial<RunResult>>;

export interface FakeRuntime extends AgentRuntime {
  runs: FakeRun[];
}

export function fakeRuntime(tools: readonly Tool<any, any>[], behave: Behave): FakeRuntime {
  const runs: FakeRun[] = [];
  return {
    tools: [...tools].sort((a, b) => (a.name < b.name ? -1 : 1)),
    runs,
    async run(source, options) {
      runs.push({ source, previous: options?.previous });
      const partial = await behave(source, runs.length, options?.previous);
      return { status: "completed", calls: [], logs: [], queries: [], steps: 1, ...partial };
    },
  };
}

/** A call record as the runtime would write it. */
export function call(tool: string, args: Record<string, unknown>, decision: CallRecord["decision"] = "allow", extra: Partial<CallRecord> = {}): CallRecord {
  return { tool, args, decision, ...extra };
}
