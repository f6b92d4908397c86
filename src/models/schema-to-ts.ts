/**
 * JSON Schema -> TypeScript type text, for the planner's prompt. Small and deterministic: the
 * same schema always gives the same bytes, so the prompt stays cacheable. It covers what tool
 * schemas use (types, properties, required, items, tuples, enum, const, anyOf/oneOf/allOf,
 * additionalProperties, local $ref); anything else degrades to `unknown`, never to an error.
 */

type Schema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_DEPTH = 12;

interface Ctx {
  root: unknown;
  refs: readonly string[];
  depth: number;
}

function isObject(x: unknown): x is Schema {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A JSDoc comment for `text`, indented; empty when there is nothing to say. */
export function docComment(lines: readonly string[], indent: string): string {
  const clean = lines
    .flatMap((l) => l.split(/\r?\n/))
    .map((l) => l.replace(/\*\//g, "*\\/").trimEnd())
    .filter((l, i, all) => l.trim() !== "" || (i > 0 && i < all.length - 1));
  if (clean.length === 0) return "";
  if (clean.length === 1) return `${indent}/** ${clean[0].trim()} */\n`;
  return `${indent}/**\n${clean.map((l) => `${indent} *${l ? " " + l : ""}`).join("\n")}\n${indent} */\n`;
}

function literal(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  return "unknown";
}

function union(parts: readonly string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !type.startsWith("{") ? `(${type})` : type;
}

function resolveRef(ref: string, ctx: Ctx): unknown {
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (m === null || !isObject(ctx.root)) return undefined;
  const defs = ctx.root[m[1]];
  return isObject(defs) ? defs[decodeURIComponent(m[2])] : undefined;
}

/** Constraints a type cannot express, for the property's doc comment. */
export function constraintNotes(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const notes: string[] = [];
  const keys = ["format", "pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "default"];
  for (const key of keys) if (schema[key] !== undefined) notes.push(`${key}: ${JSON.stringify(schema[key])}`);
  if (schema.type === "integer") notes.push("integer");
  return notes;
}

function describe(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const lines: string[] = [];
  if (typeof schema.description === "string") lines.push(schema.description);
  const notes = constraintNotes(schema);
  if (notes.length) lines.push(`(${notes.join(", ")})`);
  return lines;
}

function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function objectType(schema: Schema, indent: string, ctx: Ctx): string {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  const inner = indent + "  ";
  let body = "";
  for (const [name, sub] of Object.entries(props)) {
    body += docComment(describe(sub), inner);
    body += `${inner}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${typeText(sub, inner, ctx)};\n`;
  }
  const extra = schema.additionalProperties;
  // Open objects with declared members stay closed in the prompt: the planner should pass only
  // what is declared. A bare `{ type: "object" }` really is a free-form map.
  if (isObject(extra) || extra === true || (extra === undefined && schema.properties === undefined)) {
    const valueType = isObject(extra) ? typeText(extra, inner, ctx) : "unknown";
    body += `${inner}[key: string]: ${valueType};\n`;
  }
  return body === "" ? "{}" : `{\n${body}${indent}}`;
}

function arrayType(schema: Schema, indent: string, ctx: Ctx): string {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple !== undefined) return `[${tuple.map((s) => typeText(s, indent, ctx)).join(", ")}]`;
  const item = schema.items === undefined ? "unknown" : typeText(schema.items, indent, ctx);
  return /[|&\n]/.test(item) ? `Array<${item}>` : `${item}[]`;
}

function singleType(type: unknown, schema: Schema, indent: string, ctx: Ctx): string {
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return arrayType(schema, indent, ctx);
    case "object":
      return objectType(schema, indent, ctx);
    default:
      return "unknown";
  }
}

function combinator(schema: Schema, indent: string, ctx: Ctx): string | undefined {
  const anyOf = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (anyOf !== undefined) return union(anyOf.map((s) => typeText(s, indent, ctx)));
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((s) => typeText(s, indent, ctx)).filter((t) => t !== "unknown");
    return parts.length === 0 ? "unknown" : [...new Set(parts)].map(wrap).join(" & ");
  }
  return undefined;
}

function inferType(schema: Schema): unknown {
  if (schema.type !== undefined) return schema.type;
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return "object";
  if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
  return undefined;
}

/** The TypeScript type text of `schema`; nested objects are indented from `indent`. */
export function typeText(schema: unknown, indent = "", ctx?: Ctx): string {
  const c: Ctx = ctx ?? { root: schema, refs: [], depth: 0 };
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (!isObject(schema) || c.depth > MAX_DEPTH) return "unknown";
  const next: Ctx = { ...c, depth: c.depth + 1 };
  if (typeof schema.$ref === "string") {
    if (c.refs.includes(schema.$ref)) return "unknown";
    const target = resolveRef(schema.$ref, c);
    return target === undefined ? "unknown" : typeText(target, indent, { ...next, refs: [...c.refs, schema.$ref] });
  }
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const combined = combinator(schema, indent, next);
  if (combined !== undefined) return combined;
  const type = inferType(schema);
  let text: string;
  if (Array.isArray(type)) text = union(type.map((t) => singleType(t, schema, indent, next)));
  else text = singleType(type, schema, indent, next);
  if (schema.nullable === true && text !== "unknown") text = union([text, "null"]);
  return text;
}
