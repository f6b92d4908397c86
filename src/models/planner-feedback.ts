/**
 * What of a failed run the privileged planner may read. The planner writes programs that act on
 * data it must never see, so its feedback is built, by default, from the program text and fixed
 * strings only: the kind of error, the line and column, and the failing line of its own program.
 * The runtime's message (which may quote data the program read) is added only when two checks
 * pass, each enough on its own for the usual case and together safe when one is wrong:
 *
 * 1. Its label is trusted and public: nothing untrusted decided it, and nothing private is in it;
 *    and so is its place label (a message says where the run ended as a line does). Syntax and unsupported-construct errors, which the runtime reports before the program runs
 *    and so before any data exists, need no label.
 * 2. Every word in it (but for those compile errors) is a word the planner already has: a word of its own program, of the
 *    user's request, the name of a tool or of a parameter of a tool whose declaration is vouched
 *    for (not an unreviewed untrusted server's), or a word of sluice's own error
 *    messages ({@link MESSAGE_WORDS}). A message quoting an email, a web page or a tool's error is
 *    withheld even when a label rule upstream is wrong.
 *
 * What can still reach the planner through a failure: whether and where the program failed, its
 * kind, and which known words a message used. Those are a few bits per attempt, and the agent
 * makes at most `maxRuns` attempts.
 */
import type { RunError } from "../runtime/types.js";
import type { JsonSchema, Tool } from "../tools/types.js";
import { placeIsTrusted } from "../runtime/error-place.js";
import { failureSummary } from "../calls/index.js";

/** Kinds the runtime reports; any other kind is reported as a runtime error. */
const KINDS: ReadonlySet<string> = new Set(["syntax", "unsupported", "runtime", "limit", "policy"]);

/** Error kinds whose messages come from the program text alone, before the program runs. */
const PROGRAM_KINDS: ReadonlySet<string> = new Set(["syntax", "unsupported"]);

/**
 * Words of the messages sluice's compiler, interpreter, runtime and schema checks write, with
 * JavaScript's error names. A message with a word outside this list (and outside the program,
 * the request and the tools) is withheld; a word missing here costs a withheld message, never a
 * leak. Words that would help an instruction to the planner more than an error (approve, ignore,
 * previous, you, now, ...) are left out on purpose.
 */
export const MESSAGE_WORDS: ReadonlySet<string> = new Set(
  (
    "a accepted access additional after allocated allowed already an and another answer anyof appear are args argument arguments array arrays " +
    "arrow as assign assigned assigning assignment assignments async at attribute available await back backreferences bad bare be been before " +
    "bigint binary binding block boolean booleans bound build built builtin by bytes call callee called calls can cannot case catch chaining " +
    "change changes character characters check checked choose chose chosen circular clash class classes clause clauses clock code coalesce " +
    "column comma comment compile compiled complex configured const constant constructed constructor constructors contain could count cycle " +
    "cycles data date dates declaration declarations declare declared deep deeper deeply default defined delete deleted deleting destructure " +
    "destructuring did digits directive directly disallowed does draft duplicate e each earlier either element elements empty enough entries " +
    "entry equal error escape escaped evaluated every exactly expected expecting explicitly export exported expression expressions failed fails " +
    "false field fields finally first flag for format found from fromentries function functions g generator generators get getter getters " +
    "given global got grew groups has have hold host identical identifier illegal import imported in include index infinity initial " +
    "initialization initializer input inside instanceof instead integer internal into invalid is it item items iterable its itself javascript " +
    "json key keys keyword label labeled large larger last least left legacy length let level levels lexically limit limits line linear list " +
    "literal literals local logical lone long longer lookaround loop loops made map match max may member memory message meta method min " +
    "missing mixed mode model modifier module modules more most ms multiple must n name named names nan native needs nested nests never new " +
    "newline no non not nothing null number numbers numeric obj object objects octal of on one oneof only operator optional options or out " +
    "outside over pairs param parameter parameters params parentheses parenthesized parse part pass past pattern patterns permitted plain " +
    "plan posing positions positive present private process program programs prompt properties property proto prototype prototypes push " +
    "quarantined queries query radix ran re reachable read readers reading reassign records recursed redefinition reduce refers regexp " +
    "regular remove replaceall request require required reserved rest result results return returned rewrite run runresult runs runtime " +
    "rvalue s same schema schemas script search separator sequence serialised set setter setters setting shorthand should side simple single " +
    "smaller source spread stack start statement static steps store strict string strings structure subclass such super supported " +
    "surrogate synchronously t tag tagged take takes target template templates than that the their there this throw thrown time timestamp " +
    "timestamps to token too tool tools top trailing true trusted two type typeof types uncaught undefined unexpected unique unknown untagged " +
    "unterminated untrusted use used using valid validation value values variable variables was were when which whose with without wrap " +
    "x yield " +
    "error typeerror rangeerror referenceerror syntaxerror evalerror urierror aggregateerror notenoughinformationerror schemaerror"
  )
    .split(" ")
    .filter((w) => w !== ""),
);

/**
 * A word: a run of characters that are neither white space nor ASCII punctuation. Letters of any
 * script, digits and symbols all count, so data written in any alphabet is checked like English.
 */
