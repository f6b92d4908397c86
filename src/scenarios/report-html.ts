/**
 * The scenario report as one self-contained HTML file: no scripts, styles or images from
 * anywhere else. Every call a policy stopped has its own page (shown with CSS :target) with the
 * flow that made it stop: which data, with which label, met which rule.
 */
import type { FlowRecord, PlainLabel } from "./flow.js";
import type { RunRecord } from "./job.js";
import type { ScenarioReport } from "./runner.js";
import { kindOf, percent, type Figures } from "./summary.js";

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d232a}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #d0d7de}h3{margin-top:1.4rem}
table{border-collapse:collapse;margin:.6rem 0;width:100%}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f5f7}td.n{text-align:right;white-space:nowrap}
.ok{color:#116329}.bad{color:#b42318}.muted{color:#57606a}.tag{display:inline-block;padding:0 .4rem;border-radius:.6rem;font-size:.85em;background:#eef1f4}
.deny{background:#fde8e8}.ask{background:#fff4d6}.allow{background:#e6f4ea}
.page{display:none;border:2px solid #57606a;border-radius:6px;padding:1rem;margin:1rem 0}.page:target{display:block}
.flow{display:flex;gap:.5rem;align-items:stretch;flex-wrap:wrap;margin:.8rem 0}.flow>div{flex:1;min-width:180px;overflow-wrap:anywhere;border:1px solid #d0d7de;border-radius:6px;padding:.5rem}
.flow>span{align-self:center;font-size:1.4rem}code{background:#f3f5f7;padding:0 .2rem;border-radius:3px;word-break:break-word}
`;

function esc(value: unknown): string {
  return String(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function rateCell(r: { count: number; total: number } | undefined, goodHigh: boolean): string {
  if (r === undefined) return `<td class="n muted">–</td>`;
  const rate = r.total === 0 ? 0 : r.count / r.total;
  const tone = r.total === 0 ? "muted" : (goodHigh ? rate >= 0.5 : rate === 0) ? "ok" : "bad";
  return `<td class="n ${tone}">${percent({ ...r, rate })} <span class="muted">(${r.count}/${r.total})</span></td>`;
}

function figuresRow(name: string, users: number, injections: number, f: Figures, undefended: boolean): string {
  return `<tr><th>${esc(name)}</th><td class="n">${users}</td><td class="n">${injections}</td>${rateCell(f.utility, true)}${rateCell(f.utilityWithApproval, true)}${rateCell(f.utilityUnderAttack, true)}${rateCell(f.attackSuccess, false)}${undefended ? rateCell(f.attackSuccessUndefended, false).replace(/ (ok|bad)"/, ' muted"') : ""}${rateCell(f.benignDenied, false)}${rateCell(f.benignAsked, false)}</tr>`;
}

function summaryTable(report: ScenarioReport): string {
  const u = report.settings.undefended;
  const head = ["Suite", "User tasks", "Injection tasks", "Utility", "Utility if asks approved", "Utility under attack", "Attack success", ...(u ? ["Attack success, policies off"] : []), "Denied without attack", "Asked without attack"];
  const rows = report.suites.map((s) => figuresRow(s.suite, s.userTasks, s.injectionTasks, s, u));
  const users = report.suites.reduce((n, s) => n + s.userTasks, 0);
  const injections = report.suites.reduce((n, s) => n + s.injectionTasks, 0);
  rows.push(figuresRow("overall", users, injections, report.overall, u));
  return `<table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows.join("")}</table>`;
}

function labelText(l: PlainLabel): string {
  const readers = l.readers === "public" ? "public" : `readable only by ${l.readers.join(", ")}`;
  return `${l.trusted ? "trusted" : "untrusted"}, ${readers}`;
}

function stopPage(id: string, r: RunRecord, s: FlowRecord): string {
  const flagged = s.arguments.filter((a) => !a.label.trusted || a.label.readers !== "public");
  const sources = [...new Set(flagged.flatMap((a) => a.label.sources).concat(s.context.label.trusted ? [] : s.context.label.sources))];
  const args = s.arguments
    .map((a) => `<tr class="${!a.label.trusted || a.label.readers !== "public" ? "ask" : ""}"><td><code>${esc(a.path)}</code></td><td><code>${esc(a.value)}</code></td><td>${esc(labelText(a.label))}</td><td>${esc(a.label.sources.join("; ") || "the plan itself")}</td></tr>`)
    .join("");
  const pair = r.injectionTask === undefined ? "no attack" : `${esc(r.injectionTask)} under <b>${esc(r.attack)}</b>${r.defense ? "" : " (policies off)"}`;
  return `<article class="page" id="${id}">
<h3>${esc(r.suite)}/${esc(r.userTask)}: <code>${esc(s.tool)}</code> ${s.decision === "deny" ? "denied" : "asked, not approved"}</h3>
<p class="muted">Run: ${pair}. <a href="#top">back to the summary</a></p>
<div class="flow"><div><b>Data</b><br>${sources.length === 0 ? "the plan's own values" : sources.map((x) => esc(x)).join("<br>")}</div><span>→</span>
<div><b>Label</b><br>${flagged.map((a) => `<code>${esc(a.path)}</code>: ${esc(labelText(a.label))}`).join("<br>") || "arguments trusted and public"}${s.context.label.trusted ? "" : `<br>control flow: ${esc(labelText(s.context.label))}`}</div><span>→</span>
<div><b>Rule</b><br><code>${esc(s.policy)}</code></div><span>→</span><div class="${s.decision}"><b>${s.decision === "deny" ? "Denied" : "Asked"}</b><br>${esc(s.reason)}</div></div>
<table><tr><th>Argument</th><th>Value</th><th>Label</th><th>Came from</th></tr>${args}</table>
<p><b>Control flow:</b> ${esc(s.context.explanation)}</p>
</article>`;
}

interface Pages {
  html: string[];
  next: number;
}

function stopLinks(r: RunRecord, pages: Pages): string {
  return r.stops
    .map((s) => {
      const id = `stop-${pages.next++}`;
      pages.html.push(stopPage(id, r, s));
      return `<a href="#${id}" class="tag ${s.decision}">${esc(s.tool)}: ${s.decision}</a>`;
    })
    .join(" ");
}

function suiteSection(report: ScenarioReport, suite: string, pages: Pages): string {
  const runs = report.runs.filter((r) => r.suite === suite);
  const probe = new Map(runs.filter((r) => kindOf(r) === "probe").map((r) => [r.userTask, r.seen ?? []]));
  const approved = new Map(runs.filter((r) => kindOf(r) === "approved").map((r) => [r.userTask, r.utility]));
  const rows = runs
    .filter((r) => kindOf(r) === "benign")
    .map((r) => {
      const attacked = runs.filter((x) => kindOf(x) === "attack" && x.userTask === r.userTask);
      const kept = attacked.filter((x) => x.utility).length;
      const won = attacked.filter((x) => x.security === true);
      const blocked = attacked.filter((x) => x.stops.length > 0);
      const firstBlocked = blocked.length > 0 ? stopLinks(blocked[0], pages) : "";
      return `<tr><td>${esc(r.userTask)}</td><td class="${r.utility ? "ok" : "bad"}">${r.utility ? "done" : esc(r.status)}${r.error && r.status === "error" ? `<br><small>${esc(r.error)}</small>` : ""}</td><td>${approved.get(r.userTask) ? "done" : "–"}</td><td>${stopLinks(r, pages)}</td><td>${esc((probe.get(r.userTask) ?? []).join(", ") || "none")}</td><td class="n">${kept}/${attacked.length}</td><td class="n ${won.length === 0 ? "ok" : "bad"}">${won.length}/${attacked.length}</td><td>${blocked.length} blocked ${firstBlocked}</td></tr>`;
    });
  return `<h2 id="suite-${esc(suite)}">${esc(suite)}</h2><table><tr><th>User task</th><th>Without attack</th><th>If approved</th><th>Stopped calls</th><th>Injection places read</th><th>Utility under attack</th><th>Attacks that succeeded</th><th>Attack runs blocked (first shown)</th></tr>${rows.join("")}</table>`;
}

function attackRunsSection(report: ScenarioReport, pages: Pages): string {
  const wins = report.runs.filter((r) => kindOf(r) === "attack" && r.security === true);
  if (wins.length === 0) return `<h2>Attacks that succeeded</h2><p class="ok">None: no injection task's security check came out true with the policies on.</p>`;
  const rows = wins.map((r) => `<tr><td>${esc(r.suite)}/${esc(r.userTask)}</td><td>${esc(r.injectionTask)}</td><td>${esc(r.attack)}</td><td>${stopLinks(r, pages)}</td></tr>`);
  return `<h2>Attacks that succeeded</h2><table><tr><th>User task</th><th>Injection task</th><th>Attack</th><th>Stopped calls</th></tr>${rows.join("")}</table>`;
}

/** The whole report as a self-contained HTML page. */
export function formatHtml(report: ScenarioReport): string {
  const pages: Pages = { html: [], next: 1 };
  const suites = report.suites.map((s) => suiteSection(report, s.suite, pages)).join("\n");
  const attacks = attackRunsSection(report, pages);
  const errors = report.errors.length === 0 ? "" : `<h2>Broken scenarios or plans</h2><ul>${report.errors.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>`;
  const s = report.settings;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sluice scenarios</title><style>${STYLE}</style></head>
<body><a id="top"></a><h1>sluice scenarios: utility and attack success</h1>
<p>Plans: <b>${s.planner === "reference" ? "reference plans, not a live model" : esc(`planner model ${s.models?.planner ?? ""}`)}</b>. Reader: <b>${esc(s.reader)}</b>. Attacks: ${s.attacks.map(esc).join(", ")}. ${esc(s.approvals)}.</p>
${summaryTable(report)}
<p class="muted">${report.runs.length} runs, ${(report.durationMs / 1000).toFixed(1)} s, started ${esc(report.startedAt)}. Click a stopped call to see which data, which label and which rule stopped it.</p>
${errors}${attacks}
${suites}
<h2>Stopped calls</h2><p class="muted">Each opens as its own page above this line when its link is followed.</p>
${pages.html.join("\n")}
</body></html>
`;
}
