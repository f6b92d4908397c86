/**
 * MCP calls in traces: each is an execute_tool span carrying the MCP conventions' client
 * attributes (method, transport, protocol, session) and sluice's server and tool names; its
 * traceparent reaches the server in _meta; arguments go on a span only when the runtime opts in
 * and they and the call's context are trusted and public; results never do.
 */
import { join } from "node:path";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { connect, homeFolder, referenceServer, testServer } from "../mcp/support.js";

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(() => trace.disable());
afterEach(() => exporter.reset());

const spanOf = (tool: string): ReadableSpan => exporter.getFinishedSpans().find((s) => s.name === `execute_tool ${tool}`)!;
const memory = (home: string, extra: Record<string, unknown> = {}) => ({
  mcpServers: { memory: { command: "node", args: [referenceServer("memory")], env: { MEMORY_FILE_PATH: join(home, "memory.jsonl") }, trust: "trusted" as const, ...extra } },
});

describe("MCP calls in traces", () => {
  it("carry the MCP attributes and the names of server and tool; no arguments or results by default", async () => {
    const mcp = await connect(memory(homeFolder()));
    const r = await createRuntime({ tools: mcp.tools }).run(`memory_search_nodes({ query: "plumber" })`);
    expect(r.status).toBe("completed");
    const span = spanOf("memory_search_nodes");
    expect(span.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "memory_search_nodes",
      "mcp.method.name": "tools/call",
      "network.transport": "pipe",
      "mcp.protocol.version": mcp.servers[0].protocolVersion,
      "sluice.mcp.server": "memory",
      "sluice.mcp.tool": "search_nodes",
      "sluice.resource": "mcp:memory",
    });
    expect(Object.keys(span.attributes).filter((k) => k.startsWith("gen_ai.tool.call.") && k !== "gen_ai.tool.call.id")).toEqual([]);
  });

  it("with traceArguments, trusted public arguments go on the span, and nothing decided by a stranger's text does", async () => {
    const home = homeFolder();
    const mcp = await connect({ mcpServers: { ...memory(home).mcpServers, notes: { command: "node", args: [testServer("notes"), home] } } });
    const runtime = createRuntime({ tools: mcp.tools, traceArguments: true, approve: () => true });
    await runtime.run(`memory_search_nodes({ query: "plumber" })`);
    expect(spanOf("memory_search_nodes").attributes["gen_ai.tool.call.arguments"]).toBe(JSON.stringify({ query: "plumber" }));
    exporter.reset();
    // The query comes from an untrusted server's answer: its text stays out of the trace.
    const r = await runtime.run(`const n = notes_list_notes(); memory_search_nodes({ query: JSON.stringify(n).slice(0, 20) })`);
    expect(r.calls.map((c) => c.tool)).toEqual(["notes_list_notes", "memory_search_nodes"]);
    const span = spanOf("memory_search_nodes");
    expect(span).toBeDefined();
    expect(span.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    // The first call's arguments were the plan's own.
    expect(spanOf("notes_list_notes").attributes["gen_ai.tool.call.arguments"]).toBe("{}");
  });

  it("the server gets the call span's traceparent in _meta", async () => {
    const mcp = await connect({ mcpServers: { raw: { command: "node", args: [testServer("raw")] } } });
    const r = await createRuntime({ tools: mcp.tools, approve: () => true }).run(`JSON.parse(raw_meta())`);
    const span = spanOf("raw_meta");
    const meta = r.value as Record<string, string>;
    expect(meta.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });
});
