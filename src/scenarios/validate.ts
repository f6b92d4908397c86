/**
 * Checks a suite's shape before anything runs, so a broken scenario file gives a clear error
 * naming the suite and task instead of a crash halfway through the matrix.
 */
import type { ScenarioSuite } from "./types.js";

/** Problems found, by task id; `""` holds the problems of the suite as a whole. */
export type Problems = Map<string, string[]>;

const isText = (x: unknown): x is string => typeof x === "string" && x.trim() !== "";
const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);

function add(problems: Problems, id: string, text: string): void {
  const list = problems.get(id) ?? [];
  list.push(text);
  problems.set(id, list);
}

function checkIds(problems: Problems, list: readonly unknown[], kind: string): void {
  const seen = new Set<string>();
  list.forEach((t, i) => {
    const id = isObject(t) && isText(t.id) ? t.id : undefined;
    if (id === undefined) add(problems, "", `${kind} #${i + 1} has no id`);
    else if (seen.has(id)) add(problems, id, `two ${kind}s are named ${id}`);
    else seen.add(id);
  });
}

function checkUserTask(problems: Problems, t: Record<string, unknown>): void {
  const id = String(t.id);
  if (!isText(t.prompt)) add(problems, id, "user task has no prompt (the request text)");
  if (!isText(t.plan)) add(problems, id, "user task has no reference plan (a program string)");
  if (typeof t.utility !== "function") add(problems, id, "user task has no utility check function");
  const r = t.reader;
  if (r !== undefined && r !== null && typeof r !== "object" && typeof r !== "function") add(problems, id, "reader must be a scriptedReader script (rows, a table or a function)");
  if (t.expect !== undefined) {
    const e = t.expect as Record<string, unknown>;
    if (!isObject(e) || (e.outcome !== "asks" && e.outcome !== "denied") || !isText(e.why)) {
      add(problems, id, 'expect must be { outcome: "asks" | "denied", why: "…" }');
    }
  }
}

function checkInjectionTask(problems: Problems, t: Record<string, unknown>): void {
  const id = String(t.id);
  if (!isText(t.goal)) add(problems, id, "injection task has no goal text");
  const tool = t.tool as Record<string, unknown> | undefined;
  if (!isObject(tool) || !isText(tool.name) || !isObject(tool.args)) add(problems, id, "injection task needs tool: { name, args } for the tool-knowledge attack");
  if (!isObject(t.attacker)) add(problems, id, "injection task needs attacker values (an object)");
  if (typeof t.security !== "function") add(problems, id, "injection task has no security check function");
}

/** Every problem of a suite's shape. An empty map means it is well formed. */
export function validateSuite(suite: ScenarioSuite): Problems {
  const problems: Problems = new Map();
  if (!isObject(suite)) {
    add(problems, "", "a suite must be an object");
    return problems;
  }
  if (!isText(suite.name)) add(problems, "", "the suite has no name");
  if (!isObject(suite.user) || !isText(suite.user.name) || !isText(suite.user.principal)) add(problems, "", "the suite needs user: { name, principal }");
  if (typeof suite.environment !== "function") add(problems, "", "the suite needs environment(): data");
  if (typeof suite.tools !== "function") add(problems, "", "the suite needs tools(env): Tool[]");
  if (!Array.isArray(suite.places)) add(problems, "", "the suite needs places: InjectionPlace[]");
  if (!Array.isArray(suite.userTasks) || suite.userTasks.length === 0) add(problems, "", "the suite has no user tasks");
  if (!Array.isArray(suite.injectionTasks)) add(problems, "", "the suite needs injectionTasks: InjectionTask[]");
  if (problems.size > 0) return problems;
  checkIds(problems, suite.userTasks, "user task");
  checkIds(problems, suite.injectionTasks, "injection task");
  for (const t of suite.userTasks) if (isObject(t) && isText(t.id)) checkUserTask(problems, t as unknown as Record<string, unknown>);
  for (const t of suite.injectionTasks) if (isObject(t) && isText(t.id)) checkInjectionTask(problems, t as unknown as Record<string, unknown>);
  return problems;
}

/** The problems in one line, naming the suite and task. */
export function problemText(suite: string, id: string, list: readonly string[]): string {
  return `${suite}${id === "" ? "" : `/${id}`}: ${list.join("; ")}`;
}
