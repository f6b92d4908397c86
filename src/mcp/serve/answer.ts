/**
 * What `run_plan` answers: the run's status, the program's final value with its label, and
 * what each tool call decided. Intermediate results stay in sluice: tool results are never in
 * the answer, a call's arguments only when they are trusted, and an error message only when
 * it does not depend on untrusted data. A policy's reason quotes arguments (a preview of each);
 * when they are not trusted, those quotes are withheld from it too. Labels' sources and readers
 * are data as well: see label-answer.ts. With a `principal` (who the calling agent reads as),
 * a value, an argument or a message that principal may not read is withheld as well.
 */
import type { Label, Readers } from "../../labels/index.js";
import { preview } from "../../policy/paths.js";
import { placeIsTrusted, type CallRecord, type RunResult } from "../../runtime/index.js";
import type { JsonSchema, Tool } from "../../tools/types.js";
import { labelAnswer, quotesStrangers } from "./label-answer.js";
import type { PlanLanguage } from "./types.js";

/** A label as JSON. */
export interface LabelAnswer {
  trusted: boolean;
  readers: Readers;
  sources: readonly string[];
}

/** One tool call of the run, as the calling agent sees it. */
export interface CallAnswer {
  tool: string;
  decision: "allow" | "deny" | "ask";
  /** For asks: whether the person (or the fallback) approved. */
  approved?: boolean;
  /** Why the policy denied or asked, in the words a person would read. */
  reason?: string;
  /** The arguments, only when all of them are trusted (else they may hold text written by strangers). */
  args?: Record<string, unknown>;
  /** The label of all arguments together. */
  argsLabel?: LabelAnswer;
  /** True when the tool ran and failed (its message is not passed on: it carries no label). */
  failed?: true;
  /** True when the call was not made again: its result came from the run named by `retry_of`. */
  replayed?: true;
}

/** The structured content of a `run_plan` result. */
export interface PlanAnswer {
  status: RunResult["status"];
  /** The program's final value (of its last expression statement), when it completed. */
  value?: unknown;
  /** The label of `value`: when `trusted` is false, strangers' text may have shaped it. */
  label?: LabelAnswer;
  /** Why the run did not complete. */
  error?: { kind: string; message: string; line?: number; column?: number };
  calls: CallAnswer[];
  /** Set when the run failed: pass it as `retry_of` so a corrected plan does not repeat side effects. */
  run?: string;
  /** How asks were answered when no person could be asked. */
  note?: string;
  /** Why `value` is not in the answer although the run completed (its readers exclude the calling agent). */
  withheld?: string;
}

const WITHHELD = "the message is withheld because it may quote data the program read";

/** JSON can hold only JSON: NaN becomes null, undefined disappears, as JSON.stringify says. */
function plainJson(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return String(value);
  }
}

/** What a reason shows instead of an argument it may not quote. */
const WITHHELD_ARG = "(withheld: not trusted)";
/** Values previewed per call: enough for every path a policy names, bounded for huge arguments. */
const MAX_PREVIEWS = 512;

/** The previews a reason may hold of `args` and of every value nested in them, longest first. */
function previewsOf(args: unknown): string[] {
  const out = new Set<string>();
  const stack: Array<{ value: unknown; depth: number }> = [{ value: args, depth: 0 }];
  while (stack.length > 0 && out.size < MAX_PREVIEWS) {
    const { value, depth } = stack.pop()!;
    if (depth > 0) out.add(preview(value));
    if (value !== null && typeof value === "object" && depth < 8) {
      for (const child of Object.values(value as Record<string, unknown>).slice(0, MAX_PREVIEWS)) stack.push({ value: child, depth: depth + 1 });
    }
  }
  // A preview of two characters or fewer (`1`, `""`) can say nothing, and would match sluice's own words.
  return [...out].filter((p) => p.length > 2).sort((a, b) => b.length - a.length);
}

/**
 * Who reads the answer. `undefined`: the calling agent is the user's own and may read anything
 * the user may (the answer's labels say whose data it holds); a principal: only what it may read.
 */
type Reader = string | undefined;

function readable(label: Label | undefined, reader: Reader): boolean {
  return reader === undefined || (label !== undefined && label.canBeReadBy(reader));
}

/** Whether the calling agent may see a call's arguments: trusted (no stranger's text), and readable by it. */
function argsShown(call: CallRecord, reader: Reader): boolean {
  return call.argsLabel?.trusted === true && readable(call.argsLabel, reader);
}

/** `reason` with every quote of arguments the calling agent may not see withheld. */
function withheldArgs(reason: string, calls: readonly CallRecord[], reader: Reader): string {
  let out = reason;
  for (const call of calls) {
    if (argsShown(call, reader)) continue;
    for (const p of previewsOf(call.args)) out = out.split(p).join(WITHHELD_ARG);
  }
  return out;
}

/**
 * Whether a call's reason, written for the person, may reach the agent. Its provenance sentences
 * quote the details of the labels' sources and readers (policy/describe.ts), which label
 * functions fill from what tools return; where one of them may be a stranger's sentence, the
 * reason is replaced by fixed words, and the labels (as labelAnswer tells them) say the rest.
 */
function reasonQuotesStrangers(call: CallRecord): boolean {
  return quotesStrangers(call.argsLabel) || quotesStrangers(call.context);
}

const STRANGER_REASON = "the policy's reason is withheld because it quotes text others wrote; argsLabel says where the arguments came from";

