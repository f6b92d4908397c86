import type { RunError } from "../runtime/types.js";

/**
 * The turns the agent adds to the planner's conversation. Each is built from trusted text
 * only: the user's request, the planner's own programs, and run errors whose label is trusted.
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

/** Longest error message shown to the planner; longer trusted messages are cut. */
const MAX_MESSAGE = 1000;

/** Error kinds whose messages come from the program text alone, which the planner wrote. */
const PROGRAM_KINDS: ReadonlySet<string> = new Set(["syntax", "unsupported"]);

/**
 * True when the error's message may be shown to the planner: its label is trusted. Syntax and
 * unsupported-construct errors describe the planner's own program, so they count as trusted
 * when the runtime gave no label; any other unlabeled message is withheld.
 */
export function messageIsTrusted(error: RunError): boolean {
  if (error.label !== undefined) return error.label.trusted;
  return PROGRAM_KINDS.has(error.kind);
}

/** The feedback turn after a failed run. */
export function failureTurn(error: RunError | undefined): string {
  const kind = error?.kind ?? "runtime";
  const where = error?.line !== undefined ? ` at line ${error.line}${error.column !== undefined ? `, column ${error.column}` : ""}` : "";
  let text = `The program failed${where} with a ${kind} error.`;
  if (error !== undefined && messageIsTrusted(error)) {
    const msg = error.message.length > MAX_MESSAGE ? error.message.slice(0, MAX_MESSAGE) + "…" : error.message;
    text += `\nError message: ${msg}`;
  } else {
    text += "\nThe error message is withheld because it depends on untrusted data.";
  }
  return `${text}\nWrite the complete corrected program. Tool calls with side effects that already ran will not run again.`;
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
