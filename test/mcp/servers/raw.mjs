#!/usr/bin/env node
/**
 * A hand-written stdio "server" that breaks the protocol, for the tests: it speaks just enough
 * JSON-RPC to be connected to, then answers some calls with garbage or malformed results.
 * RAW_TOOLS_FILE: a JSON file of more tools to list exactly as written (a hostile server's
 * schemas, which the SDK's server would normalise); a call of one answers with its arguments as
 * text (and as `{ result: text }`, or its `answer`, when it has an output
 * schema).
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const tool = (name) => ({ name, description: `The ${name} tool.`, inputSchema: { type: "object", properties: {} } });
const extra = process.env.RAW_TOOLS_FILE ? JSON.parse(readFileSync(process.env.RAW_TOOLS_FILE, "utf8")) : [];
/** A tool's `answer`, if the file gives one, is its structured content (and is not listed). */
const answers = new Map(extra.map((t) => [t.name, t.answer]));
extra.forEach((t) => delete t.answer);
/** Idempotency keys "meta_once" has seen. */
const seenKeys = new Set();
const write = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined) return;
  const ok = (result) => write({ jsonrpc: "2.0", id: msg.id, result });
  switch (msg.method) {
    case "initialize":
      return ok({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "raw", version: "0" } });
    case "tools/list":
      // "meta" only without a tools file, so a file's tools keep their places under the host's cap.
      return ok({ tools: [tool("garbage"), tool("noisy"), tool("wrong_shape"), ...(extra.length === 0 ? [tool("meta"), tool("meta_once")] : []), ...extra] });
    case "tools/call":
      switch (msg.params?.name) {
        case "garbage":
          return process.stdout.write("this is not JSON\n{\"half\": \n");
        case "noisy":
          process.stdout.write("<<< not JSON >>>\n" + JSON.stringify({ not: "a JSON-RPC message" }) + "\n");
          return ok({ content: [{ type: "text", text: "fine" }] });
        case "wrong_shape":
          return ok({ content: "not a list of blocks" });
        case "meta":
          // What the host sent as the request's _meta, for the tests to read.
          return ok({ content: [{ type: "text", text: JSON.stringify(msg.params._meta ?? null) }] });
        case "meta_once": {
          // Fails the first call with each idempotency key (saying the key), answers the next as "meta" does.
          const key = msg.params._meta?.["sluice/idempotency-key"];
          if (!seenKeys.has(key)) {
            seenKeys.add(key);
            return ok({ isError: true, content: [{ type: "text", text: `not yet: ${key}` }] });
          }
          return ok({ content: [{ type: "text", text: JSON.stringify(msg.params._meta ?? null) }] });
        }
      }
      const listed = extra.find((t) => t.name === msg.params?.name);
      if (listed !== undefined) {
        const text = JSON.stringify(msg.params.arguments ?? {});
        return ok({ content: [{ type: "text", text }], ...(listed.outputSchema ? { structuredContent: answers.get(listed.name) ?? { result: text } } : {}) });
      }
      return write({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "unknown tool" } });
    default:
      return write({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "method not found" } });
  }
});
