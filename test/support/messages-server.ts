/**
 * A local HTTP server that speaks enough of the Anthropic Messages API for the real SDK to run
 * against it: request validation (as the API does it, with its error bodies), structured output
 * (`output_config.format`), `cache_control` with a simulated prompt cache, usage with cache
 * counters, 429/529 answers with retry headers, and client tools (`tools`, `tool_use` replies,
 * `tool_result` blocks paired with them as the API requires). Test-only; listens on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";

/** What the server answers to one request. */
export type MockReply =
  | { text: string; stopReason?: string }
  /** A call of one of the request's tools (stop reason `tool_use`), after `text` when given. */
  | { toolUse: { name: string; input: Record<string, unknown>; id?: string }; text?: string }
  | { json: unknown; stopReason?: string }
  | { status: number; errorType: string; message: string; headers?: Record<string, string> };

/** One request as the server received it. */
export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** The HTTP status the server answered. */
  status: number;
}

export interface MessagesServer {
  /** Base URL to give the SDK. */
  url: string;
  /** Every request received, valid or not. */
  requests: ReceivedRequest[];
  /** Replies used in order, before the responder. */
  enqueue(...replies: MockReply[]): void;
  /** Answers requests once the queue is empty. */
  respondWith(fn: (body: any) => MockReply): void;
  close(): Promise<void>;
}

