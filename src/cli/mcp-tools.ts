/**
 * `--mcp CONFIG.json`: the tools of the MCP servers a configuration file names, through
 * `connectMcp` (the host side, `src/mcp/connect.ts`). Every command that takes `--mcp` opens
 * its tools here, so they read the file and report its errors the same way.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Tool } from "../tools/types.js";
import { CliError, EXIT } from "./io.js";

/** The tools of a configuration's servers, and how to end the connections. */
export interface McpTools {
  tools: Tool<any, any>[];
  close(): Promise<void>;
}

type Connect = (config: unknown, options: { baseDir: string; onWarning: (message: string) => void }) => Promise<McpTools>;

/** Until the host side is in this build, `connectMcp` is looked up when `--mcp` is used. */
async function connector(): Promise<Connect> {
  const module = "../mcp/connect.js";
  try {
    const loaded = (await import(module)) as { connectMcp?: Connect };
    if (typeof loaded.connectMcp === "function") return loaded.connectMcp;
  } catch {
    // Reported below.
  }
  throw new CliError("--mcp needs sluice's MCP host (connectMcp), which this build does not have", EXIT.failed);
}

/** Reads `file` (relative to `cwd`) and connects to its servers; a bad file or a dead server is a {@link CliError}. */
export async function openMcpTools(file: string, cwd: string, warn: (message: string) => void): Promise<McpTools> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new CliError(`cannot read the MCP configuration ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (err) {
    throw new CliError(`the MCP configuration ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const connectMcp = await connector();
  try {
    return await connectMcp(config, { baseDir: resolve(path, ".."), onWarning: warn });
  } catch (err) {
    throw new CliError(`cannot connect to the MCP servers of ${file}: ${err instanceof Error ? err.message : String(err)}`, EXIT.failed);
  }
}
