/**
 * The scenario report as Markdown for the terminal and the README: the AgentDojo figures per
 * suite and overall, per attack, and the tasks the defense stopped without any attack.
 */
import { kindOf, percent, type Figures, type Rate } from "./summary.js";
import type { ScenarioReport } from "./runner.js";
import type { OperatorRow } from "./operator.js";

function cell(r: Rate | undefined): string {
  if (r === undefined) return "–";
  return r.total === 0 ? "n/a" : `${percent(r)} (${r.count}/${r.total})`;
}

function row(name: string, users: number | string, injections: number | string, f: Figures, undefended: boolean): string {
  const cells = [
    name,
    String(users),
    String(injections),
    cell(f.utility),
    cell(f.utilityWithApproval),
    cell(f.utilityUnderAttack),
    `**${cell(f.attackSuccess)}**`,
    ...(undefended ? [cell(f.attackSuccessUndefended)] : []),
    cell(f.benignDenied),
    cell(f.benignAsked),
  ];
  return `| ${cells.join(" | ")} |`;
}

function mainTable(report: ScenarioReport): string[] {
  const undefended = report.settings.undefended;
  const head = ["Suite", "User tasks", "Injection tasks", "Utility", "Utility if asks are approved", "Utility under attack", "Attack success", ...(undefended ? ["Attack success, policies off"] : []), "Denied without attack", "Asked without attack"];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`];
  for (const s of report.suites) lines.push(row(s.suite, s.userTasks, s.injectionTasks, s, undefended));
  const users = report.suites.reduce((n, s) => n + s.userTasks, 0);
  const injections = report.suites.reduce((n, s) => n + s.injectionTasks, 0);
  lines.push(row("**overall**", users, injections, report.overall, undefended));
  return lines;
}

function attackTable(report: ScenarioReport): string[] {
  const undefended = report.settings.undefended;
  const head = ["Attack", "Utility under attack", "Attack success", ...(undefended ? ["Attack success, policies off"] : [])];
  const lines = [`| ${head.join(" | ")} |`, `|---|${head.slice(1).map(() => "---:").join("|")}|`];
  for (const attack of report.settings.attacks) {
    const sum = (pick: (f: (typeof report.suites)[number]["byAttack"][string]) => Rate | undefined): Rate => {
      let count = 0;
      let total = 0;
      for (const s of report.suites) {
        const r = pick(s.byAttack[attack]);
        count += r?.count ?? 0;
        total += r?.total ?? 0;
      }
      return { count, total, rate: total === 0 ? 0 : count / total };
    };
    const cells = [attack, cell(sum((f) => f.utilityUnderAttack)), cell(sum((f) => f.attackSuccess)), ...(undefended ? [cell(sum((f) => f.attackSuccessUndefended))] : [])];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines;
}

const ms = (v: number | undefined): string => (v === undefined ? "–" : `${Math.round(v)} ms`);
const num = (v: number | undefined): string => (v === undefined ? "–" : String(v));

function operatorRow(name: string, f: OperatorRow): string {
  const pass = f.passK === undefined ? "–" : `${(f.passK * 100).toFixed(1)}%`;
  const cost = f.costPerTask === 0 ? "–" : `$${f.costPerTask.toFixed(4)}`;
  const cells = [name, String(f.runs), `${(f.successRate * 100).toFixed(1)}%`, pass, `${ms(f.runTimeP50)} / ${ms(f.runTimeP99)}`, `${num(f.toolAttemptsP50)} / ${num(f.toolAttemptsP99)}`, `${ms(f.toolLatencyP50)} / ${ms(f.toolLatencyP99)}`, cost, String(f.blockedSendsUnderAttack)];
  return `| ${cells.join(" | ")} |`;
}

/** What an operator watches, over the runs without attack (and the attack runs' blocked sends). */
function operatorTable(report: ScenarioReport): string[] {
  const o = report.operator;
  const head = ["Suite", "Runs", "Success", `pass^${o.k}`, "Run time p50 / p99", "Tool attempts per run p50 / p99", "Tool latency p50 / p99", "Cost per task run", "Blocked sends under attack"];
  const lines = [`| ${head.join(" | ")} |`, `|---|${head.slice(1).map(() => "---:").join("|")}|`];
  for (const [suite, f] of Object.entries(o.bySuite)) lines.push(operatorRow(suite, f));
  lines.push(operatorRow("**overall**", o.overall));
  return lines;
}

/** The user tasks that did not complete without attack, and why: the price of the defense. */
function stoppedWithoutAttack(report: ScenarioReport): string[] {
  const lines: string[] = [];
  // With --repeat, each task once: its first run.
  for (const r of report.runs.filter((x) => kindOf(x) === "benign" && !x.utility && (x.rep ?? 1) === 1)) {
    const stop = r.stops[0];
    const how = stop === undefined ? r.status : stop.decision === "deny" ? `denied at ${stop.tool}` : `asked at ${stop.tool}, not approved`;
    lines.push(`- ${r.suite}/${r.userTask}: ${how}${r.status === "error" ? ` — ${r.error}` : ""}`);
  }
  return lines;
}

function settingsText(report: ScenarioReport): string {
  const s = report.settings;
  const planner = s.planner === "reference" ? "reference plans (not a live planner model)" : `the planner model ${s.models?.planner ?? "(default)"}`;
  const reader =
    s.reader === "adversarial"
      ? "the adversarial reader (obeys any instruction it reads; answers benignly when there is none)"
      : s.reader === "benign"
        ? "the benign reader (scripted answers, never hijacked)"
        : `the reader model ${s.models?.reader ?? "(default)"}`;
  return `Plans: ${planner}. Reader: ${reader}. Approvals: ${s.approvals}.`;
}

/** The whole report as Markdown. */
export function formatMarkdown(report: ScenarioReport): string {
  const out = [
    "## Scenario results",
    "",
    settingsText(report),
    "",
    ...mainTable(report),
    "",
    "### By attack",
    "",
    ...attackTable(report),
    "",
    `### Operator figures (runs without attack${report.operator.k > 1 ? `, each task ${report.operator.k} times` : ""})`,
    "",
    ...operatorTable(report),
    "",
  ];
  const stopped = stoppedWithoutAttack(report);
  if (stopped.length > 0) out.push("### User tasks not done without attack (the price of the defense)", "", ...stopped, "");
  if (report.errors.length > 0) out.push("### Broken scenarios or plans", "", ...report.errors.map((e) => `- ${e}`), "");
  const runs = report.runs.length;
  out.push(`${runs} runs in ${(report.durationMs / 1000).toFixed(1)} s on ${report.settings.workers} ${report.settings.threads ? "worker threads" : "thread (in-process)"}.`);
  return out.join("\n") + "\n";
}
