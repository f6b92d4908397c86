/**
 * The tools of a connection while it is put together and kept: each server's tools named,
 * checked against the lock file, flagged when they name other servers' tools, and built into
 * sluice tools; and why a tool's calls are refused now.
 */
import type { Tool } from "../tools/types.js";
import type { ResolvedServer } from "./config.js";
import { adaptTool, isSink } from "./adapt.js";
import { invisibleIn, plannerView, shadowMatcher, type ShadowMatcher } from "./describe.js";
import { toolResultLabel } from "./labels.js";
import { nameTools } from "./names.js";
import { DEFAULT_MAX_RESULT_BYTES } from "./open.js";
import { changedParts, describeChange, makePin, pinHash, pinOf, pinSubject, readLock, setPin, writeLock, type PinSubject } from "./pins.js";
import { QUERY } from "../runtime/index.js";
import type { McpTool, Session } from "./session.js";
import type { McpOptions, McpPinStatus, McpToolInfo } from "./types.js";

/** Default longest wait for one call. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** One tool while the connection is being put together. */
export interface Entry {
  name: string;
  server: ResolvedServer;
  session: Session;
  listed: McpTool;
  subject: PinSubject;
  hash: string;
  pin: McpPinStatus;
  /** How it differs from its pin, quoting both (for the person). */
  change?: string;
  /** Which parts differ from its pin, quoting neither (for reasons). */
  changed?: string;
  flags: string[];
}

type Candidate = { server: string; tool: string; trusted: boolean; session: Session; listed: McpTool };

/** The most tools offered of one server: a listing of tens of thousands would stall the host and flood the planner's prompt. */
export const MAX_TOOLS_PER_SERVER = 1000;

/** The first {@link MAX_TOOLS_PER_SERVER} of `tools` given that `offered` are offered already, with a warning when some are left out. */
function capped<T>(server: string, tools: readonly T[], offered: number, warn: (m: string) => void): readonly T[] {
  const room = Math.max(0, MAX_TOOLS_PER_SERVER - offered);
  if (tools.length <= room) return tools;
  warn(`the MCP server ${server} lists ${offered + tools.length} tools, more than ${MAX_TOOLS_PER_SERVER}; only the first ${MAX_TOOLS_PER_SERVER} it listed are considered`);
  return tools.slice(0, room);
}

/** The longest tool name offered: a name is shown to the planner whoever wrote it, so it must not carry a paragraph. */
export const MAX_TOOL_NAME = 64;

/** Whether a listed tool may be offered at all (not disabled, a name of bounded length); warns when its name is refused. */
function admissible(session: Session, listed: McpTool, warn: (m: string) => void): boolean {
  const server = session.server;
  if (server.tools[listed.name]?.disabled === true) return false;
  if (listed.name.length <= MAX_TOOL_NAME) return true;
  warn(`a tool of the MCP server ${server.name} has a name of ${listed.name.length} characters, more than ${MAX_TOOL_NAME}; it is not offered (its name would reach the planner): "${listed.name.slice(0, 24)}…"`);
  return false;
}

/** Named candidates, without those whose sluice name is the quarantined model's (a warning each). */
function named(candidates: readonly Candidate[], warn: (m: string) => void): Array<[string, Candidate]> {
  const { named: all, warnings } = nameTools(candidates);
  warnings.forEach(warn);
  return [...all.entries()].filter(([name, c]) => {
    if (name !== QUERY) return true;
    warn(`"${c.tool}" of server ${c.server} would be called ${QUERY}, the name of the quarantined model; it is not offered (rename the server in the configuration)`);
    return false;
  });
}

function entryOf(name: string, c: Candidate): Entry {
  const subject = pinSubject(c.listed);
  return { name, server: c.session.server, session: c.session, listed: c.listed, subject, hash: pinHash(subject), pin: "unpinned", flags: [] };
}

/** Every server's tools, named; tools whose names collide are left out, with a warning. */
export function collect(sessions: readonly Session[], warn: (m: string) => void): Entry[] {
  const candidates: Candidate[] = [];
  for (const session of sessions) {
    const overrides = session.server.tools;
    const names = new Set(session.tools.map((t) => t.name));
    for (const key of Object.keys(overrides)) {
      if (!names.has(key)) warn(`mcpServers.${session.server.name}.tools names "${key}", but the server has no such tool`);
    }
    for (const listed of capped(session.server.name, session.tools, 0, warn)) {
      if (admissible(session, listed, warn)) candidates.push({ server: session.server.name, tool: listed.name, trusted: session.server.trust === "trusted", session, listed });
    }
  }
  return named(candidates, warn).map(([name, c]) => entryOf(name, c));
}

/**
 * The tools a server lists now that it did not list before (`seen` holds every tool already
 * considered, by server and name, and gains these), named; a name another tool already has is
 * left out, with a warning.
 */