const WORD = /[^\s!-/:-@[-`{-~]+/gu;

/** Longest runtime message shown to the planner; longer ones are cut. */
const MAX_MESSAGE = 1000;

/** Longest program line quoted in the feedback. */
const MAX_LINE = 200;

/** Text the planner already has, against which a message's words are checked. */
export interface PlannerKnows {
  /** The program that failed: the planner's own text. */
  program?: string;
  /** The user's request. */
  request?: string;
  /**
   * The tools offered: their names, and the parameter names of those whose declaration sluice
   * vouches for (no `schemaLabel`, or a trusted and public one: the user's own tools, trusted or
   * reviewed MCP servers). An unreviewed untrusted server writes its parameter names as it likes.
   */
  tools?: readonly Pick<Tool<any, any>, "name" | "parameters" | "schemaLabel">[];
}

/** True when whoever wrote the tool's declaration is trusted: its parameter names are not a stranger's words. */
function declarationVouched(tool: Pick<Tool<any, any>, "schemaLabel">): boolean {
  const label = tool.schemaLabel;
  if (label === undefined) return true;
  return typeof label === "object" && label !== null && label.trusted === true && label.readers === "public";
}

function parameterNames(schema: JsonSchema | undefined, into: Set<string>, depth = 0): void {
  if (schema === null || typeof schema !== "object" || depth > 8) return;
  const props = (schema as { properties?: unknown }).properties;
  if (props !== null && typeof props === "object") {
    for (const [k, v] of Object.entries(props)) {
      into.add(k);
      parameterNames(v as JsonSchema, into, depth + 1);
    }
  }
  const items = (schema as { items?: unknown }).items;
  if (items !== null && typeof items === "object" && !Array.isArray(items)) parameterNames(items as JsonSchema, into, depth + 1);
}

/** True when every word of `message` is one the planner already has. */
export function wordsAreKnown(message: string, knows: PlannerKnows): boolean {
  const known = new Set<string>([...(knows.program?.match(WORD) ?? []), ...(knows.request?.match(WORD) ?? [])]);
  for (const t of knows.tools ?? []) {
    if (typeof t?.name === "string") known.add(t.name);
    if (t !== null && typeof t === "object" && declarationVouched(t)) parameterNames(t.parameters, known);
  }
  // Whole words only: a program with "every" in it does not make "eve" known.
  return (message.match(WORD) ?? []).every((word) => known.has(word) || MESSAGE_WORDS.has(word.toLowerCase()));
}

/**
 * True when the error's label says nothing untrusted decided it and nothing private is in it,
 * and its place may be shown: a message names the operation that failed as surely as a line
 * does (a run that passed a stop decided by data and failed later at `null.k` said where it
 * ended by its message alone).
 */
export function labelAllowsMessage(error: RunError): boolean {
  if (!placeIsTrusted(error)) return false;
  const label = error.label;
  if (label === undefined) return PROGRAM_KINDS.has(error.kind);
  return label.trusted === true && label.readers === "public";
}

/** The runtime's message as the planner may read it, or undefined when it is withheld. */
export function shownMessage(error: RunError, knows: PlannerKnows): string | undefined {
  if (typeof error.message !== "string" || !labelAllowsMessage(error)) return undefined;
  const msg = error.message.length > MAX_MESSAGE ? error.message.slice(0, MAX_MESSAGE) : error.message;
  // A compile error describes the program alone: no data exists before the program runs.
  const compiled = error.label === undefined && PROGRAM_KINDS.has(error.kind);
  if (!compiled && !wordsAreKnown(msg, knows)) return undefined;
  return msg.length < error.message.length ? `${msg}…` : msg;
}

/**
 * When the run ended on a tool call's own failure (RunError.failedCall), sluice's fixed sentence
 * for it: the tool's name and the failure's kind, never a word the remote side wrote. Only when
 * what decided that the run ended at that call, but for the failure itself (the call's arguments,
 * the flow that reached it, how the run went on after it), is trusted and public: a call reached
 * because of untrusted or secret data is not named. The kind itself is untrusted (the remote
 * side, the network and other runs' calls decide it): a declassification of one of eight fixed
 * values per run, see docs/security-model.md, "What a program sees of a failed call", point 5.
 */
export function shownCallFailure(error: RunError | undefined): string | undefined {
  const call = error?.failedCall;
  if (error?.kind !== "runtime" || call === undefined || call === null || typeof call !== "object") return undefined;
  const label = call.label;
  if (label === undefined || label === null || label.trusted !== true || label.readers !== "public") return undefined;
  if (typeof call.tool !== "string" || typeof call.kind !== "string") return undefined;
  return failureSummary(call.kind, call.tool);
}

/** A positive integer, or undefined: a position is shown only when it is one. */
function position(n: unknown): number | undefined {
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Whether the planner may see where a run failed: the runtime's rule, shared with `sluice serve`. */
export { placeIsTrusted };

/** The kind, line and column of an error, as fixed strings and numbers only. */
export function errorPlace(error: RunError | undefined): { kind: string; line?: number; column?: number } {
  const kind = error !== undefined && KINDS.has(error.kind) ? error.kind : "runtime";
  const line = placeIsTrusted(error) ? position(error?.line) : undefined;
  return { kind, line, column: line === undefined ? undefined : position(error?.column) };
}

/** The program's own line `line`, cut to a readable length, or undefined when there is none. */
export function programLine(program: string | undefined, line: number | undefined): string | undefined {
  if (program === undefined || line === undefined) return undefined;
  const text = program.split(/\r\n|\r|\n/)[line - 1];
  if (text === undefined || text.trim() === "") return undefined;
  const trimmed = text.trim();
  return trimmed.length > MAX_LINE ? `${trimmed.slice(0, MAX_LINE - 1)}…` : trimmed;
}

/** Fixed advice per kind, for when the message is withheld. */
export const KIND_HINTS: Readonly<Record<string, string>> = {
  syntax: "The program is not valid JavaScript at that place.",
  unsupported: "The program uses a construct the supported subset does not have.",
  runtime: "The program threw an error it did not catch.",
  limit: "The program went past a resource limit (steps, time, memory, string or array size, call depth or tool calls); make it do less work.",
  policy: "A tool call was refused by a policy.",
};
