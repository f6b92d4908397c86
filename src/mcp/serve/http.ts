/**
 * `sluice serve --http PORT`: Streamable HTTP at `http://127.0.0.1:PORT/mcp`, bound to the
 * loopback address only, with the `Host` and `Origin` checks that stop DNS rebinding (a web
 * page that resolves its own name to 127.0.0.1 must not reach the server through a browser).
 *
 * Revision 2026-07-28 requests are served per request by the SDK's handler. Older clients get
 * a session each (the 2025 transport), because only a session can carry the elicitation
 * requests that put asks to a person.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { localhostHostValidation, localhostOriginValidation, NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, DEFAULT_MAX_REQUEST_BODY_SIZE, isInitializeRequest, isLegacyRequest } from "@modelcontextprotocol/server";
import type { PlanServer } from "./server.js";

/** A running HTTP server. */
export interface HttpServing {
  /** `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening, ends every session, declines every waiting ask. */
  close(): Promise<void>;
}

/** How long a 2025-era session may sit idle before it is ended. */
const SESSION_IDLE_MS = 30 * 60_000;
/** How many 2025-era sessions may be open at once; the oldest idle one is ended for a new one. */
const MAX_SESSIONS = 64;

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  seen: number;
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** The body of a POST, parsed; `undefined` with the error already answered when it is not JSON. */
async function readJson(req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > DEFAULT_MAX_REQUEST_BODY_SIZE) {
      jsonRpcError(res, 413, -32600, `the request body is larger than ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes`);
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    jsonRpcError(res, 400, -32700, "Parse error: the request body is not valid JSON");
    return undefined;
  }
}

/** Serves `server` at `http://127.0.0.1:port/mcp` (port 0: any free port). */
export async function serveOverHttp(server: PlanServer, port: number, log: (line: string) => void = () => {}): Promise<HttpServing> {
  const modern = createMcpHandler(server.factory, { legacy: "reject", onerror: (e) => log(`http: ${e.message}`) });
  const modernNode = toNodeHandler(modern);
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();
  const sessions = new Map<string, Session>();

  const endSession = (id: string): void => {
    const s = sessions.get(id);
    sessions.delete(id);
    void s?.transport.close();
  };

  async function legacy(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (session === undefined) return jsonRpcError(res, 404, -32001, "Session not found: start a new session with initialize");
      session.seen = Date.now();
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      return jsonRpcError(res, 400, -32000, "Bad Request: an Mcp-Session-Id header is required (open a session with initialize first)");
    }
    if (sessions.size >= MAX_SESSIONS) {
      const oldest = [...sessions.entries()].sort((a, b) => a[1].seen - b[1].seen)[0];
      endSession(oldest[0]);
    }
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, { transport, seen: Date.now() }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.factory().connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found: the MCP endpoint is /mcp\n");
      return;
    }
    let body: unknown;
    if (req.method === "POST") {
      const parsed = await readJson(req, res);
      if (parsed === undefined) return;
      body = parsed.body;
    }
    if (await isLegacyRequest(await toWebRequest(req, body), body)) return legacy(req, res, body);
    return modernNode(req, res, body);
  }

  const http: Server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      log(`http: ${err instanceof Error ? err.message : String(err)}`);
      jsonRpcError(res, 500, -32603, "Internal error");
    });
  });
  const sweep = setInterval(() => {
    for (const [id, s] of sessions) if (Date.now() - s.seen > SESSION_IDLE_MS) endSession(id);
  }, 60_000);
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  const actual = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    async close() {
      clearInterval(sweep);
      server.close();
      for (const id of [...sessions.keys()]) endSession(id);
      await modern.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
