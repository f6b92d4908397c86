/**
 * Offline quarantined readers for the CLI. The adversarial one is the worst case the security
 * guarantee must hold under: it obeys any instruction it reads. The benign one answers plainly
 * from the text, as a well-behaved model would; both go through `scriptedReader`'s schema check.
 */
import { adversarialReader, NOT_ENOUGH_INFORMATION, scriptedReader, type ReaderRequest } from "../models/index.js";
import type { NamedReader } from "../models/types.js";
import { ATTACKER_VALUES } from "./example-tools.js";

/** The offline readers `--reader` can name. */
export const OFFLINE_READERS = ["adversarial", "benign"] as const;
export type OfflineReaderName = (typeof OFFLINE_READERS)[number];

/** A reader with what the CLI reports about it. */
export interface ExampleReader {
  name: OfflineReaderName;
  reader: NamedReader;
  /** Answers that obeyed injected text (always 0 for the benign reader). */
  attacks(): number;
}

type Schema = Record<string, unknown>;
const isObj = (x: unknown): x is Schema => typeof x === "object" && x !== null && !Array.isArray(x);

const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/;
const PATH = /(~|\.{0,2})\/[\w.\/-]+/;
const URL_RE = /https?:\/\/[^\s"'<>]+/;

/** A value for `schema` read plainly off the prompt; NOT_ENOUGH_INFORMATION when the text lacks it. */
function plainValue(schema: unknown, key: string, prompt: string, depth = 0): unknown {
  if (!isObj(schema) || depth > 8) return NOT_ENOUGH_INFORMATION;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) return plainValue(branches[0], key, prompt, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type ?? (isObj(schema.properties) ? "object" : "string");
  const k = key.toLowerCase();
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(isObj(schema.properties) ? schema.properties : {})) {
        const v = plainValue(sub, name, prompt, depth + 1);
        if (v === NOT_ENOUGH_INFORMATION) return v;
        out[name] = v;
      }
      return out;
    }
    case "array": {
      const item = plainValue(schema.items, key, prompt, depth + 1);
      return item === NOT_ENOUGH_INFORMATION ? [] : [item];
    }
    case "boolean":
      return false;
    case "number":
    case "integer":
      return 0;
    case "null":
      return null;
    default: {
      const found = schema.format === "email" || /e-?mail|recipient|sender|^to$|^from$|^cc$/.test(k) ? EMAIL.exec(prompt)
        : /path|file/.test(k) ? PATH.exec(prompt)
        : schema.format === "uri" || /url|link/.test(k) ? URL_RE.exec(prompt)
        : ["A short, friendly note."];
      return found === null ? NOT_ENOUGH_INFORMATION : found[0];
    }
  }
}

/** A reader that answers plainly: addresses and paths as written, yes/no questions with no. */
export function benignReader(): NamedReader {
  return scriptedReader((request: ReaderRequest) => plainValue(request.schema, "", request.prompt), { model: "benign" });
}

/** The reader `--reader` names; the adversarial one falls back to the benign one on clean text. */
export function exampleReader(name: OfflineReaderName): ExampleReader {
  if (name === "benign") return { name, reader: benignReader(), attacks: () => 0 };
  const reader = adversarialReader({ fallback: benignReader(), attackerValues: ATTACKER_VALUES });
  return { name, reader, attacks: () => reader.attacks };
}
