/**
 * AgentDojo-style scenarios: suites of user tasks and injection tasks, attack templates, a
 * parallel runner and reports (Markdown, JSON, self-contained HTML).
 */
export { runScenarios } from "./runner.js";
export type { ScenarioOptions, ScenarioReport, ReportSettings } from "./runner.js";
export { suites, suiteNamed } from "./suites/index.js";
export { attacks, attackNamed } from "./attacks.js";
export type { Attack } from "./attacks.js";
export { formatMarkdown } from "./report-md.js";
export { formatHtml } from "./report-html.js";
export { figures, percent } from "./summary.js";
export type { Figures, SuiteFigures, Rate } from "./summary.js";
export { runJob, DEFAULT_MODELS } from "./job.js";
export type { Job, RunRecord, ReaderKind, PlannerKind } from "./job.js";
export type { FlowRecord, FlowArgument, PlainLabel } from "./flow.js";
export { injection, fillPlaces, checkPlaces } from "./environment.js";
export { validateSuite } from "./validate.js";
export { main, optionsFrom, SCENARIOS_HELP } from "./cli.js";
export type { ScenarioIo } from "./cli.js";
export type { ScenarioSuite, UserTask, InjectionTask, InjectionPlace, ExpectedStop, Check } from "./types.js";

/** Formats a report as JSON for machines. */
export function formatJson(report: import("./runner.js").ScenarioReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}
