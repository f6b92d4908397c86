/**
 * One connection to one MCP server through the official client SDK: stdio (a child process)
 * or Streamable HTTP. It negotiates the 2026-07-28 revision and falls back to the older
 * handshake, keeps the server's current tool listing (re-listed on `tools/list_changed`),
 * calls tools with a time limit, and remembers why the connection ended, so a dead server
 * is an error that says what happened.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool as McpTool } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { ResolvedServer } from "./config.js";
import { cappedFetch } from "./http-cap.js";
import { checkableOutput } from "./schema.js";
import type { McpProtocol } from "./types.js";

export type { McpTool };

/** Name and version sluice gives servers. */
export const CLIENT_INFO = { name: "sluice", version: "0.1.0" };

/** Settings of one session. */
export interface SessionOptions {
  connectTimeoutMs: number;
  /** The revision to speak when the server's entry does not say. */
  protocol: McpProtocol;
  /** Largest single message accepted from a stdio server before the connection is dropped. */
  maxMessageBytes: number;
  /** The largest message read from an HTTP server (default `maxMessageBytes`): there, one too large fails its call, not the connection. */
  maxHttpMessageBytes?: number;
  /** Called when the server's tool listing changed (already re-listed). */
  onToolsChanged?: (tools: McpTool[]) => void;
  /** Called when something goes wrong on the connection (malformed messages, a lost server). */
  onProblem?: (message: string) => void;
}

