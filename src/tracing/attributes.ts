/**
 * Attribute names: the GenAI semantic conventions' (v1.41: gen-ai-spans.md, gen-ai-agent-spans.md,
 * mcp.md) and sluice's own under `sluice.`.
 */
/** The name of sluice's tracer and meter. */
export const INSTRUMENTATION = "sluice";

export const A = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  agentName: "gen_ai.agent.name",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  responseId: "gen_ai.response.id",
  tokenType: "gen_ai.token.type",
  maxTokens: "gen_ai.request.max_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheRead: "gen_ai.usage.cache_read.input_tokens",
  cacheWrite: "gen_ai.usage.cache_creation.input_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolDescription: "gen_ai.tool.description",
  toolType: "gen_ai.tool.type",
  decision: "sluice.decision",
  approved: "sluice.approved",
  argsTrusted: "sluice.args_trusted",
  sideEffect: "sluice.side_effect",
  resource: "sluice.resource",
  attempts: "sluice.attempts",
  reason: "sluice.reason",
  status: "sluice.status",
  role: "sluice.role",
  mcpMethod: "mcp.method.name",
  mcpSession: "mcp.session.id",
  mcpProtocol: "mcp.protocol.version",
  jsonrpcId: "jsonrpc.request.id",
  networkTransport: "network.transport",
  networkProtocol: "network.protocol.name",
  mcpServer: "sluice.mcp.server",
  mcpTool: "sluice.mcp.tool",
  toolArguments: "gen_ai.tool.call.arguments",
  serverAddress: "server.address",
  serverPort: "server.port",
} as const;

/**
 * MCP attributes of a `tools/call` (the MCP conventions' client attributes, added to the
 * `execute_tool` span as they ask when an outer GenAI span exists), with the configured server
 * name and the server's own name of the tool under `sluice.mcp.*`: the conventions name neither.
 */
export function mcpToolAttributes(m: { server?: string; tool?: string; sessionId?: string; protocolVersion?: string; requestId?: string | number; transport: "stdio" | "http"; address?: string; port?: number }): Record<string, string | number> {
  return {
    [A.mcpMethod]: "tools/call",
    [A.networkTransport]: m.transport === "stdio" ? "pipe" : "tcp",
    ...(m.transport === "http" ? { [A.networkProtocol]: "http" } : {}),
    ...(m.server !== undefined ? { [A.mcpServer]: m.server } : {}),
    ...(m.tool !== undefined ? { [A.mcpTool]: m.tool } : {}),
    ...(m.sessionId !== undefined ? { [A.mcpSession]: m.sessionId } : {}),
    ...(m.protocolVersion !== undefined ? { [A.mcpProtocol]: m.protocolVersion } : {}),
    ...(m.requestId !== undefined ? { [A.jsonrpcId]: String(m.requestId) } : {}),
    ...(m.address !== undefined ? { [A.serverAddress]: m.address } : {}),
    ...(m.port !== undefined ? { [A.serverPort]: m.port } : {}),
  };
}
