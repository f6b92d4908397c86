/**
 * One MCP tool as a sluice tool: its parameters and return type for the planner, whether it is
 * a sink, the label of its results, its policy, and a `run` that calls the server with a time
 * limit and a size cap and turns whatever happens into a value or an error the program can catch.
 */
import { Label, labeled } from "../labels/index.js";
import type { Policy } from "../policy/index.js";
import { defineTool, type JsonSchema, type Tool, type ToolContext } from "../tools/types.js";
import type { ResolvedServer } from "./config.js";
import type { PlannerView } from "./describe.js";
import { mcpToolPolicy } from "./policy.js";
import { McpToolError, resultValue } from "./result.js";
import { RestartError } from "./restart.js";
import { cleanSchema, compiles, parametersOf } from "./schema.js";
import { mcpToolAttributes } from "../tracing/index.js";
import type { McpTool, Session } from "./session.js";
import type { McpToolOverride } from "./types.js";

/**
 * A tool is a sink unless the user says otherwise, or a trusted server annotates it read-only
 * and not open-world: a read-only fetch (`openWorldHint: true`) still sends its arguments out
 * into the world, so where it goes must not be chosen by untrusted text without a policy.
 */
export function isSink(server: ResolvedServer, tool: McpTool, override: McpToolOverride | undefined): boolean {
  if (override?.sideEffect !== undefined) return override.sideEffect;
  return !(server.trust === "trusted" && tool.annotations?.readOnlyHint === true && tool.annotations?.openWorldHint !== true);
}

/** Everything needed to build one sluice tool. */
export interface AdaptInput {
  name: string;
  session: Session;
  listed: McpTool;
  view: PlannerView;
  sink: boolean;
  resultLabel: Label;
  override?: McpToolOverride;
  userPolicy?: Policy;
  timeoutMs: number;
  maxResultBytes: number;
  /** Why calls are refused right now, if they are. */
  refusal: () => string | undefined;
  onWarning: (message: string) => void;
}

/**
 * What the call layer should make of a failed request: a request timeout may be retried (for a
 * side effect only when the tool is idempotent: the server may have acted); a connection that
 * is gone, or anything else (a JSON-RPC error), is not.
 */
function callError(err: unknown, input: AdaptInput): McpToolError {
  const code = (err as { code?: unknown } | null)?.code;
  // A closed session is the server's end, started again (if at all) by the next call, not by a retry.
  const how = input.session.closedBecause !== undefined ? { retryable: false } : code === "REQUEST_TIMEOUT" ? { timedOut: true } : {};
  return new McpToolError(callErrorText(err, input), undefined, how);
}

/** The request's `_meta`: the call's trace context and idempotency key, when there are. */
function requestMeta(ctx: ToolContext | undefined): Record<string, string> {
  const meta: Record<string, string> = {};
  if (ctx?.traceparent !== undefined) meta.traceparent = ctx.traceparent;
  if (ctx?.idempotencyKey !== undefined) meta["sluice/idempotency-key"] = ctx.idempotencyKey;
  return meta;
}

/** The span attributes of a call to this tool: the session as it is now (a restart makes another). */
function traceAttributes(input: AdaptInput): Record<string, string | number> {
  const session = input.session;
  const t = session.server.transport;
  const url = t.kind === "http" ? t.url : undefined;
  const port = url === undefined ? undefined : url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return mcpToolAttributes({
    server: session.server.name,
    tool: input.listed.name,
    transport: t.kind === "http" ? "http" : "stdio",
    ...(session.protocolVersion !== undefined ? { protocolVersion: session.protocolVersion } : {}),
    ...(session.sessionId !== undefined ? { sessionId: session.sessionId } : {}),
    ...(url !== undefined ? { address: url.hostname, port: port! } : {}),
  });
}

function callErrorText(err: unknown, input: AdaptInput): string {
  const server = input.session.server.name;
  if (err instanceof RestartError) return err.message;
  if (input.session.closedBecause !== undefined) return input.session.closedBecause;
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  const message = typeof e?.message === "string" ? e.message : String(err);
  if (e?.code === "REQUEST_TIMEOUT") return `the MCP server ${server} did not answer within ${input.timeoutMs} ms`;
  if (e?.name === "AbortError") return `the call to the MCP server ${server} was cancelled`;
  if (typeof e?.code === "number") return `the MCP server ${server} answered with an error: ${message}`;
  return `the call to the MCP server ${server} failed: ${message}`;
}

function sizeOf(result: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(result) ?? "");
  } catch {
    return Infinity;
  }
}

/** The sluice tool for one MCP tool. */
export function adaptTool(input: AdaptInput): Tool {
  const server = input.session.server;
  let parameters = parametersOf(input.listed.inputSchema, input.view.schemaText);
  if (!compiles(parameters)) {
    input.onWarning(`${input.name}: the input schema of "${input.listed.name}" on server ${server.name} cannot be compiled; its arguments are passed unchecked`);
    parameters = { type: "object" };
  }
  let output = input.listed.outputSchema === undefined ? undefined : (cleanSchema(input.listed.outputSchema, input.view.schemaText) as JsonSchema);
  if (output !== undefined && !compiles(output)) {
    input.onWarning(`${input.name}: the output schema of "${input.listed.name}" on server ${server.name} cannot be compiled; the planner is not shown it`);
    output = undefined;
  }
  const policy = mcpToolPolicy({ server: server.name, principal: server.principal, sink: input.sink, user: input.userPolicy, named: input.override?.policy, refusal: input.refusal });
  const trusted = server.trust === "trusted";
  return defineTool({
    name: input.name,
    description: input.view.description,
    parameters,
    ...(output === undefined ? {} : { returns: output }),
    sideEffect: input.sink,
    // Only a trusted server's word that a repeat does nothing more lets a timed-out call be retried.
    idempotent: trusted && input.listed.annotations?.idempotentHint === true,
    label: () => input.resultLabel,
    // A schema no person reviewed is the server's text: messages quoting it are untrusted.
    schemaLabel: trusted || input.view.schemaText ? Label.trusted() : Label.untrusted(`mcp:${server.name}`),
    // The server's error text, JSON-RPC errors and its stderr are read by whoever reads its answers.
    failureLabel: input.resultLabel,
    // One breaker and bucket per server: its tools fail and are rate-limited together.
    resource: `mcp:${server.name}`,
    traceAttributes: () => traceAttributes(input),
    policy,
    run: async (args: Record<string, unknown>, ctx?: ToolContext) => {
      let result: unknown;
      try {
        result = await input.session.call(input.listed.name, args, input.timeoutMs, ctx?.signal, requestMeta(ctx));
      } catch (err) {
        throw callError(err, input);
      }
      const bytes = sizeOf(result);
      if (bytes > input.maxResultBytes) {
        throw new McpToolError(`the result of ${input.name} is ${bytes} bytes, more than the limit of ${input.maxResultBytes} bytes (maxResultBytes); ask for less, e.g. a smaller range or page`);
      }
      const { value, label } = resultValue(result, { server: server.name, trusted });
      return label === undefined ? value : labeled(value, label);
    },
  });
}
