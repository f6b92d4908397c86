/**
 * The MCP configuration, checked: the `mcpServers` shape other MCP hosts keep, plus sluice's
 * `trust`, `readers`, `principal` and per-tool overrides. Every mistake is reported at once,
 * each naming the key (`mcpServers.files.trust`) and what is expected there. Keys other hosts
 * use and sluice does not (`autoApprove`, `alwaysAllow`, …) are ignored with a warning, so an
 * existing file works as it is.
 */
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import type { Readers } from "../labels/index.js";
import type { McpConfig, McpPolicyName, McpProtocol, McpServerConfig, McpToolOverride, McpTrust } from "./types.js";

/** A configuration that cannot be used: every problem, one per line. */
export class McpConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[], where = "the MCP configuration") {
    super(`${where} is not valid: ${problems.join("; ")}`);
    this.name = "McpConfigError";
    this.problems = problems;
  }
}

/** How to reach a server. */
export type McpTransportConfig =
  | { kind: "stdio"; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: "http"; url: URL; headers: Record<string, string> };

/** One server after checking, defaults filled in. */
export interface ResolvedServer {
  name: string;
  transport: McpTransportConfig;
  trust: McpTrust;
  readers: Readers;
  principal: string;
  tools: Record<string, McpToolOverride>;
  timeoutMs?: number;
  maxResultBytes?: number;
  protocol?: McpProtocol;
  restarts?: number;
}

/** A checked configuration. */
export interface ResolvedConfig {
  servers: ResolvedServer[];
  permissions: string[];
  warnings: string[];
}

/** The policy names a configuration may use; see {@link McpPolicyName}. */
export const POLICY_NAMES: readonly McpPolicyName[] = [
  "default", "strict", "ask", "deny", "allow",
  "emailPolicy", "messagePolicy", "calendarInvitePolicy", "fileSharePolicy", "paymentPolicy", "webRequestPolicy", "outboundMessagePolicy",
];

const SERVER_KEYS = new Set(["command", "args", "env", "cwd", "url", "headers", "type", "trust", "readers", "principal", "tools", "timeoutMs", "maxResultBytes", "protocol", "restarts", "disabled"]);
/** The values of a server's `protocol`. */
export const PROTOCOLS: readonly McpProtocol[] = ["auto", "legacy", "2026-07-28"];
const TOOL_KEYS = new Set(["description", "sideEffect", "labels", "policy", "disabled"]);
const LABEL_KEYS = new Set(["trusted", "readers", "sources"]);
const SERVER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

type Json = Record<string, unknown>;

