/**
 * `sluice run PLAN.js`: runs one plan file against the example workspace, offline, or with
 * `--mcp CONFIG.json` against the tools of the MCP servers in that file.
 * Exits 0 when the plan completed, 3 when a policy stopped it, 1 when it failed.
 */
import { createRuntime } from "../../runtime/index.js";
import { exampleReader, type OfflineReaderName } from "../example-readers.js";
import type { CliIo } from "../io.js";
import { formatReport, planHeading } from "../format.js";
import { openMcp } from "../mcp-tools.js";
import { readPlan, type PlanFile } from "../plans.js";
import { exitCodeOf, planReport, type PlanReport } from "../report.js";
import { approver, runPlan, type ApproveChoice } from "../session.js";

/** Options of `sluice run`. */
export interface RunCommandOptions {
  file: string;
  json: boolean;
  reader: OfflineReaderName;
  approve: ApproveChoice;
  /** An MCP configuration file: run against its servers' tools instead of the example workspace. */
  mcp?: string;
  /** The lock file of pinned MCP tools; default next to the configuration. */
  pins?: string;
}

async function runOnMcp(plan: PlanFile, options: RunCommandOptions & { mcp: string }, io: CliIo, cwd: string): Promise<PlanReport> {
  const { mcp, permissions } = await openMcp({ config: options.mcp, ...(options.pins === undefined ? {} : { pins: options.pins }) }, io, cwd);
  try {
    const reader = exampleReader(options.reader);
    const runtime = createRuntime({ tools: mcp.tools, quarantined: reader.reader, approve: approver(options.approve), ...(permissions === undefined ? {} : { permissions }) });
    const result = await runtime.run(plan.source);
    return planReport(result, {
      file: plan.file,
      ...(plan.title === undefined ? {} : { title: plan.title }),
      program: plan.source,
      sent: [],
      mcpServers: mcp.servers.map((s) => s.name),
      reader: { name: reader.name, attacks: reader.attacks() },
    });
  } finally {
    await mcp.close();
  }
}

/** Runs the plan file; returns the exit code. */
export async function runFile(options: RunCommandOptions, io: CliIo, cwd: string): Promise<number> {
  const plan = await readPlan(options.file, cwd);
  // The file's `// expect:` line describes the demo's settings, not these, so it is not judged here.
  const report =
    options.mcp === undefined
      ? await runPlan({ ...plan, expect: undefined }, { reader: options.reader, approve: options.approve })
      : await runOnMcp(plan, { ...options, mcp: options.mcp }, io, cwd);
  if (options.json) {
    const settings = { reader: options.reader, approve: options.approve, ...(options.mcp === undefined ? {} : { mcp: options.mcp }) };
    io.stdout(JSON.stringify({ settings, ...report }, null, 2) + "\n");
  } else {
    io.stdout(planHeading(report) + "\n" + formatReport(report));
  }
  return exitCodeOf(report.status);
}
