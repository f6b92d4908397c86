import type { CallRecord, RunResult } from "../runtime/types.js";
import { canonicalJson } from "./canonical.js";

/**
 * What a retry continues from. The runtime skips side-effecting calls found in `previous`, so
 * `previous` must list every call that ran in any earlier attempt, not only the last one: a
 * call made in attempt 1 that attempt 2 never reached must still not run again in attempt 3.
 */

/** True when the call was carried out (allowed, or asked and approved). */
export function callRan(call: CallRecord): boolean {
  return call.decision === "allow" || (call.decision === "ask" && call.approved === true);
}

function keyOf(call: CallRecord): string {
  return `${call.tool}\u0000${canonicalJson(call.args)}`;
}

/**
 * Merges the calls that ran across attempts. Each distinct call (tool and arguments) appears as
 * many times as the most any one attempt made it: a runtime that reuses recorded calls re-runs
 * none of those and runs only the extra ones, so that maximum is exactly how often it happened.
 */
export function mergeRanCalls(results: readonly RunResult[]): CallRecord[] {
  const merged: CallRecord[] = [];
  const most = new Map<string, number>();
  for (const result of results) {
    const seen = new Map<string, number>();
    for (const call of result.calls) {
      if (!callRan(call)) continue;
      const key = keyOf(call);
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n > (most.get(key) ?? 0)) {
        most.set(key, n);
        merged.push(call);
      }
    }
  }
  return merged;
}

/** The `previous` to hand the runtime for the next attempt, or undefined before the first. */
export function previousFor(results: readonly RunResult[]): RunResult | undefined {
  if (results.length === 0) return undefined;
  const last = results[results.length - 1];
  return { ...last, calls: mergeRanCalls(results) };
}
