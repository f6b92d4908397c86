import { NotEnoughInformation } from "../runtime/types.js";
import type { JsonSchema } from "../tools/types.js";
import { meteredCall } from "./meter-context.js";
import { programTurn } from "./planner-messages.js";
import { estimateTokens, type UsageMeter } from "./usage.js";
import { createSchemaValidator } from "./validate.js";
import { zeroUsage, type NamedReader, type PlannerModel, type PlannerRequest, type PlannerResponse, type TokenUsage } from "./types.js";

/**
 * Offline models for tests, demos and the CLI without a key. They make no network calls and
 * cost nothing unless told to report usage.
 */

/** An answer given verbatim, fences and all: for scripting malformed planner answers. */
export interface RawAnswer {
  raw: string;
}

/** A search for more tools during planning (`search_tools({ query })`), answered by the agent. */
export interface SearchAnswer {
  search: string;
}

/** One scripted planner turn: a program (fenced for you), a raw answer, a search, or a function of the request. */
export type ScriptedTurn = string | RawAnswer | SearchAnswer | ((request: PlannerRequest, turn: number) => string | RawAnswer | SearchAnswer);

/** Options of {@link scriptedPlanner}. */
export interface ScriptedPlannerOptions {
  /** Model identifier reported for pricing. Default `"scripted"` (free). */
  model?: string;
  /** Reported max_tokens (the output part of each call's worst case). Default 0. */
  maxTokens?: number;
  /** Usage reported per call. Default all zeros. */
  usage?: TokenUsage | ((request: PlannerRequest) => TokenUsage);
}

/** A scripted planner that also keeps every request it was given, for inspection. */
export interface ScriptedPlanner extends PlannerModel {
  readonly requests: PlannerRequest[];
}

function answerText(turn: string | RawAnswer): string {
  if (typeof turn === "string") return programTurn(turn);
  if (turn !== null && typeof turn === "object" && typeof turn.raw === "string") return turn.raw;
  throw new TypeError("scriptedPlanner: a turn must be a program string, { raw } or a function returning one");
}

/** A planner that answers with the given programs, one per call, in order. */
export function scriptedPlanner(turns: readonly ScriptedTurn[], options: ScriptedPlannerOptions = {}): ScriptedPlanner {
  if (!Array.isArray(turns)) throw new TypeError("scriptedPlanner: expected an array of programs");
  const requests: PlannerRequest[] = [];
  const model = options.model ?? "scripted";
  return {
    model,
    maxTokens: options.maxTokens ?? 0,
    requests,
    async complete(request): Promise<PlannerResponse> {
      const index = requests.length;
      requests.push(request);
      if (index >= turns.length) throw new Error(`scripted planner has no program for turn ${index + 1} (it was given ${turns.length})`);
      const turn = turns[index];
      const answer = typeof turn === "function" ? turn(request, index) : turn;
      const usage = typeof options.usage === "function" ? options.usage(request) : options.usage ?? zeroUsage();
      if (answer !== null && typeof answer === "object" && typeof (answer as SearchAnswer).search === "string") {
        return { text: "", usage: { ...usage }, stopReason: "tool_use", search: { id: `search_${index + 1}`, query: (answer as SearchAnswer).search } };
      }
      const text = answerText(answer as string | RawAnswer);
      return { text, usage: { ...usage }, stopReason: "end_turn" };
    },
  };
}

/** Answer this to make a scripted reader throw NotEnoughInformation. */
export const NOT_ENOUGH_INFORMATION: unique symbol = Symbol.for("sluice.notEnoughInformation");

/** A request to the quarantined model. */
export interface ReaderRequest {
  prompt: string;
  schema: JsonSchema;
}

/** One row of a scripted reader's table: the first row whose `when` matches the prompt answers. */
export interface ReaderRow {
  /** A substring of the prompt, or a pattern it must match. */
  when: string | RegExp;
  /** The answer, {@link NOT_ENOUGH_INFORMATION}, or a function of the request. */
  answer: unknown;
}

/** A scripted reader's source of answers. */
export type ReaderScript =
  | readonly ReaderRow[]
  | Readonly<Record<string, unknown>>
  | ((request: ReaderRequest) => unknown | Promise<unknown>);

/** Options of {@link scriptedReader}. */
export interface ScriptedReaderOptions {
  /** Model identifier reported for pricing. Default `"scripted"`. */
  model?: string;
  /** Meter charged (steps only) when no agent run is in progress. */
  meter?: UsageMeter;
}

/** A scripted reader that keeps every request it was given. */
export interface ScriptedReader extends NamedReader {
  readonly requests: ReaderRequest[];
}

function rowsOf(script: Exclude<ReaderScript, Function>): readonly ReaderRow[] {
  if (Array.isArray(script)) return script;
  return Object.entries(script).map(([when, answer]) => ({ when, answer }));
}

function lookup(script: ReaderScript, request: ReaderRequest): unknown {
  if (typeof script === "function") return script(request);
  for (const row of rowsOf(script as Exclude<ReaderScript, Function>)) {
    const hit = typeof row.when === "string" ? request.prompt.includes(row.when) : row.when.test(request.prompt);
    if (hit) return typeof row.answer === "function" ? (row.answer as (r: ReaderRequest) => unknown)(request) : row.answer;
  }
  return NOT_ENOUGH_INFORMATION;
}

/**
 * A reader that answers from a table (first row whose `when` matches the prompt; no match means
 * not enough information) or from a function. Answers are checked against the schema, as the
 * real reader's are.
 */
export function scriptedReader(script: ReaderScript, options: ScriptedReaderOptions = {}): ScriptedReader {
  if (script === null || (typeof script !== "object" && typeof script !== "function")) {
    throw new TypeError("scriptedReader: expected a table of answers or a function");
  }
  const validator = createSchemaValidator();
  const requests: ReaderRequest[] = [];
  const model = options.model ?? "scripted";
  return {
    model,
    requests,
    async query(request) {
      requests.push(request);
      validator.check(request.schema);
      const estimate = { model, role: "reader", inputTokens: estimateTokens(request.prompt), maxTokens: 0 };
      const answer = await meteredCall(estimate, options.meter, async () => ({ value: await lookup(script, request), usage: zeroUsage() }));
      if (answer === NOT_ENOUGH_INFORMATION) throw new NotEnoughInformation();
      const check = validator.validate(request.schema, answer);
      if (!check.ok) throw new Error(`scripted reader: its answer does not match the schema: ${check.errors}`);
      return answer;
    },
  };
}
