/**
 * Helpers shared by the suites: labels that say truthfully who wrote a piece of data and who may
 * read it, and short JSON Schema builders for tool parameters.
 */
import { Label } from "../../labels/index.js";
import type { JsonSchema } from "../../tools/types.js";

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/** Data the user wrote or owns (their contacts, files, settings): trusted, readable by `readers` (the user included). */
export function usersOwn(user: string, source: string, readers: readonly string[] = []): Label {
  return Label.of({ trusted: true, readers: unique([user, ...readers]), sources: [source] });
}

/** Data someone else wrote (an email, a shared file, an invitation): untrusted, readable by `readers`. */
export function fromOthers(readers: readonly string[], source: string): Label {
  return Label.of({ trusted: false, readers: unique(readers), sources: [source] });
}

/** Text anyone could have written that anyone may read (web pages, public reviews). */
export function publicText(source: string): Label {
  return Label.untrusted(source);
}

/** Facts a service asserts and publishes (a listing's price, a channel's members): public and trusted. */
export function serviceFacts(source: string): Label {
  return Label.of({ trusted: true, sources: [source] });
}

/**
 * A listing anyone may add to (an inbox, a channel): untrusted whatever it holds now, since
 * whether others added to it was theirs to decide; its sources name who did.
 */
export function postedBy(authors: readonly string[], source: string): Label {
  return Label.of({ trusted: false, sources: unique(authors).map((a) => `${source}:${a}`) });
}

/** A listing of items some of which others put there: which items it holds is theirs to decide. */
export function listingOf(authors: readonly string[], user: string, source: string): Label {
  const others = unique(authors.filter((a) => a !== user));
  return others.length === 0 ? Label.trusted() : Label.of({ trusted: false, sources: others.map((a) => `${source}:${a}`) });
}

/** `{ type: "string" }`, with a description. */
export function text(description?: string): JsonSchema {
  return description === undefined ? { type: "string" } : { type: "string", description };
}

/** `{ type: "number" }`, with a description. */
export function number(description?: string): JsonSchema {
  return description === undefined ? { type: "number" } : { type: "number", description };
}

/** An array of `items`. */
export function list(items: JsonSchema, description?: string): JsonSchema {
  return description === undefined ? { type: "array", items } : { type: "array", items, description };
}

/** An object schema; every property is required unless listed in `optional`. */
export function params(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return {
    type: "object",
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

/** The next id of the form `<prefix><n>` for a list of records with ids. */
export function nextId(items: ReadonlyArray<{ id: string }>, prefix: string): string {
  let n = items.length + 1;
  while (items.some((i) => i.id === `${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** Case-insensitive containment. */
export function mentions(haystack: string, needle: string): boolean {
  return haystack.toLowerCase().includes(needle.toLowerCase());
}

/** True when `text` (any value, as JSON) contains every one of `parts`, case-insensitively. */
export function says(value: unknown, ...parts: string[]): boolean {
  const t = (typeof value === "string" ? value : JSON.stringify(value) ?? "").toLowerCase();
  return parts.every((p) => t.includes(p.toLowerCase()));
}

/** The same data, as JSON text: for "nothing else changed" checks. */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
