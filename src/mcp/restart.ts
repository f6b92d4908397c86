/**
 * A stdio server that crashed is started again on the next call: after a wait that doubles
 * with each restart, a bounded number of times. The call that found it dead fails with an
 * error that says so (and that it will be restarted); the restarted server's tools are
 * checked against what was accepted when sluice connected, so a server cannot change a tool
 * by crashing (the pins hold across restarts).
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Session } from "./session.js";

/** How restarts go. */
export interface RestartPolicy {
  /** How many times the server may be started again; 0: never. */
  maxRestarts: number;
  /** The wait before the first restart, counted from when the crash was seen; it doubles with each restart. */
  delayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
}

/** Default restarts of a crashed stdio server. */
export const DEFAULT_RESTART: RestartPolicy = { maxRestarts: 3, delayMs: 500, maxDelayMs: 8000 };

/** What the wrapper is told and asks. */
export interface RestartHooks {
  /** Starts the server again: spawn, handshake, tools/list. */
  reopen(): Promise<Session>;
  /** Why a call of `tool` must not go to the restarted server (it changed), if it must not. */
  refusal(tool: string): string | undefined;
  /** Reports a restart, or a failed one. */
  onProblem(message: string): void;
  /** Told after a restart: the new process's tools may differ from the old one's. */
  onRestarted?(): void;
}

/** Why a call found its server dead and could not go to a restarted one: the message is complete as it is. */
export class RestartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestartError";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `first`, restarted when it has crashed and a call comes. */
export function restartable(first: Session, policy: RestartPolicy, hooks: RestartHooks): Session {
  let current = first;
  let restarts = 0;
  let closed = false;
  /** When starting it again last failed; else the crash of `current` counts. */
  let failedAt: number | undefined;
  let restarting: Promise<void> | undefined;
  const name = first.server.name;

  const left = () => policy.maxRestarts - restarts;
  const note = (): string =>
    left() > 0
      ? `; sluice starts it again at the next call (restart ${restarts + 1} of ${policy.maxRestarts})`
      : policy.maxRestarts === 0
        ? ""
        : `; sluice gave up starting it again after ${policy.maxRestarts} restart${policy.maxRestarts === 1 ? "" : "s"}`;

  async function restart(): Promise<void> {
    const since = failedAt ?? current.closedAt ?? Date.now();
    const wait = Math.min(policy.maxDelayMs, policy.delayMs * 2 ** restarts) - (Date.now() - since);
    if (wait > 0) await sleep(wait);
    restarts += 1;
    let next: Session;
    try {
      next = await hooks.reopen();
    } catch (err) {
      // The dead session stays current, so the next call tries again while restarts are left.
      failedAt = Date.now();
      throw new RestartError(`${current.closedBecause}, and starting it again failed: ${err instanceof Error ? err.message : String(err)}${note()}`);
    }
    if (closed) {
      await next.close();
      throw new RestartError(`the connection to the MCP server ${name} was closed`);
    }
    current = next;
    failedAt = undefined;
    hooks.onProblem(`${name}: the MCP server was started again after it ended (restart ${restarts} of ${policy.maxRestarts})`);
    hooks.onRestarted?.();
  }

  return {
    server: first.server,
    get tools() {
      return current.tools;
    },
    get pid() {
      return current.pid;
    },
    get protocolVersion() {
      return current.protocolVersion;
    },
    get sessionId() {
      return current.sessionId;
    },
    get serverInfo() {
      return current.serverInfo;
    },
    get closedBecause() {
      const why = current.closedBecause;
      return why === undefined || closed ? why : `${why}${note()}`;
    },
    get closedAt() {
      return current.closedAt;
    },
    async call(tool, args, timeoutMs, signal, meta): Promise<CallToolResult> {
      if (!closed && current.closedBecause !== undefined) {
        if (left() <= 0) throw new Error(`${current.closedBecause}${note()}`);
        // Calls that find it dead together wait for one restart.
        restarting ??= restart().finally(() => (restarting = undefined));
        await restarting;
        const refused = hooks.refusal(tool);
        if (refused !== undefined) throw new RestartError(refused);
      }
      return current.call(tool, args, timeoutMs, signal, meta);
    },
    async close() {
      closed = true;
      await restarting?.catch(() => undefined);
      await current.close();
    },
  };
}
