/**
 * Whether whoever wrote a program may be told where its run failed. Which throw ends a run can be
 * decided by data (`if (u.a === 0) throw …`), so the place is itself data: the planner's feedback
 * and `sluice serve`'s answers both ask this one rule.
 */
import type { RunError } from "./types.js";

/**
 * True when a failed run's line and column may be shown: a runtime error's place only when what
 * decided it (its placeLabel, else its label) is trusted and public. A compile error's place is
 * the program's alone.
 */
export function placeIsTrusted(error: RunError | undefined): boolean {
  if (error === undefined || error.kind !== "runtime") return true;
  const label = error.placeLabel ?? error.label;
  return label !== undefined && label.trusted === true && label.readers === "public";
}
