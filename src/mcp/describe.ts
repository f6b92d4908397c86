/**
 * What the planner is shown of an MCP tool. Descriptions and schema annotations are text the
 * server wrote, read by the privileged model: an untrusted server's reach the planner only when
 * a person pinned them after seeing them (`sluice mcp pin`) or the configuration gives its own.
 * Until then the planner sees the tool's name and parameter types (schema.ts). A description that names
 * another server's tools (shadowing) is flagged and never shown.
 */
import type { McpPinStatus } from "./types.js";

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Every string in a tool's description and schema, where a poisoned instruction could hide. */
function textsOf(description: string, schema: unknown): string[] {
  const out = [description];
  const walk = (x: unknown, depth: number): void => {
    if (depth > 32) return;
    if (typeof x === "string") out.push(x);
    else if (Array.isArray(x)) x.forEach((v) => walk(v, depth + 1));
    else if (isObject(x)) for (const [k, v] of Object.entries(x)) (out.push(k), walk(v, depth + 1));
  };
  walk(schema, 0);
  return out;
}

/** Characters a model reads and a person reviewing the tool does not see: format characters (tags, zero-width, bidi) and variation selectors. */
const INVISIBLE = /[\p{Cf}\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;

/** The invisible characters in a tool's description and schema (at most five, as U+XXXX), so the tool can be flagged. */
export function invisibleIn(description: string, schema: unknown): string[] {
  const found = new Set<string>();
  for (const text of textsOf(description, schema)) {
    for (const m of text.matchAll(INVISIBLE)) {
      found.add(`U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
      if (found.size >= 5) return [...found];
    }
  }
  return [...found];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Names distinctive enough that a mention is no accident: sluice names, and server names with a separator. */
function distinctive(name: string): boolean {
  return name.length >= 6 && /[_-]/.test(name);
}

/**
 * A tool name as words, so `read_text_file`, `readTextFile` and `read-text-file` read alike,
 * and with `spaces` "read text file" too (for a server's own distinctive tool names; a sluice
 * name such as `files_list` spelled with spaces is ordinary English).
 */
function namePattern(name: string, spaces: boolean): string {
  const words = name.split(/[\s_.-]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== "");
  return words.map(escape).join(spaces ? "[\\s_.-]*" : "[_.-]?");
}

/** Text as a model reads it: compatibility forms folded (full-width letters, ligatures), invisible characters gone. */
function folded(text: string): string {
  return text.normalize("NFKC").replace(INVISIBLE, "");
}

/** Finds other servers' tools in a text; built once for a set of tools. */
export type ShadowMatcher = (description: string, schema: unknown) => string[];

/**
 * A matcher for the tools in `others`: by sluice name, or by their own name when it is
 * distinctive, in any spelling of its words. A heuristic: homoglyphs and paraphrases pass it;
 * the person's review is the control.
 */
export function shadowMatcher(others: ReadonlyArray<{ name: string; tool: string }>): ShadowMatcher {
  const patterns = others.map((other) => {
    const candidates = [namePattern(other.name, false), ...(distinctive(other.tool) ? [namePattern(other.tool, true)] : [])];
    return { name: other.name, re: new RegExp(`(^|[^A-Za-z0-9_])(${candidates.join("|")})($|[^A-Za-z0-9_])`, "iu") };
  });
  return (description, schema) => {
    if (patterns.length === 0) return [];
    const text = folded(textsOf(description, schema).join("\n"));
    return [...new Set(patterns.filter((p) => p.re.test(text)).map((p) => p.name))].sort();
  };
}

/**
 * The other servers' tools a description or schema names, e.g. `files_read_text_file` or
 * `read_text_file` in a notes server's description (shadowing: one server steering how the
 * planner uses another's tools).
 */
export function namedTools(description: string, schema: unknown, others: ReadonlyArray<{ name: string; tool: string }>): string[] {
  return shadowMatcher(others)(description, schema);
}

/** What the planner is told about one tool, and where the text came from. */
export interface PlannerView {
  description: string;
  source: "server" | "config" | "none";
  /** Whether schema annotations (descriptions, examples, ...) are shown. */
  schemaText: boolean;
}

/** Decides what the planner sees of a tool. */
export function plannerView(input: {
  server: string;
  trusted: boolean;
  serverDescription: string;
  configDescription?: string;
  pin: McpPinStatus;
  flagged: boolean;
}): PlannerView {
  if (input.pin === "changed") {
    return { description: `Refused: this tool of the MCP server ${input.server} changed since it was pinned; its calls are denied until a person pins it again.`, source: "none", schemaText: false };
  }
  const reviewed = input.trusted || input.pin === "reviewed";
  if (input.configDescription !== undefined) return { description: input.configDescription, source: "config", schemaText: reviewed && !input.flagged };
  if (reviewed && !input.flagged) return { description: input.serverDescription, source: "server", schemaText: true };
  const why = input.flagged ? "it is flagged (it names other servers' tools, or holds invisible characters)" : "it is untrusted and no person has pinned it";
  return { description: `A tool of the MCP server ${input.server} (its description is not shown: ${why}).`, source: "none", schemaText: false };
}
