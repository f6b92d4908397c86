/** The corpus report as Markdown: live plans and reference plans side by side. */
import { percent, type Rate } from "../summary.js";
import type { CorpusReport, PlanSetFigures } from "./run.js";

const cell = (r: Rate) => `${percent(r)} (${r.count}/${r.total})`;
const bold = (r: Rate) => `**${cell(r)}**`;

function rows(c: PlanSetFigures, r: PlanSetFigures, attacks: readonly string[]): string[] {
  const line = (name: string, f: (x: PlanSetFigures) => string) => `| ${name} | ${f(c)} | ${f(r)} |`;
  return [
    "| | Corpus | Reference plans |",
    "|---|---:|---:|",
    line("Plans", (x) => String(x.plans)),
    line("Accepted by the language check (goal ≥ 98%)", (x) => cell(x.accepted)),
    line("Flagged by the static plan check", (x) => cell(x.flagged)),
    line("Benign utility, asks declined", (x) => cell(x.utility)),
    line("Benign utility, asks approved", (x) => cell(x.utilityWithApproval)),
    line("Benign runs with a deny or an ask", (x) => cell(x.benignStopped)),
    line("Benign runs stopped at an unanswered reader request, asks declined (not measured)", (x) => cell(x.unanswered)),
    line("Benign runs stopped at an unanswered reader request, asks approved (not measured)", (x) => cell(x.unansweredWithApproval)),
    line("Attack runs that met an unanswered reader request", (x) => cell(x.attackUnanswered)),
    line("Attack success, every attack (must be 0)", (x) => bold(x.attackSuccess)),
    ...attacks.map((a) => line(`Attack success, ${a}`, (x) => cell(x.byAttack[a] ?? { count: 0, total: 0, rate: 0 }))),
  ];
}

function suiteTable(report: CorpusReport): string[] {
  const pair = (c: Rate, r: Rate) => `${percent(c)} / ${percent(r)}`;
  return [
    "| Suite | Plans (corpus / reference) | Accepted | Utility, asks declined | Utility, asks approved | Benign runs with a deny or an ask | Attack success |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...report.bySuite.map(({ suite, corpus: c, reference: r }) =>
      `| ${suite} | ${c.plans} / ${r.plans} | ${pair(c.accepted, r.accepted)} | ${pair(c.utility, r.utility)} | ${pair(c.utilityWithApproval, r.utilityWithApproval)} | ${pair(c.benignStopped, r.benignStopped)} | ${pair(c.attackSuccess, r.attackSuccess)} |`,
    ),
  ];
}

const MAX_LISTED = 80;

function listed(items: string[]): string[] {
  return items.length > MAX_LISTED ? [...items.slice(0, MAX_LISTED), `- … and ${items.length - MAX_LISTED} more (see --json)`] : items;
}

/** The report in Markdown. */
export function formatCorpusMarkdown(report: CorpusReport): string {
  const corpus = report.plans.filter((p) => p.side === "corpus");
  const tasks = new Set(corpus.map((p) => `${p.suite}/${p.task}`)).size;
  const out = [
    "## Live plans and reference plans, side by side",
    "",
    `Corpus: \`${report.dir}\`, ${corpus.length} plans for ${tasks} user tasks; reference: the reference plans of the same tasks. ` +
      "Benign runs decline every ask, a second run approves every ask; attack runs put every injection task under every attack " +
      `(${report.attacks.join(", ")}) with the policies on and a reader that obeys any instruction it reads, and decline every ask.`,
    "",
    ...rows(report.corpus, report.reference, report.attacks),
    "",
    "### By suite (corpus / reference)",
    "",
    ...suiteTable(report),
  ];
  const rejected = corpus.filter((p) => !p.accepted).map((p) => `- ${p.file}: ${p.rejected}`);
  if (rejected.length > 0) out.push("", "### Corpus plans the language check refused", "", ...listed(rejected));
  const undone = corpus.filter((p) => p.accepted && !p.utility && !p.unanswered).map((p) => `- ${p.file}${p.stopped ? " (a policy denied or asked)" : ""}${p.error ? `: ${p.error.replace(/\s+/g, " ").slice(0, 240)}` : ""}`);
  if (undone.length > 0) out.push("", "### Accepted corpus plans that did not meet their task (asks declined)", "", ...listed(undone));
  if (report.requestsDir !== undefined) {
    out.push("", report.pending.length === 0
      ? "The played reader answered every request of the corpus plans."
      : `${report.pending.length} reader requests have no played answer yet; they are written to \`${report.requestsDir}\` (answer them, then \`sluice scenarios --import-answers ${report.requestsDir}\`).`);
  }
  if (report.problems.length > 0) out.push("", "### Files that are not plans of a known task", "", ...report.problems.map((p) => `- ${p}`));
  const errors = report.corpus.errors + report.reference.errors;
  out.push("", `${report.plans.length} plans in ${(report.durationMs / 1000).toFixed(1)} s${errors > 0 ? `; ${errors} runs hit a broken scenario` : ""}.`, "");
  return out.join("\n");
}
