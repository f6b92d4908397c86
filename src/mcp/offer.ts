import type { Tool } from "../tools/types.js";
import type { McpConnection, McpToolInfo } from "./types.js";

/**
 * Which MCP tools a planner may be shown when it only sees some of them (tool search): those
 * whose declarations someone vouched for. A trusted server's word is taken; an untrusted
 * server's tool only once a person pinned it (`sluice mcp pin`) or the configuration gave it a
 * description of the user's own. A tool that changed since its pin, or whose description names
 * other servers' tools, is never offered.
 */

/** True when the planner may be shown this tool's declaration. */
export function offerable(info: McpToolInfo, trusted: boolean): boolean {
  if (info.pin === "changed" || info.changedWhileConnected !== undefined || info.flags.length > 0) return false;
  return trusted || info.pin === "reviewed" || info.description === "config";
}

/**
 * An `offer` for `createAgent({ toolSearch: { offer } })` from a connection: its tools as
 * {@link offerable} decides, and every tool that is not one of its tools (your own).
 */
export function mcpOffer(connection: Pick<McpConnection, "toolInfo" | "servers">): (tool: Tool<any, any>) => boolean {
  // Read at each question, not once: a tool that changed while connected is no longer offered.
  return (tool) => {
    const info = connection.toolInfo.find((i) => i.name === tool.name);
    return info === undefined || offerable(info, connection.servers.some((s) => s.name === info.server && s.trust === "trusted"));
  };
}
