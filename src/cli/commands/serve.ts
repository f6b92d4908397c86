/**
 * `sluice serve [--mcp CONFIG.json] [--http PORT] [--approve yes|no]`: sluice as an MCP
 * server in code mode. Plans run against the tools of the servers in CONFIG.json, or the
 * example workspace without `--mcp`. Over stdio by default; with `--http`, Streamable HTTP at
 * `http://127.0.0.1:PORT/mcp`. Everything it says goes to stderr: stdout is the protocol.
 */
import { messageIsTrusted } from "../../models/planner-messages.js";
import { functionDeclarations, planLanguageRules } from "../../models/planner-prompt.js";
import { samplingTexts } from "../../models/sampling-texts.js";
import { createPlanServer, serveOverHttp, serveOverStdio, type AskFallback } from "../../mcp/serve/index.js";
import type { Tool } from "../../tools/types.js";
import type { Permissions } from "../../policy/index.js";
import { exampleWorkspace } from "../example-tools.js";
import { version } from "../help.js";
import { CliError, EXIT, type CliIo } from "../io.js";
import { openMcp } from "../mcp-tools.js";

/** Options of `sluice serve`. */
export interface ServeCommandOptions {
  /** The MCP configuration file; without it, the example workspace. */
  mcp?: string;
  /** The lock file of pinned tools; default next to the configuration. */
  pins?: string;
  /** Serve Streamable HTTP on this port of 127.0.0.1 (0: any free port); without it, stdio. */
  http?: number;
  /** The answer to an ask when the client cannot put it to a person. */
  approve: AskFallback;
  /** Who the calling agent reads as (`--principal`); unset, the user's own agent. */
  principal?: string;
}

/** A started server. */
export interface ServeHandle {
  /** The endpoint, for `--http`. */
  url?: string;
  /** Resolves when the server has stopped: stdin closed (stdio) or {@link ServeHandle.stop}. */
  stopped: Promise<void>;
  stop(): Promise<void>;
}

/** The port of `--http PORT`, checked. */
export function portOf(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new CliError(`--http needs a port number from 0 to 65535 (0: any free port), not ${JSON.stringify(value)}`);
  return n;
}

async function toolsOf(options: ServeCommandOptions, io: CliIo, cwd: string): Promise<{ tools: Tool<any, any>[]; close(): Promise<void>; what: string; permissions?: Permissions }> {
  if (options.mcp === undefined) return { tools: exampleWorkspace().tools, close: async () => {}, what: "the example workspace" };
  const opened = await openMcp({ config: options.mcp, ...(options.pins === undefined ? {} : { pins: options.pins }) }, io, cwd);
  return { tools: opened.mcp.tools, close: () => opened.mcp.close(), what: `the servers of ${options.mcp}`, ...(opened.permissions ? { permissions: opened.permissions } : {}) };
}

/** Starts the server; resolves once it is listening. */
export async function startServe(options: ServeCommandOptions, io: CliIo, cwd: string): Promise<ServeHandle> {
  const source = await toolsOf(options, io, cwd);
  const log = (line: string) => io.stderr(`sluice serve: ${line}\n`);
  const server = createPlanServer({
    tools: source.tools,
    language: { rules: planLanguageRules(), declarations: functionDeclarations(source.tools), messageIsTrusted },
    fallback: options.approve,
    ...(options.principal === undefined ? {} : { principal: options.principal }),
    sampling: samplingTexts(),
    ...(source.permissions ? { runtime: { permissions: source.permissions } } : {}),
    serverInfo: { name: "sluice", version: version() },
    log,
  });
  const names = source.tools.map((t) => t.name).sort().join(", ");
  if (options.http === undefined) {
    const serving = serveOverStdio(server);
    log(`serving ${source.tools.length} tools of ${source.what} over stdio (${names})`);
    const stopped = serving.closed.then(() => source.close());
    return { stopped, stop: async () => void (await serving.close(), await stopped) };
  }
  let serving;
  try {
    serving = await serveOverHttp(server, options.http, log);
  } catch (err) {
    await source.close();
    throw new CliError(`cannot listen on 127.0.0.1:${options.http}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, EXIT.failed);
  }
  log(`serving ${source.tools.length} tools of ${source.what} at ${serving.url} (${names})`);
  let stop: (() => void) | undefined;
  const requested = new Promise<void>((resolve) => (stop = resolve));
  const stopped = requested.then(async () => {
    await serving.close();
    await source.close();
  });
  return { url: serving.url, stopped, stop: async () => (stop?.(), stopped) };
}

/** Runs `sluice serve` until stdin closes (stdio) or the process is told to stop. */
export async function serve(options: ServeCommandOptions, io: CliIo, cwd: string): Promise<number> {
  const handle = await startServe(options, io, cwd);
  const onSignal = () => void handle.stop();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await handle.stopped;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  return EXIT.completed;
}
