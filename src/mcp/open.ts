/**
 * Opens every server of a configuration at once (one session each), with the options each
 * needs; stdio servers are wrapped so that one that crashes is started again on the next call.
 * If any server cannot be opened, the others are closed and the error names every one.
 */
import type { ResolvedServer } from "./config.js";
import { DEFAULT_RESTART, restartable, type RestartPolicy } from "./restart.js";
import { openSession, type Session, type SessionOptions } from "./session.js";
import type { McpOptions } from "./types.js";

/** Default longest wait for a server to start and list its tools. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Default largest result, in bytes of JSON. */
export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024;

/** What the connection needs to hear from its sessions. */
export interface OpenHooks {
  /** The server's tool listing changed (already re-listed). */
  onToolsChanged(server: ResolvedServer): void;
  /** Why a call of one of the server's tools is refused now, if it is (checked after a restart). */
  refusal(server: ResolvedServer, tool: string): string | undefined;
  warn(message: string): void;
}

function restartPolicy(server: ResolvedServer, options: McpOptions): RestartPolicy {
  return {
    ...DEFAULT_RESTART,
    maxRestarts: server.restarts ?? options.maxRestarts ?? DEFAULT_RESTART.maxRestarts,
    ...(options.restartDelayMs === undefined ? {} : { delayMs: options.restartDelayMs }),
  };
}

async function openOne(server: ResolvedServer, options: McpOptions, hooks: OpenHooks): Promise<Session> {
  const maxResult = server.maxResultBytes ?? options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const sessionOptions: SessionOptions = {
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    protocol: options.protocol ?? "auto",
    // A message somewhat over the result cap is read and refused with a clear error; a far larger one drops the connection.
    maxMessageBytes: Math.max(16 * 1024 * 1024, 4 * maxResult),
    // Over HTTP a message too large fails only its call, so the bound can sit just above the result cap (JSON escaping can double a text).
    maxHttpMessageBytes: Math.max(1024 * 1024, 2 * maxResult + 64 * 1024),
    onToolsChanged: () => hooks.onToolsChanged(server),
    onProblem: hooks.warn,
  };
  const first = await openSession(server, sessionOptions);
  // An HTTP server outlives its connection's troubles; a stdio server is a process sluice started.
  if (server.transport.kind !== "stdio") return first;
  return restartable(first, restartPolicy(server, options), {
    reopen: () => openSession(server, sessionOptions),
    refusal: (tool) => hooks.refusal(server, tool),
    onProblem: hooks.warn,
    // As after tools/list_changed: changes are reported, tools it now adds are taken up.
    onRestarted: () => hooks.onToolsChanged(server),
  });
}

/** Opens every server; closes the opened ones and throws when any cannot be opened. */
export async function openAll(servers: readonly ResolvedServer[], options: McpOptions, hooks: OpenHooks): Promise<Session[]> {
  const settled = await Promise.allSettled(servers.map((server) => openOne(server, options, hooks)));
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
  const opened = settled.filter((s): s is PromiseFulfilledResult<Session> => s.status === "fulfilled").map((s) => s.value);
  if (failed.length > 0) {
    await Promise.all(opened.map((s) => s.close()));
    const reasons = failed.map((f) => (f.reason instanceof Error ? f.reason.message : String(f.reason)));
    const error = failed[0].reason instanceof Error ? failed[0].reason : new Error(reasons[0]);
    if (reasons.length > 1) error.message = reasons.join("; ");
    throw error;
  }
  return opened;
}
