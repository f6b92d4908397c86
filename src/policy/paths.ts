/**
 * Dotted argument paths (`"to"`, `"recipients.0"`, `"event.attendees"`), the way policies
 * name the argument they guard.
 */
import { escapeInvisible, quoteData } from "./describe.js";

function step(value: unknown, key: string): { found: boolean; value?: unknown } {
  if (Array.isArray(value)) {
    if (!/^(0|[1-9]\d*)$/.test(key)) return { found: false };
    const i = Number(key);
    return i < value.length ? { found: true, value: value[i] } : { found: false };
  }
  if (value !== null && typeof value === "object" && Object.prototype.hasOwnProperty.call(value, key)) {
    return { found: true, value: (value as Record<string, unknown>)[key] };
  }
  return { found: false };
}

/** The value at `path`, and whether it exists; `undefined`-valued keys count as absent. */
export function lookup(args: unknown, path: string): { found: boolean; value?: unknown } {
  let current: unknown = args;
  for (const key of path.split(".")) {
    const next = step(current, key);
    if (!next.found || next.value === undefined) return { found: false };
    current = next.value;
  }
  return { found: true, value: current };
}

/** True when `args` has a value at `path`. A missing argument carries no data, so rules skip it. */
export function hasPath(args: unknown, path: string): boolean {
  return lookup(args, path).found;
}

/** The longest prefix of `path` that exists in `args`; `undefined` means the root. */
export function nearestExisting(args: unknown, path: string): string | undefined {
  const keys = path.split(".");
  for (let n = keys.length; n > 0; n--) {
    const prefix = keys.slice(0, n).join(".");
    if (hasPath(args, prefix)) return prefix;
  }
  return undefined;
}

/** True when `path` is `ancestor` or lies inside it. `undefined` is the root, above everything. */
export function isWithin(path: string, ancestor: string | undefined): boolean {
  return ancestor === undefined || path === ancestor || path.startsWith(ancestor + ".");
}

const PREVIEW_LIMIT = 60;

/** Longest rendering of one value (or one element of a list) in an approval prompt. */
const SHOWN_LIMIT = 400;
/** Elements of a list shown one by one in an approval prompt; the rest are counted. */
const SHOWN_ELEMENTS = 50;

/**
 * The first part of a value, enough for a preview of `budget` characters: long strings, arrays
 * and objects are cut before they are serialised, so previewing an argument of 800,000
 * elements costs as much as previewing one of eight.
 */
function small(value: unknown, budget: number): unknown {
  if (typeof value === "string") return value.length > budget ? value.slice(0, budget) : value;
  if (value === null || typeof value !== "object") return value;
  if (budget <= 0) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.slice(0, budget).map((v) => small(v, budget / 2));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).slice(0, budget)) Object.defineProperty(out, k, { value: small((value as Record<string, unknown>)[k], budget / 2), enumerable: true });
  return out;
}

/** A short, one-line rendering of a value for reasons and prompts. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(small(value, PREVIEW_LIMIT)) ?? String(value);
  } catch {
    text = "(a value that cannot be shown)";
  }
  text = escapeInvisible(text.replace(/\s+/g, " "));
  return text.length > PREVIEW_LIMIT ? text.slice(0, PREVIEW_LIMIT - 1) + "…" : text;
}

/**
 * A value as an approval prompt shows it, never as a prefix that could hide its end: a list
 * element by element (each on a line of its own, with a count past {@link SHOWN_ELEMENTS}),
 * anything else whole up to {@link SHOWN_LIMIT} characters, cut in the middle past that.
 */
export function shownLines(value: unknown): string[] {
  if (!Array.isArray(value)) return [shownValue(value)];
  const lines = value.slice(0, SHOWN_ELEMENTS).map((v, i) => `[${i}] ${shownValue(v)}`);
  if (value.length > SHOWN_ELEMENTS) lines.push(`and ${value.length - SHOWN_ELEMENTS} more elements (${value.length} in all)`);
  if (value.length === 0) lines.push("[] (an empty list)");
  return lines;
}

function shownValue(value: unknown): string {
  if (typeof value === "string") return quoteData(value, SHOWN_LIMIT);
  let text: string;
  try {
    text = JSON.stringify(small(value, SHOWN_LIMIT)) ?? String(value);
  } catch {
    text = "(a value that cannot be shown)";
  }
  text = escapeInvisible(text);
  if (text.length <= SHOWN_LIMIT) return text;
  const half = Math.floor((SHOWN_LIMIT - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}

const PATH_LIMIT = 80;

/** A path as reasons quote it: keys a program built can be long. */
export function showPath(path: string): string {
  const shown = escapeInvisible(path).replace(/`/g, "'");
  return shown.length > PATH_LIMIT ? shown.slice(0, PATH_LIMIT - 1) + "…" : shown;
}

/** `` `to` ("eve@evil.com") ``: how reasons name an argument, with its value when it has one. */
export function nameArg(args: unknown, path: string): string {
  const found = lookup(args, path);
  return found.found ? `\`${showPath(path)}\` (${preview(found.value)})` : `\`${showPath(path)}\``;
}
