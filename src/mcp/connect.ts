/**
 * `connectMcp`: connects to every server of a configuration (one connection each, in
 * parallel), turns their tools into sluice tools with labels and policies, checks them against
 * the pins, and watches for tools that change while connected.
 */
import { resolve } from "node:path";
import type { Tool } from "../tools/types.js";
import { McpConfigError, PROTOCOLS, resolveMcpConfig, type ResolvedServer } from "./config.js";
import { addedEntries, build, checkPins, collect, flagShadowing, liveChange, refusalOf, seenKey, type Entry } from "./entries.js";
import { makePin, pinHash, pinSubject, readLock, setPin, writeLock, type LockFile } from "./pins.js";
import { openAll } from "./open.js";
import type { Session } from "./session.js";
import type { McpConfig, McpConnection, McpOptions, McpServerInfo, McpToolInfo } from "./types.js";

export { DEFAULT_TIMEOUT_MS } from "./entries.js";
export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_RESULT_BYTES } from "./open.js";

/** The most warnings a connection keeps and reports. */
export const MAX_WARNINGS = 1000;

function serverInfo(session: Session): McpServerInfo {
  const s = session.server;
  return {
    name: s.name,
    transport: s.transport.kind,
    trust: s.trust,
    principal: s.principal,
    readers: s.readers,
    ...(session.protocolVersion === undefined ? {} : { protocolVersion: session.protocolVersion }),
    ...(session.serverInfo === undefined ? {} : { serverInfo: session.serverInfo }),
    ...(session.pid === undefined ? {} : { pid: session.pid }),
  };
}

/** The options a configuration file cannot check, checked. */
function checkOptions(options: McpOptions): void {
  const problems: string[] = [];
  if (options.protocol !== undefined && !PROTOCOLS.includes(options.protocol)) {
    problems.push(`options.protocol: expected ${PROTOCOLS.map((p) => `"${p}"`).join(", ")}, got ${JSON.stringify(options.protocol)}`);
  }
  if (options.maxRestarts !== undefined && !(Number.isInteger(options.maxRestarts) && options.maxRestarts >= 0)) {
    problems.push(`options.maxRestarts: expected a whole number, 0 or more, got ${JSON.stringify(options.maxRestarts)}`);
  }
  if (options.restartDelayMs !== undefined && !(typeof options.restartDelayMs === "number" && options.restartDelayMs >= 0 && Number.isFinite(options.restartDelayMs))) {
    problems.push(`options.restartDelayMs: expected milliseconds, 0 or more, got ${JSON.stringify(options.restartDelayMs)}`);
  }
  if (problems.length > 0) throw new McpConfigError(problems, "the options of connectMcp");
}

/**
 * Connects to the servers of `config` and gives one sluice tool per MCP tool. Throws an
 * `McpConfigError` for a bad configuration, an `McpConnectError` naming the server when one
 * cannot be started or reached (after closing the others), a `PinFileError` for a broken lock file.
 */
