import type { RunError } from "../runtime/types.js";

/**
 * The turns the agent adds to the planner's conversation. Each is built from trusted text
 * only: the user's request, the planner's own programs, and run errors whose label is trusted.
 */

/** The first user turn: the request itself. */
export function requestTurn(request: string): string {
  return `User request:\n\n${request}`;
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
