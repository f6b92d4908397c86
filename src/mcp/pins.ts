/**
 * Pins: what each tool looked like when it was recorded (its name, description, input schema
 * and annotations, and their sha256), kept in a JSON lock file. A tool that no longer matches
 * its pin (a rug pull) is refused until it is pinned again; the reason says what changed.
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
export function pinSubject(tool: { name: string; description?: string; inputSchema?: unknown; annotations?: unknown }): PinSubject {
  return {
    name: tool.name,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema ?? {},
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

/** Reads the lock file; a missing file is an empty one. */
export async function readLock(path: string): Promise<LockFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
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
  for (const [server, tools] of Object.entries(data.servers)) {
    if (!isObject(tools)) throw new PinFileError(path, `servers.${server} is not an object`);
    for (const [name, pin] of Object.entries(tools)) {
      if (!isObject(pin) || typeof pin.sha256 !== "string" || !isObject(pin.tool)) throw new PinFileError(path, `servers.${server}.${name} is not a pin`);
    }
  }
  return data as unknown as LockFile;
}

/** Writes the lock file whole (through a temporary file, so a crash never leaves half of one). */
export async function writeLock(path: string, lock: LockFile): Promise<void> {
  const sorted: LockFile = { version: 1, servers: {} };
  for (const server of Object.keys(lock.servers).sort()) {
    sorted.servers[server] = Object.fromEntries(Object.keys(lock.servers[server]).sort().map((t) => [t, lock.servers[server][t]]));
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

/** What changed between a pinned tool and the tool now, in words a person can check. */
export function describeChange(pinned: PinSubject, now: PinSubject): string {
  const parts: string[] = [];
  if (pinned.description !== now.description) parts.push(`the description changed from ${short(pinned.description, 300)} to ${short(now.description, 300)}`);
  const schema: string[] = [];
  jsonChanges(pinned.inputSchema, now.inputSchema, "", schema);
  if (schema.length > 0) parts.push(`the input schema changed: ${schema.slice(0, 8).join("; ")}${schema.length > 8 ? `; and ${schema.length - 8} more` : ""}`);
  const notes: string[] = [];
  jsonChanges(pinned.annotations ?? {}, now.annotations ?? {}, "", notes);
  if (notes.length > 0) parts.push(`the annotations changed: ${notes.join("; ")}`);
  return parts.length > 0 ? parts.join("; ") : "it changed";
}
