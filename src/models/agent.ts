import { currentCallScope, withCallScope } from "../calls/index.js";
import type { QuarantinedModel, RunResult } from "../runtime/types.js";
import { startAgentSpan, type AgentSpan } from "../tracing/index.js";
import type { Tool } from "../tools/types.js";
import { previousFor } from "./agent-ledger.js";
import { createPlanChecker, planCheckRounds, type AgentPlanCheckOptions, type PlanCheckRecord } from "./agent-plancheck.js";
import { meteredCall, withMeter } from "./meter-context.js";
import { extractProgram, failureTurn, formatCorrection, programTurn, requestTurn, todayText } from "./planner-messages.js";
import { plannerFixedPrompt, plannerSystemPrompt } from "./planner-prompt.js";
import { plannerToolSearch, type PlanningSearch, type SearchSession } from "./planner-search.js";
import { plannerEstimate } from "./planner-estimate.js";
import type { PriceTable } from "./prices.js";
import type { ChatMessage, PlannerModel, PlannerResponse } from "./types.js";
import {
  BudgetExceededError,
  createUsageMeter,
  type Budget,
  type BudgetLimit,
  type UsageMeter,
  type UsageReport,
} from "./usage.js";

/**
 * What the agent needs of a runtime. `previous` lets a retry continue from the state reached;
 * `parent` is the request's `invoke_agent` span (an opaque handle), for the run's span to go under.
 */
export interface AgentRuntime {
  run(source: string, options?: { previous?: RunResult; parent?: unknown }): Promise<RunResult>;
  readonly tools: readonly Tool<any, any>[];
  /** The runtime's clock ("now" of its runs), when it has one: the planner is told that date. */
  readonly now?: Date | string | number;
}

/** Builds the runtime around the agent's reader. */
export type RuntimeFactory = (options: { quarantined?: QuarantinedModel }) => AgentRuntime;

/**
 * Tool search in front of the planner: the planner's system prompt is then only the fixed part
 * (the same bytes for every request, so the provider's cache hits) and the declarations of the
 * `k` tools most relevant to the request follow it.
 */
export interface AgentToolSearch {
  /** How many declarations the planner sees. Default 8. */
  k?: number;
  /** Which tools may be shown at all, e.g. only pinned or trusted ones. Default: every tool. */
  offer?: (tool: Tool<any, any>) => boolean;
  /** Server notes for the default retriever (see `ToolSearchOptions.notes`). */
  notes?: Readonly<Record<string, string>>;
  /** The retriever. Default: `searchTools` with `notes`, over an index built once per agent. */
  search?: (tools: readonly Tool<any, any>[], request: string, k: number) => readonly string[];
  /**
   * Searches the planner may make before writing its program, per request: it is offered a
   * `search_tools({ query })` tool, answered with the declarations of up to `k` more offered
   * tools. Each is a planner call, counted in the usage and the budget. 0 for none. Default 2.
   */
  maxSearches?: number;
}

/** Options of {@link createAgent}. */
export interface AgentOptions {
  /** The runtime that runs programs, or a factory given `reader` as its quarantined model. */
  runtime: AgentRuntime | RuntimeFactory;
  /** The privileged planner. */
  planner: PlannerModel;
  /**
   * The quarantined reader, handed to a runtime factory. A ready runtime already holds its
   * reader; sluice's readers charge the run's budget either way.
   */
  reader?: QuarantinedModel;
  /** Limits of each run. */
  budget?: Budget;
  /** Prices per model, merged over the defaults. */
  prices?: PriceTable;
  /** Programs run per request, the first included. Default 3. */
  maxRuns?: number;
  /** Corrections sent per program when an answer is not one fenced code block. Default 2. */
  maxFormatRetries?: number;
  /** Clock in milliseconds for the wall-time budget; injectable for tests. */
  now?: () => number;
  /**
   * Today's date as the planner is told it (a `Date`, an ISO 8601 string or milliseconds).
   * Default: the runtime's `now` when it has one, else the real date when the request starts.
   */
  today?: Date | string | number;
  /** The static plan check before each program runs; `false` turns it off. Default: 2 rounds. */
  planCheck?: AgentPlanCheckOptions | false;
  /** Show the planner only the tools a search finds for the request. Default: every tool. */
  toolSearch?: AgentToolSearch;
}

/** Why an agent run ended. */
export type AgentStopReason = "completed" | "blocked" | "attempts" | "format" | "budget" | "model-error" | "runtime-error";

/** One program the agent ran. */
export interface AgentAttempt {
  program: string;
  result: RunResult;
}

