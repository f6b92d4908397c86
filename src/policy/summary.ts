/** Counts of a run's decisions. */
export interface CallSummary {
  /** Every call decided. */
  calls: number;
  /** Allowed without asking. */
  allowed: number;
  /** A person was asked. */
  asked: number;
  /** A person was asked and said yes. */
  approved: number;
  /** Denied by a policy or the permission engine. */
  denied: number;
  /** A person was asked and did not say yes. */
  refused: number;
}

/** Summarises a run's calls (the runtime's `CallRecord`s, or anything with `decision` and `approved`). */
export function summarizeCalls(calls: ReadonlyArray<{ decision: "allow" | "deny" | "ask"; approved?: boolean }>): CallSummary {
  const summary: CallSummary = { calls: 0, allowed: 0, asked: 0, approved: 0, denied: 0, refused: 0 };
  for (const call of calls) {
    summary.calls++;
    if (call.decision === "allow") summary.allowed++;
    else if (call.decision === "deny") summary.denied++;
    else {
      summary.asked++;
      if (call.approved === true) summary.approved++;
      else summary.refused++;
    }
  }
  return summary;
}
