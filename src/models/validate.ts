import { RE2JS } from "re2js";
import { createProgramSchemas, type FormatCheck } from "../tools/schema.js";
import type { JsonSchema } from "../tools/types.js";

/** The outcome of checking a value against a JSON Schema. */
export type Validation = { ok: true } | { ok: false; errors: string };

/** Checks values against JSON Schemas; compiled schemas are cached by their canonical JSON. */
export interface SchemaValidator {
  /** Throws a TypeError naming the problem when `schema` is not a usable JSON Schema. */
  check(schema: JsonSchema): void;
  /** Checks `value` against `schema`. */
  validate(schema: JsonSchema, value: unknown): Validation;
}

function re2(pattern: string): FormatCheck {
  const re = RE2JS.compile(pattern, 0);
  return (s) => re.test(s);
}

const DURATION = re2("^P(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$");
const HOST_LABELS = re2("^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$");

// ajv-formats is not a dependency; these cover the formats the structured-output API accepts.
// They run on RE2 like every pattern, so a long answer cannot make a check slow.
const FORMATS: Record<string, FormatCheck> = {
  email: re2("^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$"),
  uri: re2("^[a-zA-Z][a-zA-Z0-9+.-]*:[^\\s]*$"),
  "date-time": re2("^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})?$"),
  date: re2("^\\d{4}-\\d{2}-\\d{2}$"),
  time: re2("^\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})?$"),
  // At least one part, and a T only before a time part.
  duration: (s) => s !== "P" && !s.endsWith("T") && DURATION(s),
  hostname: (s) => s.length >= 1 && s.length <= 253 && HOST_LABELS(s),
  ipv4: re2("^(?:(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)$"),
  ipv6: re2("^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$"),
  uuid: re2("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
};

/**
 * Makes a validator for schemas programs wrote: patterns on RE2, one Ajv instance per schema
 * (no `$id` registry shared with any other schema), a cache of its own. Unknown formats are
 * accepted unchecked rather than refused.
 */
export function createSchemaValidator(): SchemaValidator {
  const schemas = createProgramSchemas({ formats: FORMATS });
  return {
    check(schema) {
      schemas.compile(schema);
    },
    validate(schema, value) {
      return schemas.compile(schema).check(value, "answer");
    },
  };
}