/** A 429 the SDK retries after `ms` milliseconds. */
export function rateLimited(ms = 1): MockReply {
  return { status: 429, errorType: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit", headers: { "retry-after-ms": String(ms), "retry-after": "0" } };
}

/** A 529 the SDK retries after `ms` milliseconds. */
export function overloaded(ms = 1): MockReply {
  return { status: 529, errorType: "overloaded_error", message: "Overloaded", headers: { "retry-after-ms": String(ms) } };
}

/** Tokens the mock bills for a text: one per 4 characters, as a rough tokenizer would. */
export function mockTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const TOP_LEVEL = new Set([
  "model", "max_tokens", "messages", "system", "output_config", "metadata", "stop_sequences", "stream", "temperature",
  "top_k", "top_p", "tools", "tool_choice", "thinking", "cache_control", "service_tier", "container", "inference_geo", "speed", "diagnostics",
]);

class Invalid extends Error {}

function fail(message: string): never {
  throw new Invalid(message);
}

function checkCacheControl(cc: unknown, where: string, count: { n: number }): void {
  if (cc === undefined || cc === null) return;
  const c = cc as Record<string, unknown>;
  if (c.type !== "ephemeral") fail(`${where}.cache_control.type: Input should be 'ephemeral'`);
  if (c.ttl !== undefined && c.ttl !== "5m" && c.ttl !== "1h") fail(`${where}.cache_control.ttl: Input should be '5m' or '1h'`);
  count.n += 1;
  if (count.n > 4) fail("A maximum of 4 blocks with cache_control may be provided. Found 5.");
}

function checkTextBlock(block: any, where: string, count: { n: number }): void {
  if (block === null || typeof block !== "object") fail(`${where}: Input should be an object`);
  if (block.type !== "text") fail(`${where}.type: only text blocks are supported by this mock`);
  if (typeof block.text !== "string" || block.text === "") fail(`${where}.text: text content blocks must be non-empty`);
  checkCacheControl(block.cache_control, where, count);
}

function checkTools(tools: unknown, count: { n: number }): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) fail("tools: Input should be a valid list");
  const names = new Set<string>();
  tools.forEach((t: any, i: number) => {
    if (t === null || typeof t !== "object") fail(`tools.${i}: Input should be an object`);
    if (typeof t.name !== "string" || !/^[a-zA-Z0-9_-]{1,128}$/.test(t.name)) fail(`tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
    if (names.has(t.name)) fail(`tools: Tool names must be unique. Found duplicate: ${t.name}`);
    names.add(t.name);
    if (t.input_schema === null || typeof t.input_schema !== "object" || t.input_schema.type !== "object") fail(`tools.${i}.input_schema.type: Input should be 'object'`);
    if (t.description !== undefined && typeof t.description !== "string") fail(`tools.${i}.description: Input should be a valid string`);
    checkCacheControl(t.cache_control, `tools.${i}`, count);
  });
}

/** A content block of a message: text, a tool_use (assistant) or a tool_result (user). */
function checkContentBlock(block: any, where: string, role: string, count: { n: number }): void {
  if (block?.type === "tool_use") {
    if (role !== "assistant") fail(`${where}: tool_use blocks may only appear in assistant messages`);
    if (typeof block.id !== "string" || !/^[a-zA-Z0-9_-]+$/.test(block.id)) fail(`${where}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
    if (typeof block.name !== "string" || block.name === "") fail(`${where}.name: Field required`);
    if (block.input === null || typeof block.input !== "object" || Array.isArray(block.input)) fail(`${where}.input: Input should be a valid dictionary`);
    checkCacheControl(block.cache_control, where, count);
    return;
  }
  if (block?.type === "tool_result") {
    if (role !== "user") fail(`${where}: tool_result blocks may only appear in user messages`);
    if (typeof block.tool_use_id !== "string") fail(`${where}.tool_use_id: Field required`);
    if (block.is_error !== undefined && typeof block.is_error !== "boolean") fail(`${where}.is_error: Input should be a valid boolean`);
    if (Array.isArray(block.content)) block.content.forEach((b: unknown, j: number) => checkTextBlock(b, `${where}.content.${j}`, count));
    else if (block.content !== undefined && typeof block.content !== "string") fail(`${where}.content: Input should be a valid string or list`);
    checkCacheControl(block.cache_control, where, count);
    return;
  }
  checkTextBlock(block, where, count);
}

const toolUseIds = (m: any): string[] => (Array.isArray(m?.content) ? m.content.filter((b: any) => b?.type === "tool_use").map((b: any) => b.id) : []);
const toolResultIds = (m: any): string[] => (Array.isArray(m?.content) ? m.content.filter((b: any) => b?.type === "tool_result").map((b: any) => b.tool_use_id) : []);

/** As the API does: every tool_use is answered by a tool_result in the very next message, and only those. */
function checkToolPairs(body: any): void {
  const uses = body.messages.some((m: any) => toolUseIds(m).length > 0 || toolResultIds(m).length > 0);
  if (uses && (!Array.isArray(body.tools) || body.tools.length === 0)) fail("Requests which include `tool_use` or `tool_result` blocks must define tools.");
  body.messages.forEach((m: any, i: number) => {
    const asked = toolUseIds(m);
    if (asked.length > 0) {
      const answered = toolResultIds(body.messages[i + 1]);
      const missing = asked.filter((id) => !answered.includes(id));
      if (missing.length > 0) fail(`messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    }
    const previous = i > 0 ? toolUseIds(body.messages[i - 1]) : [];
    for (const id of toolResultIds(m)) {
      if (!previous.includes(id)) fail(`messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
    }
  });
}

function checkStrictSchema(schema: any, where: string): void {
  if (schema === null || typeof schema !== "object") return;
  if (schema.type === "object" && schema.additionalProperties !== false) {
    fail(`output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false (at ${where})`);
  }
  for (const key of ["properties", "$defs"]) {
    if (schema[key]) for (const [k, v] of Object.entries(schema[key])) checkStrictSchema(v, `${where}.${key}.${k}`);
  }
  if (schema.items) checkStrictSchema(schema.items, `${where}.items`);
  for (const key of ["anyOf", "allOf"]) if (Array.isArray(schema[key])) schema[key].forEach((s: unknown, i: number) => checkStrictSchema(s, `${where}.${key}.${i}`));
}

/** Validates a request body the way the API does; throws Invalid with the API's kind of message. */
export function validateBody(body: any): void {
  if (body === null || typeof body !== "object" || Array.isArray(body)) fail("Request body must be a JSON object");
  for (const key of Object.keys(body)) if (!TOP_LEVEL.has(key)) fail(`${key}: Extra inputs are not permitted`);
  if (typeof body.model !== "string" || body.model === "") fail("model: Field required");
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 0) fail("max_tokens: Input should be a valid integer of at least 0");
  if (body.stream === true) fail("stream: this mock does not stream");
  if (!Array.isArray(body.messages) || body.messages.length === 0) fail("messages: at least one message is required");
  const count = { n: 0 };
  checkCacheControl(body.cache_control, "cache_control", count);
  checkTools(body.tools, count);
  if (body.system !== undefined) {
    if (Array.isArray(body.system)) body.system.forEach((b: unknown, i: number) => checkTextBlock(b, `system.${i}`, count));
    else if (typeof body.system !== "string") fail("system: Input should be a valid string or list of text blocks");
  }
  if (body.messages[0].role !== "user") fail("messages: first message must use the \"user\" role");
  body.messages.forEach((m: any, i: number) => {
    if (m.role !== "user" && m.role !== "assistant") fail(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (typeof m.content === "string") {
      if (m.content === "" ) fail(`messages.${i}: all messages must have non-empty content`);
    } else if (Array.isArray(m.content)) m.content.forEach((b: unknown, j: number) => checkContentBlock(b, `messages.${i}.content.${j}`, m.role, count));
    else fail(`messages.${i}.content: Input should be a valid string or list`);
    if (i > 0 && body.messages[i - 1].role === m.role) fail(`messages: roles must alternate between "user" and "assistant"`);
  });
  checkToolPairs(body);
  if (body.output_config !== undefined) {
    const format = body.output_config?.format;
    if (format !== undefined && format !== null) {
      if (format.type !== "json_schema") fail("output_config.format.type: Input should be 'json_schema'");
      if (format.schema?.type !== "object") fail("output_config.format.schema: the root schema must be an object");
      checkStrictSchema(format.schema, "root");
    }
  }
}

interface Block {
  text: string;
  cached: boolean;
}

/** The text a block is billed for. */
function blockText(b: any): string {
  if (b.type === "tool_use") return JSON.stringify({ name: b.name, input: b.input });
  if (b.type === "tool_result") return typeof b.content === "string" ? b.content : Array.isArray(b.content) ? b.content.map((x: any) => x.text).join("") : "";
  return b.text;
}

/** The request's blocks in the API's cache order: tools, then system, then messages. */
function blocksOf(body: any): Block[] {
  const out: Block[] = [];
  const add = (content: unknown): void => {
    if (typeof content === "string") out.push({ text: content, cached: false });
    else if (Array.isArray(content)) for (const b of content) out.push({ text: blockText(b), cached: b.cache_control != null });
  };
  for (const t of body.tools ?? []) out.push({ text: JSON.stringify(t), cached: t.cache_control != null });
  add(body.system);
  for (const m of body.messages) add(m.content);
  if (body.output_config?.format) out.push({ text: JSON.stringify(body.output_config.format.schema), cached: false });
  return out;
}

/** Usage with a simulated prompt cache: the prefix up to the last cache_control block is cached. */
function usageFor(body: any, cache: Set<string>, outputText: string): Record<string, unknown> {
  const blocks = blocksOf(body);
  let last = -1;
  blocks.forEach((b, i) => (b.cached ? (last = i) : undefined));
  const prefix = blocks.slice(0, last + 1).map((b) => b.text).join("\u0000");
  const rest = blocks.slice(last + 1).map((b) => b.text).join("");
  let cacheRead = 0;
  let cacheWrite = 0;
  if (last >= 0) {
    const key = createHash("sha256").update(body.model + "\u0000" + prefix).digest("hex");
    if (cache.has(key)) cacheRead = mockTokens(prefix);
    else (cacheWrite = mockTokens(prefix), cache.add(key));
  }
  return {
    input_tokens: mockTokens(rest) + 3 * body.messages.length,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    cache_creation: null,
    output_tokens: mockTokens(outputText),
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: "standard",
    inference_geo: null,
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": `req_mock_${Date.now()}`, ...headers });
  res.end(JSON.stringify(body));
}

function errorBody(type: string, message: string): unknown {
  return { type: "error", error: { type, message }, request_id: "req_mock" };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the server on a free local port. */
export async function startMessagesServer(): Promise<MessagesServer> {
  const queue: MockReply[] = [];
  const requests: ReceivedRequest[] = [];
  const cache = new Set<string>();
  let responder: ((body: any) => MockReply) | undefined;
  let counter = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record: ReceivedRequest = { path: req.url ?? "", headers: req.headers, body: undefined, status: 0 };
    requests.push(record);
    const answer = (status: number, body: unknown, headers?: Record<string, string>): void => {
      record.status = status;
      send(res, status, body, headers);
    };
    if (req.method !== "POST" || req.url !== "/v1/messages") return answer(404, errorBody("not_found_error", `no route ${req.method} ${req.url}`));
    const bearer = /^Bearer \S+$/.test(String(req.headers.authorization ?? ""));
    if (!req.headers["x-api-key"] && !bearer) return answer(401, errorBody("authentication_error", "x-api-key or Authorization: Bearer header is required"));
    if (!req.headers["anthropic-version"]) return answer(400, errorBody("invalid_request_error", "anthropic-version header is required"));
    try {
      record.body = JSON.parse(await readBody(req));
    } catch {
      return answer(400, errorBody("invalid_request_error", "There was an issue with your request body: invalid JSON"));
    }
    try {
      validateBody(record.body);
    } catch (err) {
      if (err instanceof Invalid) return answer(400, errorBody("invalid_request_error", err.message));
      throw err;
    }
    const reply = queue.shift() ?? responder?.(record.body);
    if (reply === undefined) return answer(400, errorBody("invalid_request_error", "mock server: no reply queued for this request"));
    if ("status" in reply) return answer(reply.status, errorBody(reply.errorType, reply.message), reply.headers);
    if ("toolUse" in reply && !(record.body.tools ?? []).some((t: any) => t.name === reply.toolUse.name)) {
      return answer(500, errorBody("api_error", `mock server: the reply calls ${reply.toolUse.name}, which the request does not define`));
    }
    const text = "json" in reply ? JSON.stringify(reply.json) : "toolUse" in reply ? reply.text ?? "" : reply.text;
    const content: unknown[] = text === "" && "toolUse" in reply ? [] : [{ type: "text", text, citations: null }];
    if ("toolUse" in reply) content.push({ type: "tool_use", id: reply.toolUse.id ?? `toolu_mock_${counter + 1}`, name: reply.toolUse.name, input: reply.toolUse.input, caller: { type: "direct" } });
    const billed = "toolUse" in reply ? text + JSON.stringify(reply.toolUse.input) : text;
    answer(200, {
      id: `msg_mock_${++counter}`,
      type: "message",
      role: "assistant",
      model: record.body.model,
      content,
      stop_reason: "toolUse" in reply ? "tool_use" : reply.stopReason ?? "end_turn",
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: usageFor(record.body, cache, billed),
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, errorBody("api_error", String(err))));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    respondWith: (fn) => void (responder = fn),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
