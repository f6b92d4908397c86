/**
 * Labels of MCP results. Every result carries at least its server's label: trusted only when
 * the server is, readable by the server's `readers`, from `mcp:<server>`. A trusted server may
 * label its results more finely in `_meta`; nothing in an untrusted server's payload is
 * believed. Labels from `_meta` are joined, so they can only make a value stricter.
 *
 * Two `_meta` keys are read:
 * - `ifc`, as the GitHub MCP server emits it on a result (or a content block):
 *   `{ "integrity": "trusted" | "untrusted", "confidentiality": ["public"] | [reader, ...] }`;
 * - `sluice/labels`, for parts of `structuredContent`: an array of
 *   `{ "pointer": "/items/0", "integrity"?, "confidentiality"?, "sources"? }`, each `pointer`
 *   a JSON Pointer (RFC 6901) into the structured result.
 */
import { Label, labeled, isLabeled, type Readers } from "../labels/index.js";
import type { McpToolOverride } from "./types.js";

/** The `_meta` key of whole-result IFC labels (the GitHub MCP server's shape). */
export const IFC_META_KEY = "ifc";
/** The `_meta` key of part labels. */
export const PARTS_META_KEY = "sluice/labels";

/** What a server's configuration says about the label of its results. */
export interface ServerLabelling {
  name: string;
  trust: "trusted" | "untrusted";
  readers: Readers;
}

/** The label every result of the server carries at least. */
export function serverLabel(server: ServerLabelling): Label {
  return Label.of({ trusted: server.trust === "trusted", readers: server.readers, sources: [`mcp:${server.name}`] });
}

/** The server's label joined with a tool override's labels (which can only make it stricter). */
export function toolResultLabel(server: ServerLabelling, override: McpToolOverride | undefined): Label {
  const base = serverLabel(server);
  const extra = override?.labels;
  if (extra === undefined) return base;
  return base.join(Label.of({ trusted: extra.trusted !== false, readers: extra.readers ?? "public", sources: extra.sources ?? [] }));
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * A label in the IFC shape, or undefined when `x` is not one. A malformed label from a
 * trusted server counts as untrusted: a server that tried to say something was not heard,
 * so the strictest reading is kept.
 */
export function ifcLabel(x: unknown, server: string): Label | undefined {
  if (x === undefined) return undefined;
  const from = [`mcp:${server}`];
  if (!isObject(x)) return Label.untrusted(from[0]);
  const trusted = x.integrity === "trusted";
  const conf = x.confidentiality;
  let readers: Readers = "public";
  if (Array.isArray(conf) && conf.every((r) => typeof r === "string")) {
    readers = conf.length === 1 && conf[0] === "public" ? "public" : (conf as string[]);
  } else if (conf !== undefined) return Label.untrusted(from[0]);
  const sources = Array.isArray(x.sources) ? x.sources.filter((s): s is string => typeof s === "string") : [];
  return Label.of({ trusted, readers, sources: [...from, ...sources] });
}

/** Decodes one JSON Pointer reference token. */
function unescape(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function unwrap(x: unknown): unknown {
  return isLabeled(x) ? unwrap(x.value) : x;
}

/** Wraps the value at `pointer` in `labeled(...)`; false when the pointer names nothing. */
function labelAt(root: { value: unknown }, pointer: string, label: Label): boolean {
  if (pointer !== "" && !pointer.startsWith("/")) return false;
  const tokens = pointer === "" ? [] : pointer.slice(1).split("/").map(unescape);
  let holder: Record<string, unknown> | unknown[] = root as unknown as Record<string, unknown>;
  let key: string | number = "value";
  for (const token of tokens) {
    const next = unwrap((holder as Record<string, unknown>)[key as string]);
    if (Array.isArray(next) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < next.length) {
      holder = next;
      key = Number(token);
    } else if (isObject(next) && Object.prototype.hasOwnProperty.call(next, token)) {
      holder = next;
      key = token;
    } else return false;
  }
  const target = (holder as Record<string, unknown>)[key as string];
  (holder as Record<string, unknown>)[key as string] = labeled(target, label);
  return true;
}

/**
 * Applies a trusted server's part labels to a structured result (deepest first, so a label
 * on a container and one on its item both hold). Entries that are malformed, or point at
 * nothing, taint the whole result instead: what the server meant to label is not known.
 */
export function applyPartLabels(value: unknown, entries: unknown, server: string): { value: unknown; whole?: Label } {
  if (!Array.isArray(entries)) return entries === undefined ? { value } : { value, whole: Label.untrusted(`mcp:${server}`) };
  const root = { value };
  let whole: Label | undefined;
  const sorted = [...entries].sort((a, b) => depth(b) - depth(a));
  for (const entry of sorted) {
    const label = isObject(entry) ? ifcLabel(entry, server) : undefined;
    const ok = label !== undefined && isObject(entry) && typeof entry.pointer === "string" && labelAt(root, entry.pointer, label);
    if (!ok) whole = (whole ?? Label.trusted()).join(Label.untrusted(`mcp:${server}`));
  }
  return whole === undefined ? { value: root.value } : { value: root.value, whole };
}

function depth(entry: unknown): number {
  return isObject(entry) && typeof entry.pointer === "string" ? entry.pointer.split("/").length : 0;
}
