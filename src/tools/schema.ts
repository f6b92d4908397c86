/**
 * JSON Schemas, compiled so that no schema can hurt the host or another schema: every
 * `pattern` (and `patternProperties`, `propertyNames.pattern`) runs on RE2, in linear time;
 * each schema gets an Ajv instance of its own, so an `$id` one schema declares is seen by no
 * other; async schemas are refused (their validators always "pass"); and schemas a program
 * wrote are capped in size and may name only the draft-07 meta-schema. A schema that cannot be
 * used is a {@link SchemaError} naming why, never a throw from deep inside Ajv.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { RE2JS } from "re2js";
import type { JsonSchema } from "./types.js";

/** A schema that cannot be compiled, with the reason in words. */
export class SchemaError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = "SchemaError";
  }
}

/** The outcome of checking a value against a schema. */
export type SchemaCheck = { ok: true } | { ok: false; errors: string };

/** A compiled schema. */
export interface CompiledSchema {
  /** Checks `value`; `dataVar` names the value in the error text (`"args"`, `"answer"`). */
  check(value: unknown, dataVar?: string): SchemaCheck;
}

/** A format check: true when the string is in the format. */
export type FormatCheck = (s: string) => boolean;

/** Longest canonical JSON of a schema a program wrote, in characters. */
export const MAX_PROGRAM_SCHEMA = 100_000;

/** Longest error text a check returns; Ajv's text can quote long keys. */
const MAX_ERROR_TEXT = 500;

const DRAFT_07 = new Set(["http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-07/schema#"]);

/** Ajv's regular-expression engine, on RE2. A pattern RE2 cannot run is refused. */
const re2Engine = Object.assign(
  (pattern: string): { test(s: string): boolean; toString(): string } => {
    let re: RE2JS;
    try {
      re = RE2JS.compile(RE2JS.translateRegExp(pattern), 0);
    } catch (err) {
      const why = err instanceof Error ? err.message : "it does not compile";
      throw new SchemaError(`the pattern ${JSON.stringify(short(pattern))} cannot run on RE2 (${short(why)}); backreferences and lookaround cannot run in linear time, rewrite without them`);
    }
    // Ajv shares compiled patterns by this text, so it must tell patterns apart.
    return { test: (s: string) => re.test(s), toString: () => `re2:${pattern}` };
  },
  { code: "sluiceRe2" },
);

function short(text: string, max = 120): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

function newAjv(formats: Readonly<Record<string, FormatCheck>> | undefined): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    strict: false,
    logger: false,
    // Checked once against one shared meta-schema validator instead, which is far cheaper.
    validateSchema: false,
    // `required` and friends see own properties only, whatever a prototype holds.
    ownProperties: true,
    validateFormats: formats !== undefined,
    code: { regExp: re2Engine },
  });
  for (const [name, check] of Object.entries(formats ?? {})) ajv.addFormat(name, check);
  return ajv;
}

let metaAjv: Ajv | undefined;
let metaValidator: ValidateFunction | undefined;

/** The draft-07 meta-schema, compiled once: validating a schema against it changes nothing. */
function meta(): { ajv: Ajv; fn: ValidateFunction } {
  if (metaAjv === undefined || metaValidator === undefined) {
    metaAjv = new Ajv({ strict: false, logger: false, allErrors: false, code: { regExp: re2Engine } });
    metaValidator = metaAjv.getSchema("http://json-schema.org/draft-07/schema")!;
  }
  return { ajv: metaAjv, fn: metaValidator };
}

function errorText(ajv: Ajv, fn: ValidateFunction, dataVar: string): string {
  return short(ajv.errorsText(fn.errors, { dataVar }), MAX_ERROR_TEXT);
}

