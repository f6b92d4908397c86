/** Canonical JSON: object keys sorted, so equal values give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value, []));
}

/** `seen`: the objects above this one (a cycle check; a stack, as the depth is small and a Set per call is not free). */
function normalize(value: unknown, seen: object[]): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`not a JSON value: ${value}`);
    return value;
  }
  if (typeof value !== "object") throw new TypeError(`not a JSON value: ${typeof value}`);
  if (seen.includes(value)) throw new TypeError("not a JSON value: it contains a cycle");
  seen.push(value);
  const out = Array.isArray(value)
    ? value.map((v) => normalize(v, seen))
    : Object.fromEntries(
        Object.keys(value)
          .sort()
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, normalize((value as Record<string, unknown>)[k], seen)]),
      );
  seen.pop();
  return out;
}