/** The outcome of {@link Agent.run}. */
export interface AgentResult {
  /** `"completed"` and `"blocked"` as the last run reports them; `"failed"` for every other end. */
  status: "completed" | "blocked" | "failed";
  /** Why the agent stopped; `limit` names the budget limit when the budget stopped it. */
  stop: { reason: AgentStopReason; message: string; limit?: BudgetLimit };
  /** The last program run. */
  program?: string;
  /** Its run result. */
  result?: RunResult;
  /** Every program run, in order. */
  attempts: AgentAttempt[];
  /** Tokens, cost, model calls and wall time of this run. */
  usage: UsageReport;
  /** The planner's conversation, for audit. It holds trusted text only. */
  transcript: ChatMessage[];
  /** With tool search: the searches the planner made while planning, in order. */
  searches?: PlanningSearch[];
  /** Every program the static plan check looked at, with what it found. */
  planChecks: PlanCheckRecord[];
}

/** An agent made by {@link createAgent}. */
export interface Agent {
  /** Plans, runs and, when a run fails, re-plans the user's request. Never throws for a failed run. */
  run(request: string): Promise<AgentResult>;
  /** The planner's system prompt for this runtime's tools. */
  readonly systemPrompt: string;
}

type Stop = AgentResult["stop"];
type Got = { ok: true; program: string } | { ok: false; stop: Stop };

function positiveInt(name: string, value: number | undefined, dflt: number, min: number): number {
  const v = value ?? dflt;
  if (!Number.isInteger(v) || v < min) throw new TypeError(`createAgent: ${name} must be an integer of at least ${min}, got ${JSON.stringify(value)}`);
  return v;
}

function budgetStop(err: BudgetExceededError): Stop {
  return { reason: "budget", message: err.message, limit: err.limit };
}

/**
 * The privileged side of the pipeline: asks the planner for a program, runs it, and on failure
 * tells the planner where and how it failed (never what untrusted data said), up to `maxRuns`.
 */
