/**
 * Streamable HTTP against a real server started by the test: server-everything in its
 * streamableHttp mode, on a free port of 127.0.0.1.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { connect, referenceServer } from "./support.js";

let child: ChildProcess;
let url: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  child = spawn(process.execPath, [referenceServer("everything"), "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start listening")), 20_000);
    child.stderr!.on("data", (d: Buffer) => {
      if (d.toString().includes("listening on port")) (clearTimeout(timer), resolve());
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited with ${code}`)));
  });
});

afterAll(() => {
  child?.kill("SIGKILL");
});

describe("Streamable HTTP", () => {
  it("lists the tools, calls one with structured content, and keeps the server's label", async () => {
    const mcp = await connect({ mcpServers: { web: { url } } });
    expect(mcp.servers[0]).toMatchObject({ name: "web", transport: "http" });
    expect(mcp.tools.map((t) => t.name)).toContain("web_get_structured_content");
    const tool = mcp.tools.find((t) => t.name === "web_get_structured_content")!;
    expect(tool.returns).toMatchObject({ type: "object", properties: { temperature: { type: "number" } } });
    const result = await createRuntime({ tools: mcp.tools }).run(`web_get_structured_content({ location: "Chicago" }).conditions`);
    expect(result.status).toBe("completed");
    expect(result.value).toBe("Light rain / drizzle");
    expect(result.label).toMatchObject({ trusted: false, readers: "public", sources: ["mcp:web"] });
  });

  it("text content is a string; private data is refused before it is sent", async () => {
    const mcp = await connect({ mcpServers: { web: { url } } });
    const runtime = createRuntime({ tools: mcp.tools, approve: () => true });
    const echoed = await runtime.run(`web_echo({ message: "hello" })`);
    expect(echoed.value).toBe("Echo: hello");
    // With readers: ["me"], what the server returns is private to me, so sending it back is refused.
    const refusedConfig = await connect({ mcpServers: { web: { url, readers: ["me"] } } });
    const refused = await createRuntime({ tools: refusedConfig.tools, approve: () => true }).run(`web_echo({ message: web_get_sum({ a: 1, b: 2 }) })`);
    expect(refused.status).toBe("blocked");
    expect(refused.calls.at(-1)).toMatchObject({ tool: "web_echo", decision: "deny" });
  });

  it("an answer far over the result cap is cut off as it arrives, with a clear error, and the connection is still usable", async () => {
    const mcp = await connect({ mcpServers: { web: { url, maxResultBytes: 1000 } } });
    const runtime = createRuntime({ tools: mcp.tools, approve: () => true });
    const big = await runtime.run(`try { web_echo({ message: "x".repeat(1500000) }); "read" } catch (e) { e.message }`);
    expect(big.value).toBe("web_echo failed: the call to the MCP server web failed: the MCP server web sent a message of more than 1048576 bytes; sluice stopped reading it (maxResultBytes)");
    expect((await runtime.run(`web_echo({ message: "hello" })`)).value).toBe("Echo: hello");
  });

  it("a server that is not there is a clear error naming it", async () => {
    const port = await freePort();
    await expect(connect({ mcpServers: { gone: { url: `http://127.0.0.1:${port}/mcp` } } }, { connectTimeoutMs: 3000 })).rejects.toThrow(/could not connect to the MCP server gone/);
  });
});
