/**
 * The shared types of sluice's MCP host: the configuration (the `mcpServers` shape MCP hosts
 * already use, plus sluice's `trust`, `readers`, `principal` and per-tool overrides), the
 * options of {@link connectMcp}, and what a connection gives back.
 */
import type { Label, Readers } from "../labels/index.js";
import type { Policy } from "../policy/index.js";
import type { Tool } from "../tools/types.js";

/** Whether a server's results may steer actions and whether its descriptions and annotations are believed. */
export type McpTrust = "trusted" | "untrusted";

/**
 * Ready policies a configuration file can name for a tool (a JSON file cannot hold a function):
 * - `"default"`: the MCP sink default: allowed when every argument and the context are trusted, else ask;
 * - `"strict"`: allowed when every argument and the context are trusted, else denied;
 * - `"ask"`: always ask a person; `"deny"`: never; `"allow"`: always (the user vouches for every call);
 * - the ready families `emailPolicy`, `messagePolicy`, `calendarInvitePolicy`, `fileSharePolicy`,
 *   `paymentPolicy`, `webRequestPolicy`, `outboundMessagePolicy` with their default options.
 *
 * Whatever the policy, an argument the server's principal may not read is refused, and a tool
 * that changed since it was pinned is denied.
 */
export type McpPolicyName =
  | "default"
  | "strict"
  | "ask"
  | "deny"
  | "allow"
  | "emailPolicy"
  | "messagePolicy"
  | "calendarInvitePolicy"
  | "fileSharePolicy"
  | "paymentPolicy"
  | "webRequestPolicy"
  | "outboundMessagePolicy";

/** What the configuration says about one of a server's tools, keyed by the server's own tool name. */
export interface McpToolOverride {
  /** A description the user vouches for: shown to the planner instead of the server's. */
  description?: string;
  /** True: a sink whatever the server says; false: read-only (the user vouches for it). */
  sideEffect?: boolean;
  /** Joined into the label of every result (it can only make results stricter). */
  labels?: { trusted?: boolean; readers?: Readers; sources?: string[] };
  /** A ready policy by name; `options.policies` (by sluice tool name) takes precedence. */
  policy?: McpPolicyName;
  /** True: the tool is not offered to programs at all. */
  disabled?: boolean;
}

/**
 * Which protocol revision to speak with a server: `"auto"` asks for 2026-07-28 and falls back
 * to the 2025 `initialize` handshake when the server does not offer it (on stdio the SDK asks
 * on a short-lived second process); `"legacy"` goes straight to the 2025 handshake (one
 * process, for servers known to be older); `"2026-07-28"` insists on that revision.
 */
export type McpProtocol = "auto" | "legacy" | "2026-07-28";

/** One server: stdio (`command`, …) or Streamable HTTP (`url`, …), plus sluice's keys. */
export interface McpServerConfig {
  /** stdio: the executable that starts the server. */
  command?: string;
  /** stdio: its arguments. */
  args?: string[];
  /** stdio: its environment. Without it, only the SDK's safe defaults (PATH, HOME, …) are passed. */
  env?: Record<string, string>;
  /** stdio: its working directory (relative to the configuration file). Default: the configuration's folder (`options.baseDir`). */
  cwd?: string;
  /** Streamable HTTP: the endpoint, e.g. `http://127.0.0.1:8123/mcp`. */
  url?: string;
  /** Streamable HTTP: extra request headers (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** As other hosts write it: `"stdio"`, `"http"` or `"streamable-http"`; inferred when absent. */
  type?: "stdio" | "http" | "streamable-http";
  /** Default `"untrusted"`. */
  trust?: McpTrust;
  /** Who may read what the server returns. Default `"public"`. */
  readers?: Readers;
  /** Who reads what is sent to the server. Default `"mcp:" + name`. */
  principal?: string;
  /** Per-tool overrides, keyed by the server's own tool name. */
  tools?: Record<string, McpToolOverride>;
  /** Longest wait for one call, in milliseconds. Default: `options.timeoutMs`. */
  timeoutMs?: number;
  /** Largest result accepted, in bytes of JSON. Default: `options.maxResultBytes`. */
  maxResultBytes?: number;
  /** The protocol revision to speak. Default: `options.protocol`, else `"auto"`. */
  protocol?: McpProtocol;
  /** stdio: how many times a server that crashed is started again (at the next call). Default: `options.maxRestarts`, else 3. */
  restarts?: number;
  /** True: the server is skipped. */
  disabled?: boolean;
}

/** The configuration: the `mcpServers` object MCP hosts keep, and optional permission rules. */
export interface McpConfig {
  mcpServers: Record<string, McpServerConfig>;
  /**
   * Permission rules over sluice tool names (`"allow files_read_text_file"`), for the CLI's
   * permission engine; the library leaves them to `createRuntime({ permissions })`.
   */
  permissions?: string[];
}