export function addedEntries(session: Session, entries: readonly Entry[], seen: Set<string>, warn: (m: string) => void): Entry[] {
  const server = session.server;
  const known = session.tools.filter((t) => seen.has(seenKey(server.name, t.name))).length;
  const fresh = capped(server.name, session.tools.filter((t) => !seen.has(seenKey(server.name, t.name))), known, warn);
  fresh.forEach((t) => seen.add(seenKey(server.name, t.name)));
  const candidates = fresh.filter((t) => admissible(session, t, warn)).map((listed) => ({ server: server.name, tool: listed.name, trusted: server.trust === "trusted", session, listed }));
  const taken = new Set(entries.map((e) => e.name));
  const out: Entry[] = [];
  for (const [name, c] of named(candidates, warn)) {
    if (taken.has(name)) warn(`"${c.tool}" of server ${server.name}, added while connected, would be called ${name} like a tool already offered; it is not offered`);
    else out.push(entryOf(name, c));
  }
  return out;
}

/** The key of a tool in a `seen` set. */
export function seenKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

/** Checks every tool against the lock file, records the ones seen for the first time, and writes it back if anything was added. */
export async function checkPins(entries: Entry[], path: string, record: boolean, warn: (m: string) => void): Promise<void> {
  const lock = await readLock(path);
  let added = false;
  for (const e of entries) {
    const pinned = pinOf(lock, e.server.name, e.listed.name);
    if (pinned === undefined) {
      setPin(lock, e.server.name, e.listed.name, makePin(e.subject, false));
      e.pin = "new";
      added = true;
    } else if (pinned.sha256 === e.hash) {
      e.pin = pinned.reviewed ? "reviewed" : "pinned";
    } else {
      e.pin = "changed";
      e.change = describeChange(pinned.tool, e.subject);
      e.changed = changedParts(pinned.tool, e.subject);
      warn(`${e.name} changed since it was pinned in ${path}: ${e.change}; its calls are denied until it is pinned again (sluice mcp pin)`);
    }
  }
  if (added && record) await writeLock(path, lock);
}

/**
 * Flags each of `entries` whose description or schema names a tool of another server among
 * `among` (shadowing), or holds characters a person reviewing it would not see.
 */
export function flagShadowing(entries: Entry[], warn: (m: string) => void, among: readonly Entry[] = entries): void {
  // One matcher per server, of the other servers' tools: built once, not once per tool.
  const matchers = new Map<string, ShadowMatcher>();
  const matcherFor = (server: string): ShadowMatcher => {
    let m = matchers.get(server);
    if (m === undefined) {
      m = shadowMatcher(among.filter((o) => o.server.name !== server).map((o) => ({ name: o.name, tool: o.listed.name })));
      matchers.set(server, m);
    }
    return m;
  };
  for (const e of entries) {
    const hidden = invisibleIn(e.subject.description, [e.listed.inputSchema, e.listed.outputSchema, e.listed.name]);
    if (hidden.length > 0) {
      const flag = `its description or schema holds invisible characters (${hidden.join(", ")}), which a model reads and a person reviewing it does not see; it is not shown to the planner`;
      e.flags.push(flag);
      warn(`${e.name}: ${flag}`);
    }
    const named = matcherFor(e.server.name)(e.subject.description, [e.listed.inputSchema, e.listed.outputSchema]);
    if (named.length > 0) {
      const flag = `its description or schema names other servers' tools (${named.join(", ")}), which can steer how they are used (shadowing); it is not shown to the planner`;
      e.flags.push(flag);
      warn(`${e.name}: ${flag}`);
    }
  }
}

/** Why an entry's calls are refused now: changed since pinned, or changed or removed while connected. */
export function refusalOf(e: Entry, pinsPath: string | undefined): string | undefined {
  if (e.pin === "changed") {
    return `${e.name} changed since it was pinned in ${pinsPath}: ${e.changed ?? "it changed"}. A person must review it and pin it again (sluice mcp pin shows the change) before it is used`;
  }
  const now = e.session.tools.find((t) => t.name === e.listed.name);
  if (now === undefined) return `${e.name} is no longer offered by the MCP server ${e.server.name} (it was removed while connected)`;
  const subject = pinSubject(now);
  if (pinHash(subject) !== e.hash) return `${e.name} changed while connected: ${changedParts(e.subject, subject)}. Connect again to see it, and pin it again if a lock file is used`;
  return undefined;
}

/**
 * What the person is told when a tool changed or went away while connected, quoting the change,
 * and a key that is the same for the same change (a server that says so again and again is
 * reported once per change); undefined when it is as accepted.
 */
export function liveChange(e: Entry): { key: string; warning: string } | undefined {
  const now = e.session.tools.find((t) => t.name === e.listed.name);
  if (now === undefined) return { key: "removed", warning: `${e.name} is no longer offered by the MCP server ${e.server.name} (it was removed while connected)` };
  const subject = pinSubject(now);
  const hash = pinHash(subject);
  if (hash === e.hash) return undefined;
  return { key: hash, warning: `${e.name} changed while connected: ${describeChange(e.subject, subject)}; its calls are refused. Connect again to see it, and pin it again if a lock file is used` };
}

/** The sluice tools of `entries`, and what sluice made of each, sorted by name. */
export function build(entries: readonly Entry[], options: McpOptions, pinsPath: string | undefined, warn: (m: string) => void): { tools: Tool[]; toolInfo: McpToolInfo[] } {
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
