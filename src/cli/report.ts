/**
 * The plain-data record of one plan run, as `--json` prints it and the text format reads it.
 * Labels become `{ trusted, readers, sources }`; every other field is plain JSON.
 */
import type { Label } from "../labels/index.js";
import type { RunResult } from "../runtime/types.js";
import type { SentEmail } from "./example-tools.js";

/** A label as JSON. */
export interface LabelJson {
  trusted: boolean;
  readers: "public" | string[];
  sources: string[];
}

/** One tool call as JSON. */
export interface CallJson {
  tool: string;
  args: Record<string, unknown>;
  decision: "allow" | "deny" | "ask";
  approved?: boolean;
  reason?: string;
  /** The tool's error, when it ran and threw. */
  error?: string;
  argsLabel?: LabelJson;
  context?: LabelJson;
}

/** One question the plan put to the quarantined reader. */
export interface QueryJson {
  prompt: string;
  answer?: unknown;
  error?: string;
  label: LabelJson;
}

/** The outcome of one plan. */
export interface PlanReport {
  /** The plan file as given or as found in the bundled examples. */
  file?: string;
  /** What the plan does, from its leading comment. */
  title?: string;
  /** The status its `// expect:` line names, when it has one. */
  expect?: RunResult["status"];
  program: string;
  status: RunResult["status"];
  value?: unknown;
  label?: LabelJson;
  error?: { kind: string; message: string; line?: number; column?: number };
  calls: CallJson[];
  queries: QueryJson[];
  logs: string[];
  /** Emails the workspace really sent. */
  sent: SentEmail[];
  /** The MCP servers the plan ran against, when it ran against MCP servers instead of the example workspace. */
  mcpServers?: string[];
  /** The quarantined reader: its name, questions asked, answers that obeyed injected text. */
  reader: { name: string; queries: number; attacks?: number };
  steps: number;
}

/** A label as JSON. */
export function labelJson(label: Label): LabelJson {
  return { trusted: label.trusted, readers: label.readers === "public" ? "public" : [...label.readers], sources: [...label.sources] };
}

/** What the CLI knows about a run besides its result. */
export interface RunContext {
  file?: string;
  title?: string;
  expect?: RunResult["status"];
  program: string;
  sent: SentEmail[];
  reader: { name: string; attacks?: number };
  mcpServers?: string[];
}

/** The report of a run. */
export function planReport(result: RunResult, ctx: RunContext): PlanReport {
  const report: PlanReport = {
    ...(ctx.file === undefined ? {} : { file: ctx.file }),
    ...(ctx.title === undefined ? {} : { title: ctx.title }),
    ...(ctx.expect === undefined ? {} : { expect: ctx.expect }),
    program: ctx.program,
    status: result.status,
    calls: result.calls.map((c) => ({
      tool: c.tool,
      args: c.args,
      decision: c.decision,
      ...(c.approved === undefined ? {} : { approved: c.approved }),
      ...(c.reason === undefined ? {} : { reason: c.reason }),
      ...(c.error === undefined ? {} : { error: c.error }),
      ...(c.argsLabel === undefined ? {} : { argsLabel: labelJson(c.argsLabel) }),
      ...(c.context === undefined ? {} : { context: labelJson(c.context) }),
    })),
    queries: result.queries.map((q) => ({
      prompt: q.prompt,
      ...("answer" in q && q.answer !== undefined ? { answer: q.answer } : {}),
      ...(q.error === undefined ? {} : { error: q.error }),
      label: labelJson(q.label),
    })),
    logs: [...result.logs],
    sent: ctx.sent.map((s) => ({ ...s })),
    ...(ctx.mcpServers === undefined ? {} : { mcpServers: [...ctx.mcpServers] }),
    reader: { name: ctx.reader.name, queries: result.queries.length, ...(ctx.reader.attacks === undefined ? {} : { attacks: ctx.reader.attacks }) },
    steps: result.steps,
  };
  if (result.status === "completed") {
    if (result.value !== undefined) report.value = result.value;
    if (result.label !== undefined) report.label = labelJson(result.label);
  }
  if (result.error !== undefined) {
    const { kind, message, line, column } = result.error;
    report.error = { kind, message, ...(line === undefined ? {} : { line }), ...(column === undefined ? {} : { column }) };
  }
  return report;
}

/** Exit code of a run: 0 completed, 3 blocked, 1 failed. */
export function exitCodeOf(status: RunResult["status"]): number {
  return status === "completed" ? 0 : status === "blocked" ? 3 : 1;
}
