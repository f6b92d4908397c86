import type { RunError } from "../runtime/types.js";
import { errorPlace, KIND_HINTS, programLine, shownCallFailure, shownMessage, type PlannerKnows } from "./planner-feedback.js";

/**
 * The turns the agent adds to the planner's conversation. Each is built from trusted text
 * only: the user's request, the planner's own programs, and what {@link failureTurn} lets through
 * of a failed run.
 */

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/**
 * Today's date for the planner, e.g. `"2025-12-20 (Saturday)"`, from a `Date`, an ISO 8601
 * string or milliseconds since the epoch (the date in UTC). Throws a TypeError for anything else.
 */
export function todayText(now: Date | string | number): string {
  const date = now instanceof Date ? now : typeof now === "string" && /^\d{4}-\d{2}-\d{2}$/.test(now) ? new Date(`${now}T00:00:00Z`) : new Date(now);
  if (Number.isNaN(date.getTime())) throw new TypeError(`today must be a Date, an ISO 8601 date or milliseconds since the epoch, got ${JSON.stringify(now)}`);
  return `${date.toISOString().slice(0, 10)} (${WEEKDAYS[date.getUTCDay()]})`;
}

/**
 * The first user turn: the request itself, after today's date when given. The date goes here,
 * not in the system prompt, so that prompt stays byte-identical and cached from day to day.
 */
export function requestTurn(request: string, today?: string): string {
  return today === undefined ? `User request:\n\n${request}` : `Today is ${today}.\n\nUser request:\n\n${request}`;
}

/** Sent back when an answer is not exactly one fenced code block. */
export function formatCorrection(problem: string): string {
  return `Your answer could not be used: ${problem}. Answer with exactly one fenced code block (\`\`\`js ... \`\`\`) holding the whole program, and nothing else.`;
}

/**
 * True when the runtime's message of a failed run may be shown to whoever wrote the program:
 * labelled trusted and public, and made of words that writer already has (see
 * {@link shownMessage}). Without `knows`, only sluice's own error vocabulary counts as known,
 * so pass the program and the tools where they are at hand.
 */
export function messageIsTrusted(error: RunError, knows: PlannerKnows = {}): boolean {
  return shownMessage(error, knows) !== undefined;
}

/**
 * The feedback turn after a failed run, built from the program text and fixed strings: the kind,
 * line and column, the failing line of the planner's own program, and the runtime's message
 * only when {@link shownMessage} lets it through (trusted, public, and made of words the planner
 * already has). `knows` is what the planner has already seen: its program, the request, the tools.
 */
export function failureTurn(error: RunError | undefined, knows: PlannerKnows = {}): string {
  const { kind, line, column } = errorPlace(error);
  const where = line !== undefined ? ` at line ${line}${column !== undefined ? `, column ${column}` : ""}` : "";
  const lines = [`The program failed${where} with a ${kind} error.`];
  const source = programLine(knows.program, line);
  if (source !== undefined) lines.push(`The failing line: ${source}`);
  const message = error === undefined ? undefined : shownMessage(error, knows);
  const call = message === undefined ? shownCallFailure(error) : undefined;
  if (message !== undefined) lines.push(`Error message: ${message}`);
  else if (call !== undefined) {
    lines.push(`A tool call failed and the program did not catch its error: ${call}.`);
    lines.push("The rest of the error message is withheld because it may quote what the tool or the network said.");
  } else {
    lines.push(KIND_HINTS[kind] ?? KIND_HINTS.runtime);
    lines.push("The error message is withheld because it may quote data the program read.");
  }
  lines.push("Write the complete corrected program. Tool calls with side effects that already ran will not run again.");
  return lines.join("\n");
}

const LANGUAGES = new Set(["", "js", "javascript", "mjs", "ts", "typescript"]);

/** A program taken out of a planner answer, or why none could be. */
export type Extraction = { ok: true; program: string } | { ok: false; problem: string };

/**
 * Takes the program out of an answer that must be exactly one fenced code block, with only
 * whitespace around it.
 */
export function extractProgram(answer: string): Extraction {
  const text = answer.trim();
  if (text === "") return { ok: false, problem: "the answer was empty" };
  const m = /^```([A-Za-z]*)[ \t]*\r?\n([\s\S]*?)\r?\n?```$/.exec(text);
  if (m === null) {
    if (!text.includes("```")) return { ok: false, problem: "the answer has no fenced code block" };
    return { ok: false, problem: "the answer has text outside the fenced code block" };
  }
  if (!LANGUAGES.has(m[1].toLowerCase())) return { ok: false, problem: `the code block is marked as ${m[1]}, not JavaScript` };
  const program = m[2];
  if (/^\s*```/m.test(program)) return { ok: false, problem: "the answer has more than one fenced code block" };
  if (program.trim() === "") return { ok: false, problem: "the code block is empty" };
  return { ok: true, program };
}

/** A program as the planner's earlier assistant turn, fenced the way it was asked to be. */
export function programTurn(program: string): string {
  return "```js\n" + program + "\n```";
}
