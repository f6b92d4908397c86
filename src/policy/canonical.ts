/** Canonical JSON: object keys sorted, so equal values give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value, new Set()));
}

function normalize(value: unknown, seen: Set<object>): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`not a JSON value: ${value}`);
    return value;
  }
  if (typeof value !== "object") throw new TypeError(`not a JSON value: ${typeof value}`);
  if (seen.has(value)) throw new TypeError("not a JSON value: it contains a cycle");
  seen.add(value);
  const out = Array.isArray(value)
    ? value.map((v) => normalize(v, seen))
    : Object.fromEntries(
        Object.keys(value)
          .sort()
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, normalize((value as Record<string, unknown>)[k], seen)]),
      );
  seen.delete(value);
  return out;
}
