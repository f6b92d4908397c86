/**
 * The MCP host: tools from MCP servers as sluice tools, with labels, pins and policies.
 */
export { connectMcp, DEFAULT_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_RESULT_BYTES } from "./connect.js";
export { McpConfigError, readMcpConfig, resolveMcpConfig, POLICY_NAMES } from "./config.js";
export type { ResolvedConfig, ResolvedServer, McpTransportConfig } from "./config.js";
export { McpConnectError } from "./session.js";
export { McpToolError } from "./result.js";
export { PinFileError, pinHash, pinSubject, describeChange, readLock } from "./pins.js";
export type { LockFile, PinnedTool, PinSubject } from "./pins.js";
export { IFC_META_KEY, PARTS_META_KEY, serverLabel } from "./labels.js";
export { sluiceToolName } from "./names.js";
export { mcpOffer, offerable } from "./offer.js";
export { mcpSinkPolicy, sendingIsReading, namedPolicy } from "./policy.js";
export type * from "./types.js";
