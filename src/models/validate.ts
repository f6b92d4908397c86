import { Ajv, type ValidateFunction } from "ajv";
import { canonicalJson } from "./canonical.js";
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

// ajv-formats is not a dependency; these cover the formats the structured-output API accepts.
const FORMATS: Record<string, RegExp> = {
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/,
  "date-time": /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  duration: /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
  hostname: /^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/,
  ipv4: /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/,
  ipv6: /^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
};

const MAX_CACHED = 256;

/** Makes a validator. Unknown formats are accepted unchecked rather than refused. */
export function createSchemaValidator(): SchemaValidator {
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false, validateFormats: true });
  for (const [name, pattern] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);
  const cache = new Map<string, ValidateFunction>();

  function compile(schema: JsonSchema): ValidateFunction {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
      throw new TypeError("the schema must be a JSON Schema object");
    }
    const key = canonicalJson(schema);
    let fn = cache.get(key);
    if (fn === undefined) {
      try {
        fn = ajv.compile(schema);
      } catch (err) {
        throw new TypeError(`invalid JSON Schema: ${(err as Error).message}`);
      }
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(key, fn);
    }
    return fn;
  }

  return {
    check(schema) {
      compile(schema);
    },
    validate(schema, value) {
      const fn = compile(schema);
      if (fn(value)) return { ok: true };
      return { ok: false, errors: ajv.errorsText(fn.errors, { dataVar: "answer" }) };
    },
  };
}
