/**
 * Pins: what each tool looked like when it was recorded (its name, description, input and
 * output schemas and annotations, and their sha256), kept in a JSON lock file. A tool that no
 * longer matches its pin (a rug pull) is refused until it is pinned again; the reason says which
 * parts changed, and the warning (for the person) how.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { canonicalJson } from "../policy/canonical.js";

/** The part of a tool definition a pin covers. */
export interface PinSubject {
  name: string;
  description: string;
  inputSchema: unknown;
  /** Shown to the planner once reviewed, so covered too (a pin made before it was is "changed" once). */
  outputSchema?: unknown;
  annotations?: unknown;
}

/** One pinned tool in the lock file. */
export interface PinnedTool {
  sha256: string;
  /** True when a person pinned it with `sluice mcp pin` (after being shown it). */
  reviewed: boolean;
  pinnedAt: string;
  tool: PinSubject;
}

/** The lock file: pinned tools by server, then by the server's tool name. */
export interface LockFile {
  version: 1;
  servers: Record<string, Record<string, PinnedTool>>;
}

/** A lock file that cannot be read. */
export class PinFileError extends Error {
  constructor(path: string, why: string) {
    super(`the pin file ${path} cannot be used: ${why}`);
    this.name = "PinFileError";
  }
}

/** What a pin covers, from a listed tool. */
export function pinSubject(tool: { name: string; description?: string; inputSchema?: unknown; outputSchema?: unknown; annotations?: unknown }): PinSubject {
  return {
    name: tool.name,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema ?? {},
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}

/** The sha256 of a pin subject's canonical JSON. */
export function pinHash(subject: PinSubject): string {
  return createHash("sha256").update(canonicalJson(subject)).digest("hex");
}

/** A pin entry for a tool as it is now. */
export function makePin(subject: PinSubject, reviewed: boolean, now = new Date()): PinnedTool {
  return { sha256: pinHash(subject), reviewed, pinnedAt: now.toISOString(), tool: subject };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A map keyed by names a server chose: no prototype, so `constructor` or `__proto__` is just a name. */
function table<T>(entries: Iterable<[string, T]> = []): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [k, v] of entries) out[k] = v;
  return out;
}

function emptyLock(): LockFile {
  return { version: 1, servers: table() };
}

/** The pin of a server's tool, if the lock file has one. */
export function pinOf(lock: LockFile, server: string, tool: string): PinnedTool | undefined {
  const tools = Object.hasOwn(lock.servers, server) ? lock.servers[server] : undefined;
  return tools !== undefined && Object.hasOwn(tools, tool) ? tools[tool] : undefined;
}

/** Records the pin of a server's tool. */
export function setPin(lock: LockFile, server: string, tool: string, pin: PinnedTool): void {
  if (!Object.hasOwn(lock.servers, server)) lock.servers[server] = table();
  lock.servers[server][tool] = pin;
}

/** Reads the lock file; a missing file is an empty one. */
export async function readLock(path: string): Promise<LockFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return emptyLock();
    throw new PinFileError(path, (err as Error).message);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new PinFileError(path, `it is not JSON (${(err as Error).message}); delete it to pin every tool anew`);
  }
  if (!isObject(data) || data.version !== 1 || !isObject(data.servers)) {
    throw new PinFileError(path, `expected { "version": 1, "servers": { ... } }`);
  }
  const lock = emptyLock();
  for (const [server, tools] of Object.entries(data.servers)) {
    if (!isObject(tools)) throw new PinFileError(path, `servers.${server} is not an object`);
    for (const [name, pin] of Object.entries(tools)) {
      if (!isObject(pin) || typeof pin.sha256 !== "string" || !isObject(pin.tool) || typeof pin.tool.name !== "string") throw new PinFileError(path, `servers.${server}.${name} is not a pin`);
      setPin(lock, server, name, pin as unknown as PinnedTool);
    }
  }
  return lock;
}

/** Writes the lock file whole (through a temporary file, so a crash never leaves half of one). */
export async function writeLock(path: string, lock: LockFile): Promise<void> {
  const sorted = emptyLock();
  for (const server of Object.keys(lock.servers).sort()) {
    sorted.servers[server] = table(Object.keys(lock.servers[server]).sort().map((t) => [t, lock.servers[server][t]]));
  }
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(sorted, null, 2) + "\n", "utf8");
  await rename(tmp, path);
}

function short(x: unknown, max = 160): string {
  const text = x === undefined ? "nothing" : typeof x === "string" ? JSON.stringify(x) : (JSON.stringify(x) ?? String(x));
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Every JSON path where `a` and `b` differ: `added`, `removed` or `old -> new`. */
function jsonChanges(a: unknown, b: unknown, path: string, out: string[]): void {
  if (canonicalJson(a ?? null) === canonicalJson(b ?? null)) return;
  if (isObject(a) && isObject(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const at = path === "" ? key : `${path}.${key}`;
      if (!(key in a)) out.push(`${at} added (${short(b[key])})`);
      else if (!(key in b)) out.push(`${at} removed (was ${short(a[key])})`);
      else jsonChanges(a[key], b[key], at, out);
    }
    return;
  }
  out.push(`${path || "(whole)"}: ${short(a)} -> ${short(b)}`);
}

function schemaChange(what: string, a: unknown, b: unknown): string | undefined {
  const changes: string[] = [];
  jsonChanges(a ?? {}, b ?? {}, "", changes);
  if (changes.length === 0) return undefined;
  return `the ${what} changed: ${changes.slice(0, 8).join("; ")}${changes.length > 8 ? `; and ${changes.length - 8} more` : ""}`;
}

/**
 * What changed between a pinned tool and the tool now, in words a person can check. It quotes
 * the new text, so it is for the person (warnings, `sluice mcp pin`), never for a policy reason.
 */
export function describeChange(pinned: PinSubject, now: PinSubject): string {
  const parts: string[] = [];
  if (pinned.description !== now.description) parts.push(`the description changed from ${short(pinned.description, 300)} to ${short(now.description, 300)}`);
  for (const part of [
    schemaChange("input schema", pinned.inputSchema, now.inputSchema),
    schemaChange("output schema", pinned.outputSchema, now.outputSchema),
    schemaChange("annotations", pinned.annotations, now.annotations),
  ]) {
    if (part !== undefined) parts.push(part);
  }
  return parts.length > 0 ? parts.join("; ") : "it changed";
}

/** Which parts changed, without quoting them: what a policy reason (read by a planner or a calling agent) may say. */
export function changedParts(pinned: PinSubject, now: PinSubject): string {
  const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
  const parts = [
    pinned.name !== now.name ? "name" : undefined,
    pinned.description !== now.description ? "description" : undefined,
    same(pinned.inputSchema, now.inputSchema) ? undefined : "input schema",
    same(pinned.outputSchema, now.outputSchema) ? undefined : "output schema",
    same(pinned.annotations, now.annotations) ? undefined : "annotations",
  ].filter((p): p is string => p !== undefined);
  if (parts.length === 0) return "it changed";
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `its ${list} changed`;
}
