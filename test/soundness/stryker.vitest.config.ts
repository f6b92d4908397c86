/**
 * The tests Stryker runs against each mutant of the label rules (stryker.config.json): the
 * label lattice against its model, the branch-not-taken tables (what must and what must not be
 * upgraded), writes through untrusted keys, the label unit tests, the differential semantics
 * and limit tests (a rule that loses a write or a charge shows there), the
 * planted-leak witnesses and leak regressions, where the run may end (the failure place the
 * planner is shown, after stops, decisions and catch/finally), guards that end the run, the
 * positions a builtin calls, choices of what runs, and the generated-plan
 * noninterference properties (scaled down by SLUICE_SOUNDNESS_SCALE in the Stryker run so that
 * each mutant takes seconds).
 */
import { defineConfig } from "vitest/config";
import LoadFailuresAsFailedTests from "./stryker-load-failures.js";

export default defineConfig({
  test: {
    include: [
      "test/soundness/label-lattice.test.ts",
      "test/soundness/untaken.test.ts",
      "test/soundness/untaken-precision.test.ts",
      "test/soundness/chosen-keys.test.ts",
      "test/interpreter/labels.test.ts",
      "test/interpreter/completion-label.test.ts",
      "test/interpreter/brief.test.ts",
      "test/interpreter/semantics*.test.ts",
      "test/interpreter/errors.test.ts",
      "test/soundness/mutant-witnesses.test.ts",
      "test/soundness/known-leaks.test.ts",
      "test/soundness/noninterference.test.ts",
      "test/soundness/place-stops.test.ts",
      "test/soundness/error-places.test.ts",
      "test/soundness/catch-finally.test.ts",
      "test/soundness/spread-keys.test.ts",
      "test/soundness/guards.test.ts",
      "test/soundness/called-positions.test.ts",
      "test/soundness/chosen-callees.test.ts",
      "test/soundness/logical-places.test.ts",
    ],
    testTimeout: 60_000,
    reporters: ["default", new LoadFailuresAsFailedTests()],
    pool: "threads",
  },
});