/** An open connection. */
export interface Session {
  readonly server: ResolvedServer;
  /** The tools as last listed. */
  readonly tools: McpTool[];
  readonly pid?: number;
  readonly protocolVersion?: string;
  /** The Streamable HTTP session (`Mcp-Session-Id`), when the server gave one. */
  readonly sessionId?: string;
  readonly serverInfo?: { name: string; version: string };
  /** Why the connection ended, when it did; calls fail with this. */
  readonly closedBecause?: string;
  /** When it ended (milliseconds since the epoch). */
  readonly closedAt?: number;
  /** Calls a tool; `meta` goes as the request's `_meta` (trace context, idempotency key). */
  call(name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal, meta?: Record<string, string>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A server that could not be started or reached. */
export class McpConnectError extends Error {
  constructor(server: string, why: string) {
    super(`could not connect to the MCP server ${server}: ${why}`);
    this.name = "McpConnectError";
  }
}

const STDERR_LINES = 8;

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function gone(pid: number | undefined, ms: number): Promise<void> {
  if (pid === undefined) return;
  const until = Date.now() + ms;
  while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  if (alive(pid)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * The SDK's stdio transport, probing in place: for the base class the SDK asks a pinned or
 * "auto" revision on a short-lived second process (so a server that exits on the unknown
 * request is merely old), but it probes subclasses on the session's own process. A server
 * pinned to 2026-07-28 must answer the probe anyway, so it gets one process, not two.
 */
class InPlaceProbeStdioTransport extends StdioClientTransport {}

function makeTransport(server: ResolvedServer, options: SessionOptions, stderr: string[], onOversize: (message: string) => void) {
  const t = server.transport;
  if (t.kind === "http") {
    const max = options.maxHttpMessageBytes ?? options.maxMessageBytes;
    const tooLarge = () => `the MCP server ${server.name} sent a message of more than ${max} bytes; sluice stopped reading it (maxResultBytes)`;
    return new StreamableHTTPClientTransport(t.url, { requestInit: { headers: t.headers }, fetch: cappedFetch(max, tooLarge, onOversize) });
  }
  const Transport = (server.protocol ?? options.protocol) === "auto" ? StdioClientTransport : InPlaceProbeStdioTransport;
  const transport = new Transport({
    command: t.command,
    args: t.args,
    ...(t.env === undefined ? {} : { env: t.env }),
    ...(t.cwd === undefined ? {} : { cwd: t.cwd }),
    stderr: "pipe",
    maxBufferSize: options.maxMessageBytes,
  });
  // Kept for error messages only: a crashing server usually says why on stderr.
  transport.stderr?.on("data", stderrLines(stderr));
  return transport;
}

/**
 * The tool definition the SDK checks a call against, always given so it never falls back to
 * the raw cached listing: the listed tool with its output schema reduced to structure.
 */
function definitionFor(tools: readonly McpTool[], name: string): McpTool {
  const listed = tools.find((t) => t.name === name) ?? { name, inputSchema: { type: "object" as const } };
  const { outputSchema, ...rest } = listed;
  const checkable = checkableOutput(outputSchema);
  return (checkable === undefined ? rest : { ...rest, outputSchema: checkable }) as McpTool;
}

/** The longest stderr line kept; the rest of a longer one is dropped until its newline. */
const STDERR_LINE = 300;

/**
 * A stderr listener that keeps the last lines, each cut at {@link STDERR_LINE} characters: only
 * the new chunk is scanned and at most one short partial line is held, so a server that writes
 * without end, with or without newlines, costs neither memory nor time beyond that.
 */
export function stderrLines(stderr: string[]): (chunk: Buffer | string) => void {
  let partial = "";
  let dropping = false;
  return (chunk) => {
    const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      const piece = text.slice(start, nl === -1 ? Math.min(text.length, start + STDERR_LINE + 1) : Math.min(nl, start + STDERR_LINE + 1));
      if (!dropping) partial = (partial + piece).slice(0, STDERR_LINE + 1);
      if (nl === -1) {
        if (partial.length > STDERR_LINE) dropping = true;
        break;
      }
      if (partial.trim() !== "") stderr.push(partial.slice(0, STDERR_LINE));
      partial = "";
      dropping = false;
      start = nl + 1;
    }
    if (stderr.length > STDERR_LINES) stderr.splice(0, stderr.length - STDERR_LINES);
  };
}

function stderrTail(stderr: string[]): string {
  return stderr.length === 0 ? "" : ` (its last output on stderr: ${stderr.slice(-3).join(" | ")})`;
}

function negotiation(protocol: McpProtocol): "auto" | "legacy" | { pin: string } {
  return protocol === "auto" || protocol === "legacy" ? protocol : { pin: protocol };
}

/** Starts or reaches the server, does the handshake and lists its tools. */
export async function openSession(server: ResolvedServer, options: SessionOptions): Promise<Session> {
  const stderr: string[] = [];
  let closedBecause: string | undefined;
  let closedAt: number | undefined;
  let closing = false;
  let connected = false;
  let tools: McpTool[] = [];
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: negotiation(server.protocol ?? options.protocol), probe: { timeoutMs: Math.min(options.connectTimeoutMs, 10_000) } },
    listChanged: {
      tools: {
        // A burst of notifications is one re-listing; a flood of them costs one listing per 100 ms.
        debounceMs: 100,
        onChanged: (error, listed) => {
          if (error) options.onProblem?.(`${server.name}: re-listing its tools after a change failed: ${errorText(error)}`);
          else if (listed) {
            tools = listed;
            options.onToolsChanged?.(listed);
          }
        },
      },
    },
  });
  client.onerror = (err) => {
    if (connected) options.onProblem?.(`${server.name}: ${errorText(err)}`);
  };
  client.onclose = () => {
    if (!closing && closedBecause === undefined) {
      closedAt = Date.now();
      closedBecause = `the connection to the MCP server ${server.name} ended (the server exited or crashed)${stderrTail(stderr)}`;
      // Before the handshake is done, the connect error says it.
      if (connected) options.onProblem?.(closedBecause);
    }
  };
  /** Why the last HTTP answer was cut off, for the call that was waiting for it. */
  let oversize: string | undefined;
  /** Calls waiting for an answer: one cut off may be any of theirs, and the SDK would wait for it until the timeout. */
  const waiting = new Set<AbortController>();
  const transport = makeTransport(server, options, stderr, (message) => {
    oversize = message;
    for (const c of waiting) c.abort(new Error(message));
  });
  try {
    await client.connect(transport, { timeout: options.connectTimeoutMs });
    tools = (await client.listTools(undefined, { timeout: options.connectTimeoutMs, cacheMode: "refresh" })).tools;
    connected = true;
  } catch (err) {
    closing = true;
    const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    await client.close().catch(() => undefined);
    await gone(pid, 2000);
    const protocol = server.protocol ?? options.protocol;
    const hint = protocol === "2026-07-28" ? ` (its protocol is pinned to 2026-07-28; "auto" falls back to the 2025 handshake for servers that do not offer it)` : "";
    throw new McpConnectError(server.name, `${errorText(err)}${hint}${stderrTail(stderr)}`);
  }
  const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  const version = client.getServerVersion();
  return {
    server,
    get tools() {
      return tools;
    },
    pid,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    get sessionId() {
      const id = (transport as { sessionId?: unknown }).sessionId;
      return typeof id === "string" ? id : undefined;
    },
    ...(version === undefined ? {} : { serverInfo: { name: version.name, version: version.version } }),
    get closedBecause() {
      return closedBecause;
    },
    get closedAt() {
      return closedAt;
    },
    async call(name, args, timeoutMs, signal, meta) {
      if (closedBecause !== undefined) throw new Error(closedBecause);
      oversize = undefined;
      const mine = new AbortController();
      waiting.add(mine);
      const both = signal === undefined ? mine.signal : AbortSignal.any([signal, mine.signal]);
      try {
        return (await client.callTool(
          { name, arguments: args, ...(meta === undefined || Object.keys(meta).length === 0 ? {} : { _meta: meta }) },
          { timeout: timeoutMs, maxTotalTimeout: timeoutMs, signal: both, toolDefinition: definitionFor(tools, name) },
        )) as CallToolResult;
      } catch (err) {
        const cut = mine.signal.aborted ? (mine.signal.reason as Error).message : oversize;
        if (cut !== undefined) throw new Error(cut);
        throw err;
      } finally {
        waiting.delete(mine);
      }
    },
    async close() {
      if (closing) return;
      closing = true;
      closedBecause ??= `the connection to the MCP server ${server.name} was closed`;
      await client.close().catch(() => undefined);
      await gone(pid, 5000);
    },
  };
}