/** Options of {@link connectMcp}. */
export interface McpOptions {
  /** The user's own policies, keyed by sluice tool name (`files_write_file`). */
  policies?: Record<string, Policy>;
  /**
   * The lock file of pinned tools. The first connection records every tool; a later one that
   * finds a tool changed denies its calls, with the change in the reason, until it is pinned again.
   */
  pins?: string;
  /** False: tools seen for the first time are not written to the lock file (a read-only look). Default true. */
  recordNew?: boolean;
  /** Longest wait for one call, in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** Longest wait for a server to start and answer the handshake and tools/list. Default 30,000. */
  connectTimeoutMs?: number;
  /** Largest result accepted, in bytes of JSON; a larger one is an error the program can catch. Default 4 MiB. */
  maxResultBytes?: number;
  /** The protocol revision to speak with servers whose entry does not say. Default `"auto"`. */
  protocol?: McpProtocol;
  /**
   * How many times a stdio server that crashed is started again, at the next call after the
   * crash (the call that found it dead fails with an error that says so). Its tools are checked
   * against what was accepted at connect: a tool that changed is refused. Default 3; 0: never.
   */
  maxRestarts?: number;
  /** The wait before the first restart, counted from the crash; it doubles with each restart (at most 8 s). Default 500. */
  restartDelayMs?: number;
  /** Directory that relative `cwd`s and the pins path are resolved against. Default `process.cwd()`. */
  baseDir?: string;
  /** Called with each warning (a flagged description, a name collision, a changed tool). */
  onWarning?: (message: string) => void;
}

/** Where a tool stands against the lock file. */
export type McpPinStatus =
  /** It matches the lock file and a person reviewed it with `sluice mcp pin`. */
  | "reviewed"
  /** It matches what an earlier connection recorded automatically; no person has reviewed it. */
  | "pinned"
  /** First seen now; recorded automatically. */
  | "new"
  /** It differs from the lock file: its calls are denied until it is pinned again. */
  | "changed"
  /** No lock file is in use. */
  | "unpinned";

/** What sluice made of one MCP tool. */
export interface McpToolInfo {
  /** The sluice tool name programs call: `<server>_<tool>`, sanitised. */
  name: string;
  /** The server's name in the configuration. */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** True when calls are sinks (not read-only by a trusted server's word or the user's). */
  sink: boolean;
  /** The label every result carries at least. */
  resultLabel: Label;
  /** Where it stands against the lock file. */
  pin: McpPinStatus;
  /** The change, when `pin` is `"changed"`. */
  change?: string;
  /** Set when the server changed or removed the tool while connected (its calls are refused): what changed. */
  changedWhileConnected?: string;
  /** Which description the planner sees: the server's, the configuration's, or none. */
  description: "server" | "config" | "none";
  /** Warnings about the tool, e.g. a description naming another server's tools. */
  flags: string[];
  /** The server's description and input schema as listed (for `sluice mcp pin` to show). */
  listed: { description: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown>; annotations?: Record<string, unknown> };
}

/** One connected server. */
export interface McpServerInfo {
  name: string;
  transport: "stdio" | "http";
  trust: McpTrust;
  principal: string;
  readers: Readers;
  /** The protocol revision negotiated, e.g. `"2026-07-28"` or `"2025-11-25"`. */
  protocolVersion?: string;
  /** The server's own name and version, as it reports them (not checked). */
  serverInfo?: { name: string; version: string };
  /** The child process id, for stdio servers. */
  pid?: number;
}

/** What {@link connectMcp} gives back. */
export interface McpConnection {
  /** One sluice tool per MCP tool, sorted by name; hand them to `createRuntime({ tools })`. */
  readonly tools: Tool[];
  /** What sluice made of each tool, sorted by name. */
  readonly toolInfo: McpToolInfo[];
  /** The servers connected, as they are now (a restarted stdio server has a new `pid`). */
  readonly servers: McpServerInfo[];
  /** Every warning so far. */
  readonly warnings: string[];
  /**
   * Records every tool as it is now in the lock file, reviewed by a person (what `sluice mcp
   * pin` does after showing them). Without `names`, every tool; else the sluice tool names given.
   */
  pin(names?: readonly string[]): Promise<void>;
  /** Ends every connection; stdio servers' processes are gone when it resolves. */
  close(): Promise<void>;
}

/** The signature of `connectMcp` (in `src/mcp/connect.ts`), for code that only needs the type. */
export type ConnectMcp = (config: McpConfig, options?: McpOptions) => Promise<McpConnection>;
