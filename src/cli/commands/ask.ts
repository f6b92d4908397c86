/**
 * `sluice ask "REQUEST"`: the whole pipeline on the Anthropic API. The planner writes a program
 * from the request (it never sees the inbox or the files), the runtime runs it against the
 * example workspace, and the quarantined reader answers the program's questions about
 * untrusted text. Needs ANTHROPIC_API_KEY.
 */
import { anthropicPlanner, anthropicReader, createAgent, type AgentResult, type UsageReport } from "../../models/index.js";
import type { QuarantinedModel } from "../../runtime/types.js";
import { createRuntime } from "../../runtime/index.js";
import { exampleReader, type OfflineReaderName } from "../example-readers.js";
import { exampleWorkspace, type SentEmail } from "../example-tools.js";
import { openMcp, type CliMcp } from "../mcp-tools.js";
import type { Tool } from "../../tools/types.js";
import type { Permissions } from "../../policy/index.js";
import { formatReport, numbered } from "../format.js";
import { CliError, EXIT, type CliIo } from "../io.js";
import { exitCodeOf, planReport, type PlanReport } from "../report.js";
import { approver, type ApproveChoice } from "../session.js";
import { count, indent, plural, safe } from "../text.js";

/** Default privileged planner. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";
/** Default quarantined reader. */
export const DEFAULT_READER_MODEL = "claude-haiku-5-5";

/** Options of `sluice ask`. */
export interface AskOptions {
  request: string;
  json: boolean;
  model: string;
  readerModel: string;
  /** `"anthropic"`, or an offline reader to pit the real planner against. */
  reader: "anthropic" | OfflineReaderName;
  approve: ApproveChoice;
  /** Most US dollars the run may spend. */
  maxCost?: number;
  /** An MCP configuration file: plan and run with its servers' tools instead of the example workspace. */
  mcp?: string;
  /** The lock file of pinned MCP tools; default next to the configuration. */
  pins?: string;
}

/** The line printed when there is no key. */
export const NO_KEY =
  "no API key: `sluice ask` needs ANTHROPIC_API_KEY set; to try sluice offline, run `sluice demo` or `sluice run PLAN.js`";

function readerFor(options: AskOptions, connection: { apiKey: string; baseURL?: string }) {
  if (options.reader === "anthropic") {
    return { name: options.readerModel, model: anthropicReader({ ...connection, model: options.readerModel }) as QuarantinedModel, attacks: undefined };
  }
  const offline = exampleReader(options.reader);
  return { name: offline.name, model: offline.reader as QuarantinedModel, attacks: offline.attacks };
}

function usageLines(usage: UsageReport): string {
  const seconds = (usage.wallTimeMs / 1000).toFixed(1);
  const lines = [
    `usage:   ${plural(usage.steps, "model call")} · ${count(usage.totalTokens)} tokens ` +
      `(input ${count(usage.input)}, cache read ${count(usage.cacheRead)}, cache write ${count(usage.cacheWrite)}, output ${count(usage.output)}) · ` +
      `$${usage.cost.toFixed(4)} · ${seconds} s`,
  ];
  for (const [model, u] of Object.entries(usage.byModel)) lines.push(`         ${safe(model)}: ${plural(u.calls, "call")}, $${u.cost.toFixed(4)}`);
  if (usage.unpriced.length > 0) lines.push(`         no price known for ${safe(usage.unpriced.join(", "))}: their cost is not counted`);
  return lines.join("\n");
}

function attemptLines(outcome: AgentResult): string[] {
  if (outcome.attempts.length <= 1) return [];
  const lines = [`runs:    ${outcome.attempts.length} (the planner was told where earlier runs failed)`];
  outcome.attempts.forEach((a, i) => {
    const e = a.result.error;
    lines.push(`  ${i + 1}. ${a.result.status}${e === undefined ? "" : `: ${e.kind}${e.line === undefined ? "" : ` at line ${e.line}`}: ${safe(e.message)}`}`);
  });
  return lines;
}

function text(options: AskOptions, outcome: AgentResult, report: PlanReport | undefined): string {
  const out = [`request: ${safe(options.request)}`, `planner: ${safe(options.model)} · reader: ${safe(report?.reader.name ?? options.readerModel)}`, ""];
  if (outcome.program !== undefined) out.push("program:", indent(numbered(outcome.program), "  "), "");
  out.push(...attemptLines(outcome));
  if (report !== undefined) out.push(formatReport(report, false).trimEnd());
  if (outcome.status === "failed" && outcome.stop.reason !== "attempts") out.push(`stopped: ${outcome.stop.reason}: ${safe(outcome.stop.message)}`);
  out.push(usageLines(outcome.usage));
  return out.join("\n") + "\n";
}

/** Plans and runs the request; returns the exit code. */
export async function ask(options: AskOptions, io: CliIo): Promise<number> {
  const apiKey = io.env.ANTHROPIC_API_KEY;
  if (apiKey === undefined || apiKey.trim() === "") throw new CliError(NO_KEY, EXIT.usage);
  // Passed explicitly so that only the environment given to the CLI counts.
  const connection = { apiKey, baseURL: io.env.ANTHROPIC_BASE_URL || undefined };
  let mcp: CliMcp | undefined;
  if (options.mcp !== undefined) mcp = await openMcp({ config: options.mcp, ...(options.pins === undefined ? {} : { pins: options.pins }) }, io, io.cwd ?? process.cwd());
  try {
    const workspace = mcp === undefined ? exampleWorkspace() : undefined;
    const tools: readonly Tool<any, any>[] = mcp?.mcp.tools ?? workspace!.tools;
    const sent: SentEmail[] = workspace?.sent ?? [];
    return await planAndRun(options, io, connection, tools, sent, mcp === undefined ? undefined : { servers: mcp.mcp.servers.map((s) => s.name), permissions: mcp.permissions });
  } finally {
    await mcp?.mcp.close();
  }
}

async function planAndRun(
  options: AskOptions,
  io: CliIo,
  connection: { apiKey: string; baseURL?: string },
  tools: readonly Tool<any, any>[],
  sent: SentEmail[],
  mcp: { servers: string[]; permissions?: Permissions } | undefined,
): Promise<number> {
  const reader = readerFor(options, connection);
  const agent = createAgent({
    planner: anthropicPlanner({ ...connection, model: options.model }),
    reader: reader.model,
    runtime: ({ quarantined }) =>
      createRuntime({ tools, quarantined, approve: approver(options.approve), ...(mcp?.permissions === undefined ? {} : { permissions: mcp.permissions }) }),
    ...(options.maxCost === undefined ? {} : { budget: { dollars: options.maxCost } }),
  });
  const outcome = await agent.run(options.request);
  const report =
    outcome.result === undefined || outcome.program === undefined
      ? undefined
      : planReport(outcome.result, {
          program: outcome.program,
          sent,
          reader: { name: reader.name, attacks: reader.attacks?.() },
          ...(mcp === undefined ? {} : { mcpServers: mcp.servers }),
        });
  if (options.json) {
    const attempts = outcome.attempts.map((a) => ({ program: a.program, status: a.result.status, ...(a.result.error ? { error: a.result.error.message } : {}) }));
    const settings = { model: options.model, readerModel: options.readerModel, reader: options.reader, approve: options.approve };
    io.stdout(JSON.stringify({ request: options.request, settings, status: outcome.status, stop: outcome.stop, attempts, result: report, usage: outcome.usage }, null, 2) + "\n");
  } else {
    io.stdout(text(options, outcome, report));
  }
  return exitCodeOf(outcome.status);
}