function isObject(x: unknown): x is Json {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function shown(x: unknown): string {
  if (x === undefined) return "nothing";
  const text = JSON.stringify(x) ?? String(x);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function keyPath(base: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** Collects problems and warnings while one configuration is checked. */
class Checker {
  readonly problems: string[] = [];
  readonly warnings: string[] = [];

  expect(path: string, what: string, got: unknown): undefined {
    this.problems.push(`${path}: expected ${what}, got ${shown(got)}`);
    return undefined;
  }

  string(path: string, x: unknown, optional = true): string | undefined {
    if (x === undefined && optional) return undefined;
    if (typeof x === "string" && x.trim() !== "") return x;
    return this.expect(path, "a non-empty string", x);
  }

  strings(path: string, x: unknown): string[] | undefined {
    if (x === undefined) return undefined;
    if (Array.isArray(x) && x.every((s) => typeof s === "string")) return x as string[];
    return this.expect(path, "an array of strings", x);
  }

  stringMap(path: string, x: unknown): Record<string, string> | undefined {
    if (x === undefined) return undefined;
    if (isObject(x) && Object.values(x).every((v) => typeof v === "string")) return x as Record<string, string>;
    return this.expect(path, "an object of string values", x);
  }

  count(path: string, x: unknown): number | undefined {
    if (x === undefined) return undefined;
    if (typeof x === "number" && Number.isInteger(x) && x >= 0) return x;
    return this.expect(path, "a whole number, 0 or more", x);
  }

  positive(path: string, x: unknown): number | undefined {
    if (x === undefined) return undefined;
    if (typeof x === "number" && Number.isFinite(x) && x > 0) return x;
    return this.expect(path, "a positive number", x);
  }

  boolean(path: string, x: unknown): boolean | undefined {
    if (x === undefined || typeof x === "boolean") return x as boolean | undefined;
    return this.expect(path, "true or false", x);
  }

  readers(path: string, x: unknown): Readers | undefined {
    if (x === undefined) return undefined;
    if (x === "public") return "public";
    if (Array.isArray(x) && x.every((r) => typeof r === "string" && r !== "")) return x as string[];
    return this.expect(path, `"public" or an array of principals (e.g. ["me"])`, x);
  }

  unknownKeys(path: string, x: Json, known: Set<string>): void {
    for (const key of Object.keys(x)) if (!known.has(key)) this.warnings.push(`${keyPath(path, key)} is not a key sluice knows; it is ignored`);
  }
}

function checkLabels(c: Checker, path: string, x: unknown): McpToolOverride["labels"] {
  if (x === undefined) return undefined;
  if (!isObject(x)) return c.expect(path, "an object with trusted, readers and/or sources", x);
  c.unknownKeys(path, x, LABEL_KEYS);
  const trusted = c.boolean(`${path}.trusted`, x.trusted);
  const readers = c.readers(`${path}.readers`, x.readers);
  const sources = c.strings(`${path}.sources`, x.sources);
  return { ...(trusted === undefined ? {} : { trusted }), ...(readers === undefined ? {} : { readers }), ...(sources === undefined ? {} : { sources }) };
}

function checkTool(c: Checker, path: string, x: unknown): McpToolOverride | undefined {
  if (!isObject(x)) return c.expect(path, "an object (description, sideEffect, labels, policy, disabled)", x);
  c.unknownKeys(path, x, TOOL_KEYS);
  const out: McpToolOverride = {};
  const description = c.string(`${path}.description`, x.description);
  if (description !== undefined) out.description = description;
  const sideEffect = c.boolean(`${path}.sideEffect`, x.sideEffect);
  if (sideEffect !== undefined) out.sideEffect = sideEffect;
  const labels = checkLabels(c, `${path}.labels`, x.labels);
  if (labels !== undefined) out.labels = labels;
  if (x.policy !== undefined) {
    if (typeof x.policy === "string" && (POLICY_NAMES as readonly string[]).includes(x.policy)) out.policy = x.policy as McpPolicyName;
    else c.expect(`${path}.policy`, `one of ${POLICY_NAMES.map((n) => `"${n}"`).join(", ")}`, x.policy);
  }
  const disabled = c.boolean(`${path}.disabled`, x.disabled);
  if (disabled !== undefined) out.disabled = disabled;
  return out;
}

function checkTools(c: Checker, path: string, x: unknown): Record<string, McpToolOverride> {
  // Keyed by names a server chose: no prototype, so a tool called `constructor` has no override.
  const out = Object.create(null) as Record<string, McpToolOverride>;
  if (x === undefined) return out;
  if (!isObject(x)) {
    c.expect(path, "an object keyed by the server's tool names", x);
    return out;
  }
  for (const [name, entry] of Object.entries(x)) {
    const tool = checkTool(c, keyPath(path, name), entry);
    if (tool !== undefined) out[name] = tool;
  }
  return out;
}

function checkUrl(c: Checker, path: string, x: unknown): URL | undefined {
  const text = c.string(path, x, false);
  if (text === undefined) return undefined;
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
    // reported below
  }
  return c.expect(path, "an http:// or https:// URL, e.g. http://127.0.0.1:8123/mcp", x);
}

function checkTransport(c: Checker, path: string, x: Json, baseDir: string): McpTransportConfig | undefined {
  const hasCommand = x.command !== undefined;
  const hasUrl = x.url !== undefined;
  if (x.type !== undefined && !["stdio", "http", "streamable-http"].includes(x.type as string)) {
    c.expect(`${path}.type`, `"stdio", "http" or "streamable-http" (sluice does not speak the old SSE transport)`, x.type);
  }
  if (hasCommand === hasUrl) {
    c.problems.push(`${path}: give either "command" (a stdio server) or "url" (a Streamable HTTP server)${hasCommand ? ", not both" : ""}`);
    return undefined;
  }
  if (hasUrl) {
    for (const key of ["args", "env", "cwd"]) if (x[key] !== undefined) c.problems.push(`${path}.${key}: only stdio servers (with "command") take ${key}`);
    const url = checkUrl(c, `${path}.url`, x.url);
    const headers = c.stringMap(`${path}.headers`, x.headers) ?? {};
    return url === undefined ? undefined : { kind: "http", url, headers };
  }
  if (x.headers !== undefined) c.problems.push(`${path}.headers: only Streamable HTTP servers (with "url") take headers`);
  const command = c.string(`${path}.command`, x.command, false);
  const args = c.strings(`${path}.args`, x.args) ?? [];
  const env = c.stringMap(`${path}.env`, x.env);
  const cwd = c.string(`${path}.cwd`, x.cwd);
  if (command === undefined) return undefined;
  return {
    kind: "stdio",
    command,
    args,
    ...(env === undefined ? {} : { env }),
    // Without a cwd the server runs in the configuration's folder, so a relative `args` path names a file next to the configuration, not one in wherever sluice was started.
    cwd: cwd === undefined ? baseDir : isAbsolute(cwd) ? cwd : resolve(baseDir, cwd),
  };
}

function checkTrust(c: Checker, path: string, x: unknown): McpTrust {
  if (x === undefined) return "untrusted";
  if (x === "trusted" || x === "untrusted") return x;
  c.expect(path, `"trusted" or "untrusted"`, x);
  return "untrusted";
}

function checkProtocol(c: Checker, path: string, x: unknown): McpProtocol | undefined {
  if (x === undefined) return undefined;
  if ((PROTOCOLS as readonly unknown[]).includes(x)) return x as McpProtocol;
  return c.expect(path, `${PROTOCOLS.map((p) => `"${p}"`).join(", ")} (auto: 2026-07-28, else the 2025 handshake)`, x);
}

function checkServer(c: Checker, name: string, x: unknown, baseDir: string): ResolvedServer | undefined {
  const path = keyPath("mcpServers", name);
  if (!SERVER_NAME.test(name)) {
    c.problems.push(`${path}: a server name must start with a letter or _ and hold only letters, digits, _, - and . (tools are called <server>_<tool>)`);
  }
  if (!isObject(x)) return c.expect(path, "an object with command (stdio) or url (Streamable HTTP)", x);
  c.unknownKeys(path, x, SERVER_KEYS);
  if (c.boolean(`${path}.disabled`, x.disabled) === true) return undefined;
  const transport = checkTransport(c, path, x, baseDir);
  const trust = checkTrust(c, `${path}.trust`, x.trust);
  const readers = c.readers(`${path}.readers`, x.readers) ?? "public";
  const principal = c.string(`${path}.principal`, x.principal) ?? `mcp:${name}`;
  const tools = checkTools(c, `${path}.tools`, x.tools);
  const timeoutMs = c.positive(`${path}.timeoutMs`, x.timeoutMs);
  const maxResultBytes = c.positive(`${path}.maxResultBytes`, x.maxResultBytes);
  const protocol = checkProtocol(c, `${path}.protocol`, x.protocol);
  const restarts = c.count(`${path}.restarts`, x.restarts);
  if (restarts !== undefined && transport?.kind === "http") c.problems.push(`${path}.restarts: only stdio servers (with "command") are restarted`);
  if (transport === undefined) return undefined;
  return {
    name,
    transport,
    trust,
    readers,
    principal,
    tools,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(maxResultBytes === undefined ? {} : { maxResultBytes }),
    ...(protocol === undefined ? {} : { protocol }),
    ...(restarts === undefined ? {} : { restarts }),
  };
}

/**
 * Checks a configuration object. Throws an {@link McpConfigError} listing every problem;
 * returns the servers with defaults filled in, and warnings for keys it ignores.
 */
export function resolveMcpConfig(config: unknown, baseDir = process.cwd(), where?: string): ResolvedConfig {
  const c = new Checker();
  if (!isObject(config)) throw new McpConfigError([`expected an object with "mcpServers", got ${shown(config)}`], where);
  for (const key of Object.keys(config)) {
    if (key !== "mcpServers" && key !== "permissions") c.warnings.push(`${key} is not a key sluice knows at the top level; it is ignored`);
  }
  const servers: ResolvedServer[] = [];
  if (!isObject(config.mcpServers)) {
    c.expect("mcpServers", "an object keyed by server name, e.g. { \"files\": { \"command\": \"node\", \"args\": [...] } }", config.mcpServers);
  } else {
    for (const [name, entry] of Object.entries(config.mcpServers)) {
      const server = checkServer(c, name, entry, baseDir);
      if (server !== undefined) servers.push(server);
    }
  }
  const permissions = c.strings("permissions", config.permissions) ?? [];
  if (c.problems.length > 0) throw new McpConfigError(c.problems, where);
  return { servers, permissions, warnings: c.warnings };
}

/** Reads and checks a JSON configuration file; relative paths in it are resolved against its folder. */
export async function readMcpConfig(path: string): Promise<ResolvedConfig & { config: McpConfig; baseDir: string }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message;
    throw new McpConfigError([`cannot read it: ${why}`], path);
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (err) {
    throw new McpConfigError([`it is not JSON: ${(err as Error).message}`], path);
  }
  const baseDir = dirname(resolve(path));
  return { ...resolveMcpConfig(config, baseDir, path), config: config as McpConfig, baseDir };
}

/** A server entry as the library accepts it, for callers that build one. */
export type { McpServerConfig };
