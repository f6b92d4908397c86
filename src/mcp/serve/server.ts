/**
 * sluice as an MCP server in code mode: `run_plan` runs an agent's whole plan inside sluice
 * and answers only its final value, labelled; `list_tools` declares what a plan can call.
 * When a policy asks, the question goes to the person through MCP elicitation and the run
 * waits for the answer in this process, so no tool call is made twice.
 */
import { randomBytes, randomUUID } from "node:crypto";
import {
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  McpServer,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { createRuntime, placeIsTrusted, type ApprovalRequest, type QuarantinedModel, type RunResult, type SluiceRuntime } from "../../runtime/index.js";
import { answerText, PLAN_ANSWER_SCHEMA, planAnswer } from "./answer.js";
import { approvedIn, askRequest, clientCanAsk, clientCanSample } from "./asks.js";
import { LIST_TOOLS_DESCRIPTION, runPlanDescription } from "./descriptions.js";
import type { ServeOptions } from "./types.js";
import { sampledIn, sampleRequest, samplingReader } from "./sampling.js";
import { startWaitingRun, type Ask, type OpenAsk, type WaitingRun } from "./waiting.js";
import { requestWatch, watchReader, watchTools, type RequestWatch, type RunWatch } from "./watch.js";

/** What {@link createPlanServer} gives back. */
export interface PlanServer {
  /** Builds one MCP server instance: one per connection on stdio, per request or session on HTTP. */
  factory: () => McpServer;
  /** Declines every question still waiting for a person. */
  close(): void;
}

/** The arguments of `run_plan`. */
interface RunPlanArgs {
  source: string;
  retry_of?: string;
}

/** What a round of questions carries through the client: which run, which questions. */
interface AskState {
  run: string;
  asks: string[];
}

/** A run between two rounds of questions. */
interface Parked {
  run: WaitingRun;
  source: string;
  notes: Set<string>;
  /** The request the run reports to: the one that started it, then each retry that answers its questions. */
  watch: RequestWatch;
  timer: NodeJS.Timeout;
}

/** What one request gives the runtime it runs in: who answers asks, the reader, where to report. */
interface Turn {
  approve: (request: ApprovalRequest) => boolean | Promise<boolean>;
  reader: QuarantinedModel | undefined;
  watch: RunWatch;
}

/** A runtime shared by a run and its retries; `turn` is set while one of them runs. */
interface Chain {
  runtime: SluiceRuntime;
  turn: Turn | undefined;
  /** Whether the runtime has a quarantined model (a retry without one gets its own runtime). */
  reads: boolean;
}

/** How many failed runs are kept for `retry_of`. */
const KEEP_FAILED = 32;
const MAX_SOURCE = 1_000_000;

const RUN_PLAN_INPUT = {
  type: "object",
  properties: {
    source: { type: "string", minLength: 1, maxLength: MAX_SOURCE, description: "The whole program." },
    retry_of: { type: "string", description: "The `run` of a failed answer that this program corrects." },
  },
  required: ["source"],
  additionalProperties: false,
};

const LIST_TOOLS_OUTPUT = {
  type: "object",
  properties: { declarations: { type: "string", description: "TypeScript declarations of every function a plan can call." } },
  required: ["declarations"],
};

function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function summary(result: RunResult): string {
  const count = (d: string) => result.calls.filter((c) => c.decision === d).length;
  // The log reaches the client too: the place only when data did not choose it.
  const where = result.error?.line === undefined || !placeIsTrusted(result.error) ? "" : ` at line ${result.error.line}`;
  return `run_plan: ${result.status}${where}; ${result.calls.length} call(s): ${count("allow")} allowed, ${count("ask")} asked, ${count("deny")} denied`;
}

function inputRequestOf(open: OpenAsk) {
  return open.question.kind === "approve" ? askRequest(open.question.request) : sampleRequest(open.question.params);
}

/** Creates the server: its tools, the runs waiting for a person, and the failed runs kept for retries. */
export function createPlanServer(options: ServeOptions): PlanServer {
  const log = options.log ?? (() => {});
  const fallback = options.fallback === "yes";
  const askTimeoutMs = options.askTimeoutMs ?? 600_000;
  const maxWaiting = options.maxWaiting ?? 32;
  const codec = createRequestStateCodec<AskState>({ key: randomBytes(32), ttlSeconds: Math.ceil(askTimeoutMs / 1000) + 60 });
  const parked = new Map<string, Parked>();
  const failed = new Map<string, RunResult>();
  // Weak: a chain lives as long as its failed run is kept for retry_of.
  const chains = new WeakMap<RunResult, Chain>();
  const sinks = options.tools.some((t) => t.sideEffect);
  const description = runPlanDescription(options.language, options.tools, options.runtime?.quarantined !== undefined ? "configured" : options.sampling === undefined ? "none" : "sampling");
  const fallbackNote = (why: string) => `${why}, so asks were answered "${fallback ? "yes" : "no"}" without asking anyone (sluice serve --approve ${fallback ? "yes" : "no"})`;

  /** The quarantined model of one run: the configured one, else the client's through sampling (when it can), else none. */
  function readerOf(canSample: boolean, ask: Ask) {
    if (options.runtime?.quarantined !== undefined) return options.runtime.quarantined;
    if (!canSample || options.sampling === undefined) return undefined;
    return samplingReader(options.sampling, (params) => ask({ kind: "sample", params }));
  }

  /**
   * The runtime of a run and its retries. A runtime replays only its own records with the
   * labels their results had (a record from another runtime is plain data, labelled as a
   * stranger's), so a retry runs in the runtime of the run it corrects; what differs per
   * request (who answers asks, the reader, the request to report to) is read from `turn`.
   */
  function runtimeFor(previous: RunResult | undefined, turn: Turn): Chain {
    const kept = previous === undefined ? undefined : chains.get(previous);
    // A chain already running another retry, or whose reader differs, is not shared.
    if (kept !== undefined && kept.turn === undefined && kept.reads === (turn.reader !== undefined)) return kept;
    const chain: Chain = { turn: undefined, reads: turn.reader !== undefined, runtime: undefined! };
    const now = () => chain.turn!;
    const watch: RunWatch = { get signal() { return now().watch.signal; }, ended: (tool, failed) => now().watch.ended(tool, failed) };
    const reader: QuarantinedModel | undefined = chain.reads ? { query: (request) => now().reader!.query(request) } : undefined;
    chain.runtime = createRuntime({ ...options.runtime, tools: watchTools(options.tools, watch), ...(reader === undefined ? {} : { quarantined: reader }), approve: (request) => now().approve(request) });
    return chain;
  }

  function start(args: RunPlanArgs, can: { ask: boolean; sample: boolean }, previous: RunResult | undefined, notes: Set<string>, watch: RequestWatch): WaitingRun {
    return startWaitingRun(async (ask) => {
      const approve = (request: ApprovalRequest): boolean | Promise<boolean> => {
        if (!can.ask) {
          notes.add(fallbackNote("This MCP client cannot show a person a form (it declares no form elicitation)"));
          return fallback;
        }
        // Other runs (any client's) fill these slots, so they must not decide the answer: the
        // fallback stands in only for a client that cannot ask, and a full server declines.
        if (parked.size >= maxWaiting) {
          notes.add(`${maxWaiting} plans were already waiting for a person, so asks were declined without asking anyone; run the plan again once those are answered`);
          return false;
        }
        return ask({ kind: "approve", request });
      };
      const turn: Turn = { approve, reader: watchReader(readerOf(can.sample, ask), watch), watch };
      const chain = runtimeFor(previous, turn);
      chain.turn = turn;
      try {
        const result = await chain.runtime.run(args.source, previous === undefined ? {} : { previous });
        if (result.status === "failed") chains.set(result, chain);
        return result;
      } finally {
        chain.turn = undefined;
      }
    });
  }

  function park(id: string, entry: Omit<Parked, "timer">): void {
    const timer = setTimeout(() => {
      parked.delete(id);
      entry.run.abandon();
      log(`run_plan: nobody answered within ${Math.round(askTimeoutMs / 1000)} s; the open asks were declined`);
    }, askTimeoutMs);
    timer.unref();
    parked.set(id, { ...entry, timer });
  }

  function unpark(id: string): Parked | undefined {
    const entry = parked.get(id);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    parked.delete(id);
    return entry;
  }

  function finished(id: string, result: RunResult, notes: Set<string>, watch: RequestWatch, program: string): CallToolResult {
    log(summary(result));
    watch.log(result.status === "completed" ? "info" : "warning", summary(result));
    if (result.status === "failed") {
      failed.set(id, result);
      if (failed.size > KEEP_FAILED) failed.delete(failed.keys().next().value as string);
    }
    const note = notes.size === 0 ? undefined : [...notes].join(". ");
    const answer = planAnswer(result, options.language, { ...(result.status === "failed" ? { run: id } : {}), ...(note === undefined ? {} : { note }), program, tools: options.tools, ...(options.principal === undefined ? {} : { principal: options.principal }) });
    return {
      content: [{ type: "text", text: answerText(answer) }],
      structuredContent: answer as unknown as Record<string, unknown>,
      ...(result.status === "failed" ? { isError: true } : {}),
    };
  }

  async function runPlan(args: RunPlanArgs, ctx: ServerContext, declared: () => Record<string, unknown> | undefined): Promise<CallToolResult | InputRequiredResult> {
    const state = ctx.mcpReq.requestState<AskState>();
    let id: string;
    let entry: Omit<Parked, "timer">;
    if (state !== undefined) {
      const found = unpark(state.run);
      if (found === undefined) return toolError("The questions of this plan are no longer open (nobody answered in time, or the server restarted); nothing more of it will run. Run the plan again.");
      if (found.source !== args.source) {
        park(state.run, found);
        return toolError("This retry carries a different source than the plan that asked; retry with the same arguments.");
      }
      found.watch.ctx = ctx;
      // An ask the retry does not answer stays open, and is put to the client again below.
      for (const key of state.asks) {
        const answer = key.startsWith("sample") ? sampledIn(ctx.mcpReq.inputResponses, key) : approvedIn(ctx.mcpReq.inputResponses, key);
        if (answer !== undefined) found.run.answer(key, answer);
      }
      id = state.run;
      entry = found;
    } else {
      const previous = args.retry_of === undefined ? undefined : failed.get(args.retry_of);
      if (args.retry_of !== undefined && previous === undefined) {
        return toolError(`retry_of ${JSON.stringify(args.retry_of)} names no failed run this server remembers (it keeps the last ${KEEP_FAILED}); run the plan without retry_of, and know that calls with side effects may be made again.`);
      }
      id = randomUUID();
      const notes = new Set<string>();
      const watch = requestWatch(ctx);
      const can = { ask: clientCanAsk(ctx, declared()), sample: clientCanSample(ctx, declared()) };
      entry = { run: start(args, can, previous, notes, watch), source: args.source, notes, watch };
    }
    const step = await entry.run.next();
    if (step.kind === "done") return finished(id, step.result, entry.notes, entry.watch, entry.source);
    park(id, entry);
    return inputRequired({
      inputRequests: Object.fromEntries(step.asks.map((a) => [a.key, inputRequestOf(a)])),
      requestState: await codec.mint({ run: id, asks: step.asks.map((a) => a.key) }),
    });
  }

  function factory(): McpServer {
    // Its two tools never change, so it promises no tools/list_changed; it logs each run to clients that ask for it.
    const server = new McpServer(options.serverInfo ?? { name: "sluice", version: "0.0.0" }, {
      capabilities: { tools: { listChanged: false }, logging: {} },
      requestState: { verify: codec.verify },
    });
    const declared = () => server.server.getClientCapabilities() as Record<string, unknown> | undefined;
    server.registerTool(
      "run_plan",
      {
        title: "Run a plan in sluice",
        description,
        inputSchema: fromJsonSchema<RunPlanArgs>(RUN_PLAN_INPUT),
        outputSchema: fromJsonSchema(PLAN_ANSWER_SCHEMA),
        annotations: { readOnlyHint: !sinks, destructiveHint: sinks, idempotentHint: false, openWorldHint: true },
      },
      (args, ctx) => runPlan(args, ctx, declared),
    );
    server.registerTool(
      "list_tools",
      {
        title: "Functions a plan can call",
        description: LIST_TOOLS_DESCRIPTION,
        outputSchema: fromJsonSchema(LIST_TOOLS_OUTPUT),
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async () => ({ content: [{ type: "text", text: options.language.declarations }], structuredContent: { declarations: options.language.declarations } }),
    );
    return server;
  }

  return {
    factory,
    close() {
      for (const id of [...parked.keys()]) unpark(id)?.run.abandon();
    },
  };
}
