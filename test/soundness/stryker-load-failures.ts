/**
 * A vitest reporter for the Stryker run only. Stryker's vitest runner (9.6 and 10.x,
 * stryker-js#6150) builds a mutant's result from the tests vitest collected; a test file that
 * cannot even be imported (the mutant broke a label made when a module loads) collects none, so
 * the mutant is scored as survived although every test of that file fails. This reporter gives
 * such a file one failed test carrying its load error, so the mutant counts as killed.
 */
import type { Reporter, Vitest } from "vitest/node";

type FileTask = ReturnType<Vitest["state"]["getFiles"]>[number];

function loadFailure(file: FileTask): FileTask["tasks"][number] {
  const message = file.result?.errors?.[0]?.message ?? "the test file failed to load";
  return {
    type: "test",
    id: `${file.id}_load`,
    name: "the test file loads",
    fullName: `${file.name} the test file loads`,
    fullTestName: "the test file loads",
    mode: "run",
    file,
    suite: file,
    result: { state: "fail", errors: [{ message, name: "LoadError" }] },
    meta: {},
    annotations: [],
    artifacts: [],
    timeout: 0,
    // Nothing reads a finished test's context; vitest types it with an object only it builds.
    context: undefined as never,
  } as FileTask["tasks"][number];
}

/** Marks test files that failed before collecting any test. */
export default class LoadFailuresAsFailedTests implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) {
      if (file.result?.state === "fail" && file.tasks.length === 0) file.tasks.push(loadFailure(file));
    }
  }
}
