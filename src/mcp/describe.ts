/**
 * What the planner is shown of an MCP tool. Descriptions and schema annotations are text the
 * server wrote, read by the privileged model: an untrusted server's reach the planner only when
 * a person pinned them after seeing them (`sluice mcp pin`) or the configuration gives its own.
 * Until then the planner sees the tool's name and parameter types. A description that names
 * another server's tools (shadowing) is flagged and never shown.
 */
import type { JsonSchema } from "../tools/types.js";
import type { McpPinStatus } from "./types.js";

/** Keywords that carry structure or validation; everything else (descriptions, titles, examples, defaults, vendor keys) is text. */
const STRUCTURAL = new Set([
  "type", "required", "enum", "const", "nullable", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "multipleOf", "$ref",
]);
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions", "patternProperties"]);
const SCHEMA_ONE = new Set(["items", "additionalProperties", "not", "contains", "if", "then", "else", "additionalItems"]);
const SCHEMA_LIST = new Set(["anyOf", "oneOf", "allOf", "prefixItems", "items"]);
/** Annotations the planner may see once a person has reviewed them. */
const TEXTUAL = new Set(["description", "title", "examples", "default", "format", "pattern"]);

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * A copy of `schema` with only the keywords a planner or validator needs; with `keepText`,
 * descriptions, titles, examples, defaults, formats and patterns stay too. `$schema` always
 * goes: validators differ on which dialects they know, and the server checks its own input.
 */
export function cleanSchema(schema: unknown, keepText: boolean, depth = 0): unknown {
  if (typeof schema === "boolean") return schema;
  if (!isObject(schema) || depth > 32) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanSchema(v, keepText, depth + 1)]));
    } else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
      out[key] = value.map((v) => cleanSchema(v, keepText, depth + 1));
    } else if (SCHEMA_ONE.has(key) && (isObject(value) || typeof value === "boolean")) {
      out[key] = cleanSchema(value, keepText, depth + 1);
    } else if (STRUCTURAL.has(key) || (keepText && TEXTUAL.has(key))) {
      out[key] = value;
    }
  }
  return out;
}

/** The parameters schema of a tool: an object schema, whatever the server sent. */
export function parametersOf(inputSchema: unknown, keepText: boolean): JsonSchema {
  const clean = cleanSchema(inputSchema, keepText) as JsonSchema;
  return clean.type === undefined ? { type: "object", ...clean } : clean;
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