export function createAgent(options: AgentOptions): Agent {
  if (options === null || typeof options !== "object") throw new TypeError("createAgent: expected an options object");
  const { planner } = options;
  if (planner === null || typeof planner !== "object" || typeof planner.complete !== "function") {
    throw new TypeError("createAgent: planner must be a planner model (anthropicPlanner, scriptedPlanner, ...)");
  }
  const runtime = typeof options.runtime === "function" ? options.runtime({ quarantined: options.reader }) : options.runtime;
  if (runtime === null || typeof runtime !== "object" || typeof runtime.run !== "function") {
    throw new TypeError("createAgent: runtime must be a runtime from createRuntime or a function returning one");
  }
  const maxRuns = positiveInt("maxRuns", options.maxRuns, 3, 1);
  const maxFormatRetries = positiveInt("maxFormatRetries", options.maxFormatRetries, 2, 0);
  const checkRounds = planCheckRounds(options.planCheck);
  // A bad clock is a bad configuration: say so now, not at the first request.
  if (options.today !== undefined) todayText(options.today);
  if (runtime.now !== undefined) todayText(runtime.now);
  const search = options.toolSearch;
  const system = search === undefined ? plannerSystemPrompt(runtime.tools ?? []) : plannerFixedPrompt();
  const toolSearch = search === undefined ? undefined : plannerToolSearch(runtime.tools ?? [], search);
  createUsageMeter({ prices: options.prices, budget: options.budget }); // checks them now, not at the first run

  async function askPlanner(messages: readonly ChatMessage[], meter: UsageMeter, session: SearchSession | undefined): Promise<PlannerResponse> {
    const tools = session?.block;
    const searchTool = session?.canSearch === true;
    const request = tools === undefined ? { system, messages: [...messages] } : { system, tools, ...(searchTool ? { searchTool } : {}), messages: [...messages] };
    // sluice's planners charge the run's meter per attempt themselves (their retries are the call layer's).
    if (planner.metered === true) return planner.complete(request);
    return meteredCall(plannerEstimate(planner.model, planner.maxTokens, request), meter, async ({ signal }) => {
      const response = await planner.complete({ ...request, ...(signal !== undefined ? { signal } : {}) });
      return { value: response, usage: response.usage };
    });
  }

  async function obtainProgram(messages: ChatMessage[], meter: UsageMeter, session: SearchSession | undefined): Promise<Got> {
    let problem = "";
    for (let turn = 0; turn <= maxFormatRetries; turn++) {
      let response: PlannerResponse;
      try {
        response = await askPlanner(messages, meter, session);
      } catch (err) {
        if (err instanceof BudgetExceededError) return { ok: false, stop: budgetStop(err) };
        return { ok: false, stop: { reason: "model-error", message: (err as Error)?.message ?? String(err) } };
      }
      if (response.stopReason === "refusal") return { ok: false, stop: { reason: "model-error", message: "the planner refused to answer" } };
      if (response.search !== undefined && session?.canSearch === true) {
        // A search is answered and the planner asked again; past the limit it counts as a wasted answer.
        const reply = session.answer(response.search);
        messages.push({ role: "assistant", content: response.text, search: response.search });
        messages.push({ role: "user", content: reply.text, searchResult: reply.isError ? { id: response.search.id, isError: true } : { id: response.search.id } });
        if (!reply.isError) turn -= 1;
        problem = `the planner kept searching for tools instead of writing the program`;
        continue;
      }
      const extracted = extractProgram(response.text);
      if (extracted.ok) {
        messages.push({ role: "assistant", content: programTurn(extracted.program) });
        return { ok: true, program: extracted.program };
      }
      problem = response.stopReason === "max_tokens" ? `the answer was cut off at ${planner.maxTokens} tokens` : extracted.problem;
      if (turn < maxFormatRetries) {
        messages.push({ role: "assistant", content: response.text.trim() === "" ? "(empty answer)" : response.text });
        messages.push({ role: "user", content: formatCorrection(problem) });
      }
    }
    return { ok: false, stop: { reason: "format", message: `no usable program after ${maxFormatRetries + 1} answers: ${problem}` } };
  }

  async function execute(program: string, attempts: AgentAttempt[], meter: UsageMeter, span: AgentSpan): Promise<RunResult | Stop> {
    const previous = previousFor(attempts.map((a) => a.result));
    try {
      const given = { ...(previous !== undefined ? { previous } : {}), ...(span.span !== undefined ? { parent: span } : {}) };
      return await runtime.run(program, Object.keys(given).length === 0 ? undefined : given);
    } catch (err) {
      if (meter.exceeded !== undefined) return budgetStop(meter.exceeded);
      return { reason: "runtime-error", message: `the runtime threw: ${(err as Error)?.message ?? String(err)}` };
    }
  }

  async function loop(request: string, meter: UsageMeter, span: AgentSpan): Promise<AgentResult> {
    const today = todayText(options.today ?? runtime.now ?? new Date());
    const messages: ChatMessage[] = [{ role: "user", content: requestTurn(request, today) }];
    const attempts: AgentAttempt[] = [];
    const session = toolSearch?.start(request);
    const checker = createPlanChecker(runtime.tools ?? [], checkRounds);
    const finish = (status: AgentResult["status"], stop: Stop): AgentResult => {
      const last = attempts[attempts.length - 1];
      const usage = { ...meter.report(), planCheckRounds: checker.rounds };
      const result: AgentResult = { status, stop, program: last?.program, result: last?.result, attempts, usage, transcript: messages, planChecks: checker.records };
      span.end({ status, stop: stop.reason, runs: attempts.length, calls: attempts.reduce((n, a) => n + (a.result.calls?.length ?? 0), 0) });
      return session === undefined ? result : { ...result, searches: session.searches };
    };
    for (let run = 1; ; run++) {
      const first = await obtainProgram(messages, meter, session);
      // The check reads every tool the runtime has: a program may call any of them.
      const got = first.ok ? await checker.review(first.program, (feedback) => (messages.push({ role: "user", content: feedback }), obtainProgram(messages, meter, session))) : first;
      if (!got.ok) return finish("failed", got.stop);
      const outcome = await execute(got.program, attempts, meter, span);
      if (!("status" in outcome)) return finish("failed", outcome);
      attempts.push({ program: got.program, result: outcome });
      if (outcome.status === "completed") return finish("completed", { reason: "completed", message: "the program completed" });
      if (outcome.status === "blocked") return finish("blocked", { reason: "blocked", message: outcome.error?.message ?? "the run was blocked" });
      if (meter.exceeded !== undefined) return finish("failed", budgetStop(meter.exceeded));
      if (run >= maxRuns) return finish("failed", { reason: "attempts", message: `the program still failed after ${maxRuns} runs` });
      messages.push({ role: "user", content: failureTurn(outcome.error, { program: got.program, request, tools: runtime.tools }) });
    }
  }

  return {
    systemPrompt: system,
    async run(request) {
      if (typeof request !== "string" || request.trim() === "") throw new TypeError("agent.run: the request must be a non-empty string");
      const meter = createUsageMeter({ prices: options.prices, budget: options.budget, now: options.now });
      // One invoke_agent span per request: the planner's calls find it in the call scope, each
      // program run is given it as its parent, and the reader's calls are under that run's span.
      const span = startAgentSpan();
      try {
        return await withMeter(meter, () => withCallScope({ ...currentCallScope(), parent: span }, () => loop(request, meter, span)));
      } finally {
        span.end({ status: "failed", stop: "error", runs: 0, calls: 0 });
      }
    },
  };
}
