/**
 * `sluice run PLAN.js`: runs one plan file against the example workspace, offline.
 * Exits 0 when the plan completed, 3 when a policy stopped it, 1 when it failed.
 */
import type { OfflineReaderName } from "../example-readers.js";
import type { CliIo } from "../io.js";
import { formatReport, planHeading } from "../format.js";
import { readPlan } from "../plans.js";
import { exitCodeOf } from "../report.js";
import { runPlan, type ApproveChoice } from "../session.js";

/** Options of `sluice run`. */
export interface RunCommandOptions {
  file: string;
  json: boolean;
  reader: OfflineReaderName;
  approve: ApproveChoice;
}

/** Runs the plan file; returns the exit code. */
export async function runFile(options: RunCommandOptions, io: CliIo, cwd: string): Promise<number> {
  const plan = await readPlan(options.file, cwd);
  // The file's `// expect:` line describes the demo's settings, not these, so it is not judged here.
  const report = await runPlan({ ...plan, expect: undefined }, { reader: options.reader, approve: options.approve });
  if (options.json) {
    io.stdout(JSON.stringify({ settings: { reader: options.reader, approve: options.approve }, ...report }, null, 2) + "\n");
  } else {
    io.stdout(planHeading(report) + "\n" + formatReport(report));
  }
  return exitCodeOf(report.status);
}
