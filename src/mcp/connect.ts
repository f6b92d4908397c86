/**
 * `connectMcp`: connects to every server of a configuration (one connection each, in
 * parallel), turns their tools into sluice tools with labels and policies, checks them against
 * the pins, and watches for tools that change while connected.
 */
import { resolve } from "node:path";
import type { Tool } from "../tools/types.js";
import { resolveMcpConfig, type ResolvedServer } from "./config.js";
import { adaptTool, isSink } from "./adapt.js";
import { namedTools, plannerView } from "./describe.js";
import { toolResultLabel } from "./labels.js";
import { nameTools } from "./names.js";
import { describeChange, makePin, pinHash, pinSubject, readLock, writeLock, type LockFile, type PinSubject } from "./pins.js";
import { openSession, type McpTool, type Session } from "./session.js";
import type { McpConfig, McpConnection, McpOptions, McpPinStatus, McpServerInfo, McpToolInfo } from "./types.js";

/** Default longest wait for one call. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default longest wait for a server to start and list its tools. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Default largest result, in bytes of JSON. */
export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024;

/** One tool while the connection is being put together. */
interface Entry {
  name: string;
  server: ResolvedServer;
  session: Session;
  listed: McpTool;
  subject: PinSubject;
  hash: string;
  pin: McpPinStatus;
  change?: string;
  flags: string[];
}