function agentReason(call: CallRecord, reader: Reader): string | undefined {
  if (call.reason === undefined) return undefined;
  const verdict = call.decision === "deny" ? "denied by its policy" : call.decision === "ask" ? "put to the person by its policy" : "allowed";
  return reasonQuotesStrangers(call) ? `${call.tool} was ${verdict}: ${STRANGER_REASON}` : withheldArgs(call.reason, [call], reader);
}

function callAnswer(call: CallRecord, reader: Reader): CallAnswer {
  const answer: CallAnswer = { tool: call.tool, decision: call.decision };
  if (call.approved !== undefined) answer.approved = call.approved;
  const reason = agentReason(call, reader);
  if (reason !== undefined) answer.reason = reason;
  if (argsShown(call, reader)) answer.args = plainJson(call.args) as Record<string, unknown>;
  if (call.argsLabel !== undefined) answer.argsLabel = labelAnswer(call.argsLabel);
  if (call.error !== undefined) answer.failed = true;
  if (call.replayed === true) answer.replayed = true;
  return answer;
}

/** A blocked run's message is the reason of the call that stopped it: told as the calls' reasons are. */
function policyMessage(message: string, calls: readonly CallRecord[], reader: Reader): string {
  const quoting = calls.filter((c) => c.decision !== "allow" && reasonQuotesStrangers(c));
  if (quoting.length > 0) return `a tool call was refused (${quoting.map((c) => c.tool).join(", ")}): ${STRANGER_REASON}`;
  return withheldArgs(message, calls, reader);
}

function errorAnswer(result: RunResult, language: PlanLanguage, knows: Parameters<PlanLanguage["messageIsTrusted"]>[1], reader: Reader): PlanAnswer["error"] {
  const error = result.error;
  if (error === undefined) return undefined;
  // A policy's reason is sluice's own text, written for the person; show it like the calls' reasons.
  // Any other message is shown only when trusted and readable by the calling agent (no label: sluice's own words).
  const shown = error.kind === "policy" || (language.messageIsTrusted(error, knows) && (error.label === undefined || readable(error.label, reader)));
  // Where the run failed can be decided by data: the planner's own rule says when to tell it.
  const place = placeIsTrusted(error);
  return {
    kind: error.kind,
    message: !shown ? WITHHELD : error.kind === "policy" ? policyMessage(error.message, result.calls, reader) : error.message,
    ...(error.line === undefined || !place ? {} : { line: error.line }),
    ...(error.column === undefined || !place ? {} : { column: error.column }),
  };
}

/**
 * The answer for a finished run; `extra.program` and `extra.tools` are the plan and the tools it
 * was offered, whose words a shown message may use; `extra.principal` is who the calling agent
 * reads as (ServeOptions.principal).
 */
export function planAnswer(result: RunResult, language: PlanLanguage, extra: { run?: string; note?: string; program?: string; tools?: readonly Tool<any, any>[]; principal?: string } = {}): PlanAnswer {
  const reader = extra.principal;
  const answer: PlanAnswer = { status: result.status, calls: result.calls.map((c) => callAnswer(c, reader)) };
  if (result.status === "completed") {
    const value = plainJson(result.value);
    if (value !== undefined && readable(result.label, reader)) answer.value = value;
    else if (value !== undefined) answer.withheld = `the value is withheld: its readers do not include ${reader}, who this server answers`;
    if (result.label !== undefined) answer.label = labelAnswer(result.label);
  }
  const error = errorAnswer(result, language, { ...(extra.program === undefined ? {} : { program: extra.program }), ...(extra.tools === undefined ? {} : { tools: extra.tools }) }, reader);
  if (error !== undefined) answer.error = error;
  if (extra.run !== undefined) answer.run = extra.run;
  if (extra.note !== undefined) answer.note = extra.note;
  return answer;
}

const LABEL_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    trusted: { type: "boolean", description: "False when text written by someone other than the user may have shaped the value." },
    readers: {
      description: '"public", or the principals who may read the value.',
      anyOf: [{ type: "string", enum: ["public"] }, { type: "array", items: { type: "string" } }],
    },
    sources: { type: "array", items: { type: "string" }, description: "Where the value came from, e.g. email:eve@x.com; for a value that is not trusted, only the kind of each source (its detail may be a stranger's text)." },
  },
  required: ["trusted", "readers", "sources"],
};

/** The JSON Schema of {@link PlanAnswer}, advertised as run_plan's `outputSchema`. */
export const PLAN_ANSWER_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    status: { type: "string", enum: ["completed", "blocked", "failed"] },
    value: { description: "The program's final value, when it completed." },
    label: LABEL_SCHEMA,
    error: {
      type: "object",
      properties: {
        kind: { type: "string", enum: ["syntax", "unsupported", "runtime", "limit", "policy"] },
        message: { type: "string" },
        line: { type: "integer" },
        column: { type: "integer" },
      },
      required: ["kind", "message"],
    },
    calls: {
      type: "array",
      items: {
        type: "object",
        properties: {
          tool: { type: "string" },
          decision: { type: "string", enum: ["allow", "deny", "ask"] },
          approved: { type: "boolean" },
          reason: { type: "string" },
          args: { type: "object" },
          argsLabel: LABEL_SCHEMA,
          failed: { type: "boolean" },
          replayed: { type: "boolean" },
        },
        required: ["tool", "decision"],
      },
    },
    run: { type: "string", description: "Pass as retry_of when you correct a failed plan." },
    note: { type: "string" },
    withheld: { type: "string", description: "Why the value of a completed run is not given: it may not be read by the principal this server answers." },
  },
  required: ["status", "calls"],
};

/** The text rendering of an answer, for clients that read `content` only. */
export function answerText(answer: PlanAnswer): string {
  return JSON.stringify(answer);
}