/** Compiles `schema` in an Ajv instance of its own. Throws {@link SchemaError}. */
function compileAlone(schema: JsonSchema, formats: Readonly<Record<string, FormatCheck>> | undefined): CompiledSchema {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) throw new SchemaError("the schema must be a JSON Schema object");
  const m = meta();
  if (!m.fn(schema)) throw new SchemaError(`invalid JSON Schema: ${errorText(m.ajv, m.fn, "schema")}`);
  const ajv = newAjv(formats);
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(schema);
  } catch (err) {
    if (err instanceof SchemaError) throw err;
    if (err instanceof RangeError) throw new SchemaError("the schema nests too deeply to compile");
    throw new SchemaError(`invalid JSON Schema: ${short(err instanceof Error ? err.message : "it does not compile", MAX_ERROR_TEXT)}`);
  }
  if ((fn as { $async?: unknown }).$async === true) throw new SchemaError("async schemas ($async) are not supported: their validation never fails synchronously");
  return {
    check(value, dataVar = "data") {
      let ok: boolean;
      try {
        ok = fn(value) === true;
      } catch (err) {
        return { ok: false, errors: err instanceof RangeError ? `${dataVar} nests too deeply to check` : `${dataVar} could not be checked` };
      }
      return ok ? { ok: true } : { ok: false, errors: errorText(ajv, fn, dataVar) };
    },
  };
}

/** Canonical JSON: equal schemas, however their keys were ordered, get the same cache key. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : v,
  );
}

function keyOf(schema: JsonSchema): string {
  try {
    return canonical(schema);
  } catch (err) {
    throw new SchemaError(`the schema is not JSON (${short(err instanceof Error ? err.message : "it cannot be serialised")})`);
  }
}

/**
 * Host-written schemas (tool parameters) compiled once per process, by content: what a
 * program does never enters this cache, and equal schemas compile to the same checks.
 */
const hostSchemas = new Map<string, CompiledSchema>();
const MAX_HOST_SCHEMAS = 1024;

/** Compiles a schema the host wrote (a tool's parameters). Throws {@link SchemaError}. */
export function compileHostSchema(schema: JsonSchema): CompiledSchema {
  const key = keyOf(schema);
  let compiled = hostSchemas.get(key);
  if (compiled === undefined) {
    compiled = compileAlone(schema, undefined);
    if (hostSchemas.size >= MAX_HOST_SCHEMAS) hostSchemas.clear();
    hostSchemas.set(key, compiled);
  }
  return compiled;
}

/** Compiles schemas programs wrote; one per runtime or reader, so none sees another's cache. */
export interface ProgramSchemas {
  /** Compiles `schema`; throws {@link SchemaError} naming the problem. */
  compile(schema: JsonSchema): CompiledSchema;
}

/** Options of {@link createProgramSchemas}. */
export interface ProgramSchemaOptions {
  /** Formats to check (`format: "email"`); without it, formats are not checked. */
  formats?: Readonly<Record<string, FormatCheck>>;
  /** Compiled schemas kept. Default 64. */
  cacheSize?: number;
}

/** A compiler of program-written schemas with a cache of its own. */
export function createProgramSchemas(options: ProgramSchemaOptions = {}): ProgramSchemas {
  const cache = new Map<string, CompiledSchema>();
  const size = options.cacheSize ?? 64;
  return {
    compile(schema) {
      if (schema === null || typeof schema !== "object" || Array.isArray(schema)) throw new SchemaError("the schema must be a JSON Schema object");
      const key = keyOf(schema);
      if (key.length > MAX_PROGRAM_SCHEMA) throw new SchemaError(`the schema is ${key.length} characters of JSON, more than the ${MAX_PROGRAM_SCHEMA} a program's schema may have`);
      const named = (schema as { $schema?: unknown }).$schema;
      if (named !== undefined && !(typeof named === "string" && DRAFT_07.has(named))) {
        throw new SchemaError(`$schema names ${JSON.stringify(short(String(named)))}; schemas in programs are JSON Schema draft-07: leave $schema out`);
      }
      let compiled = cache.get(key);
      if (compiled === undefined) {
        compiled = compileAlone(schema, options.formats);
        if (cache.size >= size) cache.delete(cache.keys().next().value as string);
        cache.set(key, compiled);
      }
      return compiled;
    },
  };
}
