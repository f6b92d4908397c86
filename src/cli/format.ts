/**
 * The human-readable form of a plan run: the plan, its status, the completion value with its
 * label, and each tool call with its decision, approval and reason. Everything that may have
 * come from untrusted text goes through `safe`.
 */
import { Label } from "../labels/index.js";
import { callText, labelText } from "../policy/index.js";
import type { CallJson, LabelJson, PlanReport } from "./report.js";
import { indent, plural, safe, shortValue } from "./text.js";

/** The label in words, e.g. `untrusted · readers: public · sources: email:eve@evil.com`. */
export function labelLine(label: LabelJson): string {
  const readers = label.readers === "public" ? "public" : label.readers.length === 0 ? "no one" : label.readers.join(", ");
  const sources = label.sources.length === 0 ? "none (the plan's own literals)" : label.sources.join(", ");
  return safe(`${label.trusted ? "trusted" : "untrusted"} · readers: ${readers} · sources: ${sources}`);
}

function labelWords(label: LabelJson): string {
  return safe(labelText(Label.of({ trusted: label.trusted, readers: label.readers, sources: label.sources })));
}

/** The plan's source with line numbers. */
export function numbered(program: string): string {
  const lines = program.replace(/\s+$/, "").split("\n");
  const width = String(lines.length).length;
  return lines.map((line, i) => `${String(i + 1).padStart(width)} │ ${safe(line, true)}`).join("\n");
}

function decisionText(call: CallJson): string {
  if (call.decision === "allow") return "allowed";
  if (call.decision === "deny") return "DENIED";
  if (call.approved === true) return "asked, approved";
  return "asked, NOT approved";
}

/** The reason without the call text the policy layer puts in front of it (shown just above). */
function reasonText(call: CallJson): string | undefined {
  if (call.reason === undefined) return undefined;
  const head = callText(call);
  for (const verb of [" was denied: ", " needs approval: "]) {
    if (call.reason.startsWith(head + verb)) return call.reason.slice(head.length + verb.length);
  }
  return call.reason;
}

/** One tool call: what was called, the decision, the approval and the reason. */
export function callLines(call: CallJson, index: number): string {
  const lines = [`${index + 1}. ${safe(callText(call))}`, `   decision: ${decisionText(call)}`];
  const reason = reasonText(call);
  if (reason !== undefined) lines.push(`   reason:   ${safe(reason)}`);
  if (call.error !== undefined) lines.push(`   the tool failed: ${safe(call.error)}`);
  return lines.join("\n");
}

/** The call that stopped a blocked run: the last one denied or not approved. */
function stoppingCall(report: PlanReport): number | undefined {
  if (report.status !== "blocked") return undefined;
  for (let i = report.calls.length - 1; i >= 0; i--) {
    const c = report.calls[i];
    if (c.decision === "deny" || (c.decision === "ask" && c.approved !== true)) return i;
  }
  return undefined;
}

function errorLines(report: PlanReport): string[] {
  const e = report.error;
  // A policy stop is explained by its call below; saying it twice only hides the rest.
  if (e === undefined || stoppingCall(report) !== undefined) return [];
  const where = e.line === undefined ? "" : ` at line ${e.line}${e.column === undefined ? "" : `, column ${e.column}`}`;
  const lines = [`error:   ${e.kind}${where}: ${safe(e.message)}`];
  const source = e.line === undefined ? undefined : report.program.split("\n")[e.line - 1];
  if (source !== undefined && e.kind !== "policy") {
    lines.push(`         ${safe(source)}`);
    if (e.column !== undefined) lines.push(`         ${" ".repeat(Math.max(0, e.column - 1))}^`);
  }
  return lines;
}

function statusLine(report: PlanReport): string {
  const at = stoppingCall(report);
  const where = at === undefined ? "" : ` at call ${at + 1}, ${report.calls[at].tool} (${report.calls[at].decision === "deny" ? "denied" : "not approved"})`;
  if (report.expect === undefined) return `status:  ${report.status}${where}`;
  const verdict = report.expect === report.status ? "as expected" : `UNEXPECTED: the plan says it should be ${report.expect}`;
  return `status:  ${report.status}${where}; ${verdict}`;
}

function valueLines(report: PlanReport): string[] {
  if (report.status !== "completed") return [];
  const lines = [`value:   ${report.value === undefined ? "(none: the plan does not end with an expression)" : shortValue(report.value)}`];
  if (report.label !== undefined) lines.push(`label:   ${labelLine(report.label)}`, `         (${labelWords(report.label)})`);
  return lines;
}

function readerLine(report: PlanReport): string {
  const { name, queries, attacks } = report.reader;
  const obeyed = attacks === undefined ? "" : `, ${attacks} obeyed injected text`;
  return `reader:  ${name}: ${plural(queries, "query", "queries")}${obeyed}`;
}

function sentLine(report: PlanReport): string {
  if (report.mcpServers !== undefined) return `servers: ${safe(report.mcpServers.join(", ") || "none")} (what each call sent and got is in the calls above)`;
  if (report.sent.length === 0) return "sent:    nothing";
  return `sent:    ${plural(report.sent.length, "email")} to ${safe(report.sent.map((s) => s.to).join(", "))}`;
}

/** A whole plan run as text. `showPlan` is false when the caller printed the plan already. */
export function formatReport(report: PlanReport, showPlan = true): string {
  const out: string[] = [];
  if (showPlan) out.push("plan:", indent(numbered(report.program), "  "), "");
  out.push(statusLine(report), ...errorLines(report), ...valueLines(report));
  out.push(report.calls.length === 0 ? "calls:   none" : `calls:   ${report.calls.length}`);
  report.calls.forEach((call, i) => out.push(indent(callLines(call, i), "  ")));
  for (const line of report.logs) out.push(`log:     ${safe(line)}`);
  out.push(readerLine(report), sentLine(report));
  return out.join("\n") + "\n";
}

/** The heading of a plan: its file and what it does. */
export function planHeading(report: Pick<PlanReport, "file" | "title">, position?: string): string {
  const name = safe(report.file ?? "(plan)");
  const head = `── ${position === undefined ? "" : `${position}  `}${name} `;
  const lines = [head.padEnd(72, "─")];
  if (report.title !== undefined) lines.push(safe(report.title));
  return lines.join("\n") + "\n";
}
