import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every level and no whitespace, so that two requests that
 * mean the same thing hash the same whatever order their keys were built in.
 * `undefined` members are dropped, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, new Set()));
}

function sortKeys(value: unknown, seen: Set<object>): unknown {
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) throw new TypeError("canonicalJson: the value contains a cycle");
  seen.add(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((v) => (v === undefined ? null : sortKeys(v, seen)));
  else {
    const obj: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined && typeof v !== "function") obj[key] = sortKeys(v, seen);
    }
    out = obj;
  }
  seen.delete(value);
  return out;
}

/** Hex sha256 of the canonical JSON of `value`. */
export function hashRequest(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}
