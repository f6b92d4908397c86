/**
 * The part of a server's JSON Schema the planner and the validator are given. Every string in
 * a schema is text the server wrote, read by the privileged model. Until a person has reviewed
 * the tool (or the server is trusted), only structure goes through, and structure is checked so
 * it carries no words: property and definition names must be short plain identifiers, string
 * `enum`/`const` values are shown as their type, keywords that take numbers must hold numbers,
 * `required` names only properties shown, `$ref` points only at a definition shown. Once
 * reviewed, descriptions, titles, examples, defaults, formats and patterns go through as well.
 */
import { Ajv } from "ajv";
import type { JsonSchema } from "../tools/types.js";

/** A property or definition name an unreviewed schema may show: a plain identifier of at most 32 characters. */
export const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const NUMERIC = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "multipleOf"]);
const BOOLEAN = new Set(["uniqueItems", "nullable"]);
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions"]);
const SCHEMA_ONE = new Set(["items", "additionalProperties", "not", "contains", "if", "then", "else", "additionalItems", "propertyNames"]);
const SCHEMA_LIST = new Set(["anyOf", "oneOf", "allOf", "prefixItems", "items"]);
/** Annotations the planner may see once a person has reviewed them. */
const TEXTUAL = new Set(["description", "title", "examples", "default", "format", "pattern"]);
const MAX_DEPTH = 32;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function isType(x: unknown): boolean {
  return (typeof x === "string" && TYPES.has(x)) || (Array.isArray(x) && x.length > 0 && x.every((t) => typeof t === "string" && TYPES.has(t)));
}

/** The JSON type of a literal value, as a schema `type`. */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" ? "number" : typeof value;
}

/** Literals without words (numbers, booleans, null) stay; any string, object or array among them turns the whole set into its types. */
function literals(out: Record<string, unknown>, key: "enum" | "const", value: unknown): void {
  const values = key === "enum" ? (Array.isArray(value) ? value : undefined) : [value];
  if (values === undefined) return;
  if (values.every((v) => v === null || typeof v === "number" || typeof v === "boolean")) {
    out[key] = value;
    return;
  }
  if (out.type !== undefined) return;
  const types = [...new Set(values.map(typeOf))].filter((t) => TYPES.has(t)).sort();
  if (types.length > 0) out.type = types.length === 1 ? types[0] : types;
}

/** A `$ref` an unreviewed schema may keep: to the root or to one of its (plain-named) definitions. */
function plainRef(ref: unknown): boolean {
  if (typeof ref !== "string") return false;
  const m = /^#(?:\/(?:\$defs|definitions)\/(.+))?$/.exec(ref);
  return m !== null && (m[1] === undefined || PLAIN_NAME.test(m[1]));
}

interface Walk {
  keepText: boolean;
  depth: number;
}

function cleanMap(value: Record<string, unknown>, w: Walk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (w.keepText || PLAIN_NAME.test(k)) out[k] = cleanAt(v, { ...w, depth: w.depth + 1 });
  }
  return out;
}

function cleanAt(schema: unknown, w: Walk): unknown {
  if (typeof schema === "boolean") return schema;
  if (!isObject(schema) || w.depth > MAX_DEPTH) return {};
  const out: Record<string, unknown> = {};
  const deeper = { ...w, depth: w.depth + 1 };
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(key) && isObject(value)) out[key] = cleanMap(value, w);
    else if (key === "patternProperties" && w.keepText && isObject(value)) out[key] = cleanMap(value, w);
    else if (SCHEMA_LIST.has(key) && Array.isArray(value)) out[key] = value.map((v) => cleanAt(v, deeper));
    else if (SCHEMA_ONE.has(key) && (isObject(value) || typeof value === "boolean")) out[key] = cleanAt(value, deeper);
    else if (key === "type" && isType(value)) out[key] = value;
    else if (NUMERIC.has(key) && typeof value === "number" && Number.isFinite(value)) out[key] = value;
    else if (BOOLEAN.has(key) && typeof value === "boolean") out[key] = value;
    else if (key === "$ref" && (w.keepText ? typeof value === "string" : plainRef(value))) out[key] = value;
    else if (w.keepText && (key === "enum" || key === "const")) out[key] = value;
    else if (w.keepText && TEXTUAL.has(key)) out[key] = value;
  }
  // Literals after `type`, so a schema's own type wins over the one read off its values.
  if (!w.keepText) for (const key of ["enum", "const"] as const) if (key in schema) literals(out, key, schema[key]);
  const required = schema.required;
  if (Array.isArray(required)) {
    const shown = isObject(out.properties) ? out.properties : undefined;
    const kept = required.filter((r): r is string => typeof r === "string" && (w.keepText || (PLAIN_NAME.test(r) && (shown === undefined || Object.hasOwn(shown, r)))));
    if (kept.length > 0 || w.keepText) out.required = kept;
  }
  return out;
}

/**
 * A copy of `schema` with only the keywords a planner or validator needs, checked as the module
 * comment says; with `keepText` (a reviewed or trusted tool), names and literals as they are,
 * and descriptions, titles, examples, defaults, formats and patterns too. `$schema` always goes:
 * validators differ on which dialects they know, and the server checks its own input.
 */
export function cleanSchema(schema: unknown, keepText: boolean): unknown {
  return cleanAt(schema, { keepText, depth: 0 });
}

/** The parameters schema of a tool: an object schema, whatever the server sent. */
export function parametersOf(inputSchema: unknown, keepText: boolean): JsonSchema {
  const clean = cleanSchema(inputSchema, keepText) as JsonSchema;
  return clean.type === undefined ? { type: "object", ...clean } : clean;
}

const ajv = new Ajv({ allErrors: true, strict: false });

/** True when the runtime's validator can compile `schema`; a server's schema is not taken on trust. */
export function compiles(schema: JsonSchema): boolean {
  try {
    ajv.compile(schema);
    return true;
  } catch {
    return false;
  }
}

/**
 * The output schema the SDK's client may check a result against: structure only, so no
 * `pattern` a server wrote runs on sluice's event loop (a regular expression with catastrophic
 * backtracking would freeze every run, and no timeout fires while it runs); none when even
 * that does not compile, as the SDK would refuse the call.
 */
export function checkableOutput(outputSchema: unknown): JsonSchema | undefined {
  if (outputSchema === undefined) return undefined;
  const clean = cleanSchema(outputSchema, false) as JsonSchema;
  return compiles(clean) ? clean : undefined;
}
