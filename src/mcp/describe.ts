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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Names distinctive enough that a mention is no accident: sluice names, and server names with a separator. */
function distinctive(name: string): boolean {
  return name.length >= 6 && /[_-]/.test(name);
}

/**
 * The other servers' tools a description or schema names, e.g. `files_read_text_file` or
 * `read_text_file` in a notes server's description (shadowing: one server steering how the
 * planner uses another's tools).
 */
export function namedTools(description: string, schema: unknown, others: ReadonlyArray<{ name: string; tool: string }>): string[] {
  const text = textsOf(description, schema).join("\n");
  const found = new Set<string>();
  for (const other of others) {
    for (const candidate of [other.name, other.tool]) {
      if (candidate === other.tool && !distinctive(candidate)) continue;
      if (new RegExp(`(^|[^A-Za-z0-9_])${escape(candidate)}($|[^A-Za-z0-9_])`, "i").test(text)) found.add(other.name);
    }
  }
  return [...found].sort();
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
  const why = input.flagged ? "its description names other servers' tools" : "it is untrusted and no person has pinned it";
  return { description: `A tool of the MCP server ${input.server} (its description is not shown: ${why}).`, source: "none", schemaText: false };
}
