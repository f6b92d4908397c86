/**
 * One offline plan run: a fresh example workspace, the chosen reader and approval answer,
 * the runtime, and the report of what happened.
 */
import { createRuntime } from "../runtime/index.js";
import type { ApprovalRequest } from "../runtime/types.js";
import { exampleReader, type OfflineReaderName } from "./example-readers.js";
import { exampleWorkspace } from "./example-tools.js";
import type { PlanFile } from "./plans.js";
import { planReport, type PlanReport } from "./report.js";

/** How the CLI answers when a policy asks a person. */
export type ApproveChoice = "yes" | "no";

/** The approve callback for a fixed answer. */
export function approver(choice: ApproveChoice): (request: ApprovalRequest) => boolean {
  return () => choice === "yes";
}

/** Options of {@link runPlan}. */
export interface PlanRunOptions {
  reader: OfflineReaderName;
  approve: ApproveChoice;
}

/** Runs a plan against a fresh example workspace. Never throws for a bad plan. */
export async function runPlan(plan: Pick<PlanFile, "source"> & Partial<PlanFile>, options: PlanRunOptions): Promise<PlanReport> {
  const workspace = exampleWorkspace();
  const reader = exampleReader(options.reader);
  const runtime = createRuntime({ tools: workspace.tools, quarantined: reader.reader, approve: approver(options.approve) });
  const result = await runtime.run(plan.source);
  return planReport(result, {
    file: plan.file,
    title: plan.title,
    expect: plan.expect,
    program: plan.source,
    sent: workspace.sent,
    reader: { name: reader.name, attacks: reader.attacks() },
  });
}