export async function connectMcp(config: McpConfig, options: McpOptions = {}): Promise<McpConnection> {
  const baseDir = options.baseDir ?? process.cwd();
  checkOptions(options);
  const resolved = resolveMcpConfig(config, baseDir);
  const warnings: string[] = [];
  const warn = (message: string): void => {
    // A server that keeps changing its tools must not grow the host's memory (or a log) without end.
    if (warnings.length > MAX_WARNINGS) return;
    if (warnings.length === MAX_WARNINGS) message = `more than ${MAX_WARNINGS} warnings; the rest are dropped`;
    warnings.push(message);
    try {
      options.onWarning?.(message);
    } catch {
      // a failing listener must not break the connection
    }
  };
  resolved.warnings.forEach(warn);
  const pinsPath = options.pins === undefined ? undefined : resolve(baseDir, options.pins);
  const entries: Entry[] = [];
  /** Every tool considered so far, offered or not, so a re-listing adds only what is new. */
  const seen = new Set<string>();
  let sessions: Session[] = [];
  let tools: Tool[] = [];
  let toolInfo: McpToolInfo[] = [];
  let adding: Promise<void> = Promise.resolve();

  /** Tools a server added while connected, checked and built as at connect, for runtimes made from now on. */
  async function addTools(server: ResolvedServer): Promise<void> {
    const session = sessions.find((s) => s.server === server);
    if (session === undefined) return;
    const fresh = addedEntries(session, entries, seen, warn);
    if (fresh.length === 0) return;
    if (pinsPath !== undefined) await checkPins(fresh, pinsPath, options.recordNew !== false, warn);
    flagShadowing(fresh, warn, [...entries, ...fresh]);
    const built = build(fresh, options, pinsPath, warn);
    entries.push(...fresh);
    insertSorted(tools, built.tools);
    insertSorted(toolInfo, built.toolInfo);
    for (const e of fresh) {
      const state = e.pin === "changed" ? "its calls are refused: it differs from its pin" : e.pin === "unpinned" ? "not pinned" : `pin: ${e.pin}`;
      warn(`${e.name} was added by the MCP server ${server.name} while connected; it is offered to runtimes made from now on (${state})`);
    }
  }

  /** The change last reported for each tool, so a server that repeats itself is reported once per change. */
  const reported = new Map<string, string>();
  const onToolsChanged = (server: ResolvedServer): void => {
    for (const e of entries.filter((x) => x.server === server)) {
      const change = liveChange(e);
      if (change !== undefined && reported.get(e.name) !== change.key) warn(change.warning);
      if (change === undefined) reported.delete(e.name);
      else reported.set(e.name, change.key);
      const info = toolInfo.find((t) => t.name === e.name);
      if (info !== undefined && change === undefined) delete info.changedWhileConnected;
      else if (info !== undefined && change !== undefined) info.changedWhileConnected = change.warning;
    }
    adding = adding.then(() => addTools(server)).catch((err: unknown) => warn(`${server.name}: tools it added while connected could not be offered: ${err instanceof Error ? err.message : String(err)}`));
  };
  const refusalFor = (server: ResolvedServer, tool: string): string | undefined => {
    const e = entries.find((x) => x.server === server && x.listed.name === tool);
    return e === undefined ? undefined : refusalOf(e, pinsPath);
  };
  const opened = await openAll(resolved.servers, options, { onToolsChanged, refusal: refusalFor, warn });
  const closeAll = async (): Promise<void> => {
    await Promise.all(opened.map((s) => s.close()));
    await adding;
  };
  try {
    for (const session of opened) for (const t of session.tools) seen.add(seenKey(session.server.name, t.name));
    entries.push(...collect(opened, warn));
    if (pinsPath !== undefined) await checkPins(entries, pinsPath, options.recordNew !== false, warn);
    flagShadowing(entries, warn);
    ({ tools, toolInfo } = build(entries, options, pinsPath, warn));
    sessions = opened;
    // A tool added while the lock file was being checked is taken up now.
    for (const s of opened) onToolsChanged(s.server);
  } catch (err) {
    await closeAll();
    throw err;
  }

  async function pin(names?: readonly string[]): Promise<void> {
    if (pinsPath === undefined) throw new Error("pin(): connectMcp was called without options.pins, so there is no lock file to write");
    const lock: LockFile = await readLock(pinsPath);
    const chosen = names === undefined ? entries : entries.filter((e) => names.includes(e.name));
    const unknown = (names ?? []).filter((n) => !entries.some((e) => e.name === n));
    if (unknown.length > 0) throw new Error(`pin(): no tool is called ${unknown.join(", ")}`);
    // What is pinned is what the person was shown (toolInfo[].listed); a tool that has changed since is not pinned.
    const moved = chosen.filter((e) => {
      const now = e.session.tools.find((t) => t.name === e.listed.name);
      return now === undefined || pinHash(pinSubject(now)) !== e.hash;
    });
    if (moved.length > 0) {
      throw new Error(`pin(): ${moved.map((e) => e.name).join(", ")} changed or went away since it was shown, so nothing was pinned; connect again, look at it again, and pin it then`);
    }
    for (const e of chosen) {
      setPin(lock, e.server.name, e.listed.name, makePin(e.subject, true));
      if (e.pin !== "unpinned") e.pin = "reviewed";
      delete e.change;
      delete e.changed;
    }
    await writeLock(pinsPath, lock);
  }

  return {
    tools,
    toolInfo,
    // A getter: a restarted stdio server has a new process.
    get servers() {
      return opened.map(serverInfo);
    },
    warnings,
    pin,
    close: closeAll,
  };
}

/** Inserts `items` into `list` (sorted by name), keeping it sorted. */
function insertSorted<T extends { name: string }>(list: T[], items: readonly T[]): void {
  list.push(...items);
  list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
