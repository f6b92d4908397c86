/**
 * An MCP tool result as a value a program can use: `structuredContent` when the server gave
 * one, else the text of its content blocks as one string. `isError` results become errors the
 * program can catch. A trusted server's `_meta` labels are applied; an untrusted server's are
 * not read at all.
 */
import type { Label } from "../labels/index.js";
import { IFC_META_KEY, PARTS_META_KEY, applyPartLabels, ifcLabel } from "./labels.js";

/** A tool call that failed: the server said `isError`, or the call itself failed. */
export class McpToolError extends Error {
  /** For the call layer: `false` when a retry cannot help (the session is closed). */
  retryable?: boolean;
  /** For the call layer: the server did not answer in time, so it may still act on the request. */
  timedOut?: boolean;
  /** For the call layer: `ECONNRESET` when the connection is gone (closed transport, crashed server). */
  code?: string;

  constructor(
    message: string,
    /** A label a trusted server put on the error; the host joins it into what the program sees. */
    readonly label?: Label,
    how: { retryable?: boolean; timedOut?: boolean; code?: string } = {},
  ) {
    super(message);
    this.name = "McpToolError";
    if (how.retryable !== undefined) this.retryable = how.retryable;
    if (how.timedOut === true) this.timedOut = true;
    if (how.code !== undefined) this.code = how.code;
  }
}

/** What the conversion needs to know about where the result came from. */
export interface ResultSource {
  server: string;
  /** Whether the server's `_meta` labels are believed. */
  trusted: boolean;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function size(data: unknown): number {
  return typeof data === "string" ? Math.floor((data.length * 3) / 4) : 0;
}

/** One content block as text; blocks a plan cannot read (images, audio, binary) become a placeholder. */
function blockText(block: unknown): string {
  if (!isObject(block)) return "";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio":
      return `[${block.type} ${String(block.mimeType ?? "")}, ${size(block.data)} bytes]`;
    case "resource": {
      const r = isObject(block.resource) ? block.resource : {};
      if (typeof r.text === "string") return r.text;
      return `[resource ${String(r.uri ?? "")} ${String(r.mimeType ?? "")}, ${size(r.blob)} bytes]`;
    }
    case "resource_link":
      return `[resource link ${String(block.name ?? "")} ${String(block.uri ?? "")}]`;
    default:
      return `[${String(block.type)} content]`;
  }
}

/** The content blocks as one string. */
export function contentText(content: unknown): string {
  return Array.isArray(content) ? content.map(blockText).filter((t) => t !== "").join("\n") : "";
}

function metaOf(x: unknown): Record<string, unknown> | undefined {
  return isObject(x) && isObject(x._meta) ? x._meta : undefined;
}

/** The whole-result label a trusted server gave, on the result or on any content block. */
function wholeLabel(result: Record<string, unknown>, source: ResultSource): Label | undefined {
  const found: Label[] = [];
  const top = ifcLabel(metaOf(result)?.[IFC_META_KEY], source.server);
  if (top !== undefined) found.push(top);
  for (const block of Array.isArray(result.content) ? result.content : []) {
    const l = ifcLabel(metaOf(block)?.[IFC_META_KEY], source.server);
    if (l !== undefined) found.push(l);
  }
  return found.length === 0 ? undefined : found.reduce((a, b) => a.join(b));
}

/**
 * The value of a result and the label a trusted server put on all of it (undefined when none).
 * Throws {@link McpToolError} for an `isError` result, with the server's text as the message.
 */
export function resultValue(result: unknown, source: ResultSource): { value: unknown; label?: Label } {
  if (!isObject(result)) throw new McpToolError("the server's answer is not a tool result");
  if (result.isError === true) {
    const text = contentText(result.content);
    throw new McpToolError(text === "" ? "the server reported an error without a message" : text, source.trusted ? wholeLabel(result, source) : undefined);
  }
  const structured = result.structuredContent;
  let value: unknown = structured !== undefined ? structured : contentText(result.content);
  if (!source.trusted) return { value };
  let label = wholeLabel(result, source);
  if (structured !== undefined) {
    const parts = applyPartLabels(value, metaOf(result)?.[PARTS_META_KEY], source.server);
    value = parts.value;
    if (parts.whole !== undefined) label = label === undefined ? parts.whole : label.join(parts.whole);
  }
  return label === undefined ? { value } : { value, label };
}
