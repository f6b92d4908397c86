/**
 * One `run_plan` request's view of the tools: each call is reported as it ends (progress and
 * log notifications), and once the client cancels the request no further call is made: every
 * later call is denied, which stops the run, and the call in flight is aborted through its
 * signal. The runtime is not changed; the tools it is given are.
 */
import { defaultToolPolicy, runPolicy } from "../../policy/index.js";
import type { QuarantinedModel } from "../../runtime/index.js";
import type { ServerContext } from "@modelcontextprotocol/server";
import { deny, type Tool, type ToolCall, type ToolContext } from "../../tools/types.js";

/** What one request watches. */
export interface RunWatch {
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** Called when a call has ended (it returned or threw). */
  ended(tool: string, failed: boolean): void;
}

/** Why a call is refused after the client cancelled; sluice's own words, so the reason is trusted. */
export const CANCELLED = "the MCP client cancelled this run_plan request, so no further tool call is made";

function withSignal(ctx: ToolContext | undefined, signal: AbortSignal): ToolContext {
  const merged = ctx?.signal === undefined ? signal : AbortSignal.any([ctx.signal, signal]);
  return { ...(ctx ?? ({} as ToolContext)), signal: merged };
}

/** `tool`, watched: denied once cancelled, aborted through its signal, reported when it ends. */
function watchTool(tool: Tool<any, any>, watch: RunWatch): Tool<any, any> {
  const policy = tool.policy ?? defaultToolPolicy({ sideEffect: tool.sideEffect });
  return Object.freeze({
    ...tool,
    policy: (call: ToolCall) => (watch.signal.aborted ? deny(CANCELLED) : runPolicy(policy, call)),
    run: async (args: Record<string, unknown>, ctx?: ToolContext) => {
      let failed = true;
      try {
        const result = await tool.run(args, withSignal(ctx, watch.signal));
        failed = false;
        return result;
      } finally {
        watch.ended(tool.name, failed);
      }
    },
  });
}

/** The tools of one request, watched. */
export function watchTools(tools: readonly Tool<any, any>[], watch: RunWatch): Tool<any, any>[] {
  return tools.map((t) => watchTool(t, watch));
}

/** The quarantined model of one request: it answers nothing once the request is cancelled. */
export function watchReader(reader: QuarantinedModel | undefined, watch: RunWatch): QuarantinedModel | undefined {
  if (reader === undefined) return undefined;
  return {
    query: async (request) => {
      if (watch.signal.aborted) throw new Error(CANCELLED);
      return reader.query(request);
    },
  };
}

/** A log level of MCP logging. */
type LogLevel = "debug" | "info" | "notice" | "warning" | "error";

/** The request a run reports to; `ctx` is replaced when a retry answers the run's questions. */
export interface RequestWatch extends RunWatch {
  ctx: ServerContext;
  /** Sends a log notification, when the client asked for that level (logging/setLevel, or the 2026-07-28 request's log level). */
  log(level: LogLevel, text: string): void;
}

/**
 * Reports a run to the request driving it: each call's end as a progress notification (when
 * the request carries a progress token) and as a log line. What is reported is sluice's own
 * text, the tool's name and whether it failed: the answer's `calls` says as much.
 */
export function requestWatch(ctx: ServerContext): RequestWatch {
  let ended = 0;
  const watch: RequestWatch = {
    ctx,
    get signal() {
      return watch.ctx.mcpReq.signal;
    },
    log(level, text) {
      watch.ctx.mcpReq.log(level, text, "sluice").catch(() => undefined);
    },
    ended(tool, failed) {
      ended += 1;
      const message = `call ${ended}: ${tool} ${failed ? "failed" : "returned"}`;
      const token = watch.ctx.mcpReq._meta?.progressToken;
      if (token !== undefined) {
        watch.ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: ended, message } }).catch(() => undefined);
      }
      watch.log("debug", `run_plan: ${message}`);
    },
  };
  return watch;
}