async function openAll(servers: readonly ResolvedServer[], options: McpOptions, onToolsChanged: (s: ResolvedServer) => void, warn: (m: string) => void): Promise<Session[]> {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const maxResult = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const settled = await Promise.allSettled(
    servers.map((server) =>
      openSession(server, {
        connectTimeoutMs,
        // A message somewhat over the result cap is read and refused with a clear error; a far larger one drops the connection.
        maxMessageBytes: Math.max(16 * 1024 * 1024, 4 * (server.maxResultBytes ?? maxResult)),
        onToolsChanged: () => onToolsChanged(server),
        onProblem: warn,
      }),
    ),
  );
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

function collect(sessions: readonly Session[], warn: (m: string) => void): Entry[] {
  const candidates: Array<{ server: string; tool: string; session: Session; listed: McpTool }> = [];
  for (const session of sessions) {
    const overrides = session.server.tools;
    const names = new Set(session.tools.map((t) => t.name));
    for (const key of Object.keys(overrides)) {
      if (!names.has(key)) warn(`mcpServers.${session.server.name}.tools names "${key}", but the server has no such tool`);
    }
    for (const listed of session.tools) {
      if (overrides[listed.name]?.disabled === true) continue;
      candidates.push({ server: session.server.name, tool: listed.name, session, listed });
    }
  }
  const { named, warnings } = nameTools(candidates);
  warnings.forEach(warn);
  return [...named.entries()].map(([name, c]) => {
    const subject = pinSubject(c.listed);
    return { name, server: c.session.server, session: c.session, listed: c.listed, subject, hash: pinHash(subject), pin: "unpinned", flags: [] };
  });
}

/** Checks every tool against the lock file, records the ones seen for the first time, and writes it back if anything was added. */
async function checkPins(entries: Entry[], path: string, record: boolean, warn: (m: string) => void): Promise<void> {
  const lock = await readLock(path);
  let added = false;
  for (const e of entries) {
    const pinned = lock.servers[e.server.name]?.[e.listed.name];
    if (pinned === undefined) {
      (lock.servers[e.server.name] ??= {})[e.listed.name] = makePin(e.subject, false);
      e.pin = "new";
      added = true;
    } else if (pinned.sha256 === e.hash) {
      e.pin = pinned.reviewed ? "reviewed" : "pinned";
    } else {
      e.pin = "changed";
      e.change = describeChange(pinned.tool, e.subject);
      warn(`${e.name} changed since it was pinned in ${path}: ${e.change}; its calls are denied until it is pinned again (sluice mcp pin)`);
    }
  }
  if (added && record) await writeLock(path, lock);
}

function flagShadowing(entries: Entry[], warn: (m: string) => void): void {
  for (const e of entries) {
    const others = entries.filter((o) => o.server.name !== e.server.name).map((o) => ({ name: o.name, tool: o.listed.name }));
    const named = namedTools(e.subject.description, e.listed.inputSchema, others);
    if (named.length > 0) {
      const flag = `its description or schema names other servers' tools (${named.join(", ")}), which can steer how they are used (shadowing); it is not shown to the planner`;
      e.flags.push(flag);
      warn(`${e.name}: ${flag}`);
    }
  }
}

/** Why an entry's calls are refused now: changed since pinned, or changed or removed while connected. */
function refusalOf(e: Entry, pinsPath: string | undefined): string | undefined {
  if (e.pin === "changed") {
    return `${e.name} changed since it was pinned in ${pinsPath}: ${e.change}. A person must review it and pin it again (sluice mcp pin) before it is used`;
  }
  const now = e.session.tools.find((t) => t.name === e.listed.name);
  if (now === undefined) return `${e.name} is no longer offered by the MCP server ${e.server.name} (it was removed while connected)`;
  const subject = pinSubject(now);
  if (pinHash(subject) !== e.hash) return `${e.name} changed while connected: ${describeChange(e.subject, subject)}. Connect again to see it, and pin it again if a lock file is used`;
  return undefined;
}

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

/**
 * Connects to the servers of `config` and gives one sluice tool per MCP tool. Throws an
 * `McpConfigError` for a bad configuration, an `McpConnectError` naming the server when one
 * cannot be started or reached (after closing the others), a `PinFileError` for a broken lock file.
 */
export async function connectMcp(config: McpConfig, options: McpOptions = {}): Promise<McpConnection> {
  const baseDir = options.baseDir ?? process.cwd();
  const resolved = resolveMcpConfig(config, baseDir);
  const warnings: string[] = [];
  const warn = (message: string): void => {
    warnings.push(message);
    try {
      options.onWarning?.(message);
    } catch {
      // a failing listener must not break the connection
    }
  };
  resolved.warnings.forEach(warn);
  const pinsPath = options.pins === undefined ? undefined : resolve(baseDir, options.pins);
  let entries: Entry[] = [];
  const onToolsChanged = (server: ResolvedServer): void => {
    for (const e of entries.filter((x) => x.server === server)) {
      const why = refusalOf({ ...e, pin: e.pin === "changed" ? "unpinned" : e.pin }, pinsPath);
      if (why !== undefined) warn(why);
    }
  };
  const sessions = await openAll(resolved.servers, options, onToolsChanged, warn);
  const closeAll = () => Promise.all(sessions.map((s) => s.close())).then(() => undefined);
  let tools: Tool[];
  let toolInfo: McpToolInfo[];
  try {
    entries = collect(sessions, warn);
    if (pinsPath !== undefined) await checkPins(entries, pinsPath, options.recordNew !== false, warn);
    flagShadowing(entries, warn);
    ({ tools, toolInfo } = build(entries, options, pinsPath, warn));
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
    for (const e of chosen) {
      const now = e.session.tools.find((t) => t.name === e.listed.name) ?? e.listed;
      (lock.servers[e.server.name] ??= {})[e.listed.name] = makePin(pinSubject(now), true);
      if (e.pin !== "unpinned") e.pin = "reviewed";
      delete e.change;
    }
    await writeLock(pinsPath, lock);
  }

  return { tools, toolInfo, servers: sessions.map(serverInfo), warnings, pin, close: closeAll };
}

function build(entries: readonly Entry[], options: McpOptions, pinsPath: string | undefined, warn: (m: string) => void): { tools: Tool[]; toolInfo: McpToolInfo[] } {
  const tools: Tool[] = [];
  const toolInfo: McpToolInfo[] = [];
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const override = e.server.tools[e.listed.name];
    const sink = isSink(e.server, e.listed, override);
    const resultLabel = toolResultLabel(e.server, override);
    const view = plannerView({
      server: e.server.name,
      trusted: e.server.trust === "trusted",
      serverDescription: e.subject.description,
      ...(override?.description === undefined ? {} : { configDescription: override.description }),
      pin: e.pin,
      flagged: e.flags.length > 0,
    });
    tools.push(
      adaptTool({
        name: e.name,
        session: e.session,
        listed: e.listed,
        view,
        sink,
        resultLabel,
        ...(override === undefined ? {} : { override }),
        ...(options.policies?.[e.name] === undefined ? {} : { userPolicy: options.policies[e.name] }),
        timeoutMs: e.server.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxResultBytes: e.server.maxResultBytes ?? options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
        refusal: () => refusalOf(e, pinsPath),
        onWarning: warn,
      }),
    );
    toolInfo.push({
      name: e.name,
      server: e.server.name,
      tool: e.listed.name,
      sink,
      resultLabel,
      pin: e.pin,
      ...(e.change === undefined ? {} : { change: e.change }),
      description: view.source,
      flags: [...e.flags],
      listed: {
        description: e.subject.description,
        inputSchema: (e.listed.inputSchema ?? {}) as Record<string, unknown>,
        ...(e.listed.outputSchema === undefined ? {} : { outputSchema: e.listed.outputSchema as Record<string, unknown> }),
        ...(e.listed.annotations === undefined ? {} : { annotations: e.listed.annotations as Record<string, unknown> }),
      },
    });
  }
  return { tools, toolInfo };
}
