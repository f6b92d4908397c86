/**
 * MCP servers for the CLI: reads the configuration file given with `--mcp`, connects with the
 * lock file next to it (or `--pins`), prints warnings on stderr, and turns every failure into a
 * one-line CLI error: a bad configuration is a usage error (2), a server that does not start is
 * a failure (1).
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { connectMcp, McpConfigError, PinFileError, readMcpConfig, type McpConnection } from "../mcp/index.js";
import { createPermissions, type Permissions } from "../policy/index.js";
import { CliError, EXIT, type CliIo } from "./io.js";
import { safe } from "./text.js";

/** The lock file's name when `--pins` is not given: next to the configuration. */
export const DEFAULT_PINS = "sluice-mcp.lock.json";

/** What `--mcp CONFIG.json [--pins FILE]` asks for. */
export interface McpCliOptions {
  config: string;
  pins?: string;
  /** False for read-only looks (`mcp list`): new tools are not written to the lock file. */
  record?: boolean;
}

/** The MCP tools of a configuration, with its permission rules when it has some. */
export interface CliMcp {
  mcp: McpConnection;
  permissions?: Permissions;
  pinsPath: string;
}

/** The lock file a command uses. */
export function pinsPathFor(options: McpCliOptions, cwd: string): string {
  const config = isAbsolute(options.config) ? options.config : resolve(cwd, options.config);
  if (options.pins !== undefined) return isAbsolute(options.pins) ? options.pins : resolve(cwd, options.pins);
  return join(dirname(config), DEFAULT_PINS);
}

/** Connects to the servers of the configuration file. */
export async function openMcp(options: McpCliOptions, io: CliIo, cwd: string): Promise<CliMcp> {
  const path = isAbsolute(options.config) ? options.config : resolve(cwd, options.config);
  const pinsPath = pinsPathFor(options, cwd);
  try {
    const { config, baseDir, permissions } = await readMcpConfig(path);
    const mcp = await connectMcp(config, {
      baseDir,
      pins: pinsPath,
      recordNew: options.record !== false,
      onWarning: (w) => io.stderr(`sluice: warning: ${safe(w)}\n`),
    });
    return { mcp, pinsPath, ...(permissions.length > 0 ? { permissions: createPermissions(permissions) } : {}) };
  } catch (err) {
    if (err instanceof McpConfigError || err instanceof PinFileError) throw new CliError(err.message, EXIT.usage);
    if (err instanceof TypeError && /permission rule/.test(err.message)) throw new CliError(`${options.config}: permissions: ${err.message}`, EXIT.usage);
    throw new CliError(err instanceof Error ? err.message : String(err), EXIT.failed);
  }
}
