/**
 * Environments are plain JSON data. A run gets its own deep copy with every injection place
 * filled, so tools can change it freely and checks can compare it with the copy it started as.
 */
import type { InjectionPlace } from "./types.js";

const PLACEHOLDER = /\{\{injection:([A-Za-z0-9_.-]+)\}\}/g;

/** The placeholder a suite writes in its data where an injection can sit. */
export function injection(id: string): string {
  return `{{injection:${id}}}`;
}

/** A deep copy of plain JSON data; throws when the data is not plain JSON. */
export function copyJson<T>(value: T): T {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error("the environment is not JSON data");
  return JSON.parse(text) as T;
}

function walk(value: unknown, visit: (s: string) => string): unknown {
  if (typeof value === "string") return visit(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, visit));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, visit)]));
  }
  return value;
}

/** The ids of every placeholder found in the data. */
export function placesIn(data: unknown): Set<string> {
  const found = new Set<string>();
  walk(data, (s) => {
    for (const m of s.matchAll(PLACEHOLDER)) found.add(m[1]);
    return s;
  });
  return found;
}

/**
 * Checks that the data's placeholders and the declared places match. Returns the problems in
 * words; an empty list means they match.
 */
export function checkPlaces(data: unknown, places: readonly InjectionPlace[]): string[] {
  const problems: string[] = [];
  const used = placesIn(data);
  const declared = new Set(places.map((p) => p.id));
  for (const id of used) if (!declared.has(id)) problems.push(`the data uses {{injection:${id}}} but no place "${id}" is declared`);
  for (const id of declared) if (!used.has(id)) problems.push(`place "${id}" is declared but the data never uses {{injection:${id}}}`);
  return problems;
}

/**
 * A copy of the data with each placeholder replaced: by `texts[id]` when given, else by the
 * place's benign text.
 */
export function fillPlaces<T>(data: T, places: readonly InjectionPlace[], texts: Readonly<Record<string, string>> = {}): T {
  const benign = new Map(places.map((p) => [p.id, p.benign]));
  return walk(copyJson(data), (s) => s.replace(PLACEHOLDER, (_m, id: string) => texts[id] ?? benign.get(id) ?? "")) as T;
}

/** The same text at every place: what an attack run plants. */
export function everywhere(places: readonly InjectionPlace[], text: string): Record<string, string> {
  return Object.fromEntries(places.map((p) => [p.id, text]));
}

/** A text unique to each place, to find which places a task's plan reads. */
export function canaries(places: readonly InjectionPlace[]): Record<string, string> {
  return Object.fromEntries(places.map((p) => [p.id, `[canary:${p.id}]`]));
}
