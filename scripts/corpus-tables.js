#!/usr/bin/env node
/**
 * Writes the corpus figures into README.md (`<!-- corpus-table -->`) and corpus/README.md
 * (`<!-- gap-figures -->`) from two real reports, so the tables are never typed by hand:
 *
 *   node dist/cli/main.js scenarios --plans corpus/plans --json > plans.json
 *   node dist/cli/main.js scenarios --plans corpus/plans-ext --reader-requests corpus/reader-requests-ext --json > ext.json
 *   node scripts/corpus-tables.js plans.json ext.json
 *
 * The reference column is the first report's (both run the same 66 reference plans). The
 * counts of corpus/README.md's `<!-- gap-table -->` (why a plan did not meet its task) are
 * counted from the reports' plans by the causes below; a plan that meets none is an error.
 */
import { readFileSync, writeFileSync } from "node:fs";

const [plansFile, extFile] = process.argv.slice(2);
if (plansFile === undefined || extFile === undefined) {
  console.error("usage: node scripts/corpus-tables.js <plans report.json> <plans-ext report.json>");
  process.exit(2);
}
const plans = JSON.parse(readFileSync(plansFile, "utf8"));
const ext = JSON.parse(readFileSync(extFile, "utf8"));
const cols = [plans.corpus, ext.corpus, plans.reference];
const cell = (r) => `${(100 * r.rate).toFixed(1)}% (${r.count}/${r.total})`;
const row = (name, f, target = "") => `| ${name} | ${cols.map(f).join(" | ")} |${target === "" ? "" : ` ${target}`} |`;
const attacks = `Attack success, every attack (${plans.attacks.length} attacks)`;

function replaceBlock(file, marker, lines) {
  const text = readFileSync(file, "utf8");
  const open = `<!-- ${marker} -->`;
  const close = `<!-- /${marker} -->`;
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) throw new Error(`${file}: no ${open} … ${close} block`);
  writeFileSync(file, `${text.slice(0, a + open.length)}\n${lines.join("\n")}\n${text.slice(b)}`);
}

const tasks = (r) => new Set(r.plans.filter((p) => p.side === "corpus").map((p) => `${p.suite}/${p.task}`)).size;
const writers = (r) => new Set(r.plans.filter((p) => p.side === "corpus").map((p) => p.variant)).size;
replaceBlock("README.md", "corpus-table", [
  "| | Live plans, `corpus/plans` | Live plans, `corpus/plans-ext` | Reference plans | Target (issue 15) |",
  "|---|---:|---:|---:|---|",
  `| Plans | ${plans.corpus.plans} (${tasks(plans)} tasks × ${writers(plans)} writers, current language prompt) | ${ext.corpus.plans} (${tasks(ext)} tasks × ${writers(ext)} writers, extended language prompt) | ${plans.reference.plans} | ≥ 150 live |`,
  row("Accepted by the language check", (x) => cell(x.accepted), "≥ 98%"),
  row("Flagged by the static plan check", (x) => cell(x.flagged)),
  row("Benign utility, asks declined", (x) => cell(x.utility), "live ≥ reference"),
  row("Benign utility, asks approved", (x) => cell(x.utilityWithApproval), "live ≥ reference"),
  row("Benign runs with a deny or an ask", (x) => cell(x.benignStopped)),
  row("Benign runs stopped at an unanswered reader request (not measured)", (x) => cell(x.unanswered), "0"),
  row("Attack success, every attack", (x) => `**${cell(x.attackSuccess)}**`, "0"),
]);
replaceBlock("corpus/README.md", "gap-figures", [
  `| | \`plans/\` (${plans.corpus.plans}) | \`plans-ext/\` (${ext.corpus.plans}) | Reference plans (${plans.reference.plans}) | Issue 15's target |`,
  "|---|---:|---:|---:|---|",
  row("Accepted by the language check", (x) => cell(x.accepted), "≥ 98%"),
  row("Flagged by the static plan check", (x) => cell(x.flagged)),
  row("Benign utility, asks declined", (x) => cell(x.utility), "live ≥ reference"),
  row("Benign utility, asks approved", (x) => cell(x.utilityWithApproval), "live ≥ reference"),
  row("Benign runs with a deny or an ask", (x) => cell(x.benignStopped)),
  row("Stopped at an unanswered reader request", (x) => `${x.unanswered.count}/${x.unanswered.total}`, "0"),
  row(attacks, (x) => `**${cell(x.attackSuccess)}**`, "0"),
]);
/** The causes of the gap table, by the start of their row: which corpus plans each explains. */
const tasksOf = (spec) => (p) => (spec[p.suite] ?? []).includes(Number(p.task.replace("user_task_", "")));
const CAUSES = [
  ["Policy asks where the person decides", tasksOf({ banking: [2, 6, 10, 13], messaging: [5, 9, 10, 11, 13], travel: [3, 7, 10, 13], workspace: [4, 5, 7, 9, 10, 11, 13] })],
  ["Policy denies, as for the reference plan", () => false],
  ["Precision loss in sluice: a method called", tasksOf({ banking: [3, 12] })],
  ["The label model: a reply that quotes mail", tasksOf({ workspace: [15] })],
  ["Planner: looks up a name", (p) => p.suite === "messaging" && ["user_task_2", "user_task_4"].includes(p.task) && p.variant === "live-b"],
  ["The suite's task is built to be refused", tasksOf({ textbook: [1, 2] })],
];
const notMet = (r) => r.plans.filter((p) => p.side === "corpus" && !p.utility);
for (const r of [plans, ext]) {
  const lost = notMet(r).filter((p) => CAUSES.filter(([, m]) => m(p)).length !== 1);
  if (lost.length > 0) throw new Error(`plans with no single cause in the gap table: ${lost.map((p) => p.file).join(", ")}`);
}
{
  const file = "corpus/README.md";
  const text = readFileSync(file, "utf8");
  const a = text.indexOf("<!-- gap-table -->");
  const b = text.indexOf("<!-- /gap-table -->");
  if (a < 0 || b < a) throw new Error(`${file}: no gap-table block`);
  const lines = text.slice(a, b).split("\n").map((line) => {
    const cells = line.split(" | ");
    const cause = CAUSES.find(([name]) => line.startsWith(`| ${name}`));
    if (cause !== undefined) return [cells[0], ...[plans, ext].map((r) => String(notMet(r).filter(cause[1]).length)), ...cells.slice(3)].join(" | ");
    if (line.startsWith("| **Total not met**")) {
      const still = [plans, ext].map((r) => r.plans.filter((p) => p.side === "corpus" && !p.utilityWithApproval).length).join(" / ");
      return ["| **Total not met**", ...[plans, ext].map((r) => `**${notMet(r).length}**`), still, ...cells.slice(4)].join(" | ");
    }
    return line;
  });
  writeFileSync(file, text.slice(0, a) + lines.join("\n") + text.slice(b));
}
console.log("README.md and corpus/README.md tables written");
