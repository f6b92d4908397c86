/**
 * Words for labels: where a value came from, who may read it, whether it may be trusted.
 * Sources are free-form strings, and often data: a template fills them from a tool's result
 * or arguments, a label function puts an event's title in them. So only a source's kind (the
 * prefix before `:`, from the fixed vocabulary below) and sluice's own markers (`tool#3:`) are
 * rendered as words; every detail that is not a plain address or identifier is quoted as a
 * JSON string (control and format characters escaped, one line), and a long one is cut in the
 * middle, so the text around it, and the end a label function appended, are never lost.
 */
import type { Label } from "../labels/index.js";

/** Longest single item (a source, a reader) quoted in a list; data can make them long. */
const ITEM_LIMIT = 120;

/**
 * Characters a detail may have and still be shown unquoted: addresses, ids, file names, URLs.
 * No space, quote or line break, so a plain detail cannot read as a sentence of sluice's.
 */
const PLAIN = /^[A-Za-z0-9_.@+\-/:?=&%#~]+$/;

/** Control, format and line-separator characters, escaped wherever data is shown. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` with control, format and line-separator characters written as `\\uXXXX`: one line, nothing hidden. */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`);
}

/** `text` cut to about `max` characters in the middle (start and end kept), on code points. */
function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  const tail = Math.floor((max - 1) / 2);
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

/**
 * Data as a person reads it in sluice's sentences: a JSON string, one line, invisible
 * characters escaped, cut in the middle past `max` characters. A stranger's text cannot close
 * the quote or start a line of its own.
 */
export function quoteData(text: string, max = ITEM_LIMIT): string {
  return escapeInvisible(JSON.stringify(cutMiddle(text, max)));
}

/** A detail of a source, or a reader: as is when plain, else quoted. */
export function dataText(text: string, max = ITEM_LIMIT): string {
  if (PLAIN.test(text) && text.length <= max) return text;
  const parsed = jsonString(text);
  return quoteData(parsed ?? text, max);
}

/** The string a JSON string literal stands for (a template quotes what it fills in), or undefined. */
function jsonString(text: string): string | undefined {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}

const KINDS: Record<string, (detail: string) => string> = {
  email: (d) => `an email from ${d}`,
  mail: (d) => `an email from ${d}`,
  message: (d) => `a message from ${d}`,
  chat: (d) => `a chat message from ${d}`,
  slack: (d) => `a Slack message from ${d}`,
  sms: (d) => `a text message from ${d}`,
  web: (d) => `the web page ${d}`,
  url: (d) => `the web page ${d}`,
  page: (d) => `the web page ${d}`,
  file: (d) => `the file ${d}`,
  document: (d) => `the document ${d}`,
  calendar: (d) => `the calendar event ${d}`,
  event: (d) => `the calendar event ${d}`,
  review: (d) => `a review by ${d}`,
  user: (d) => `the user (${d})`,
  endorsed: (d) => `an endorsement by ${d}`,
  mcp: (d) => `the MCP server ${d}`,
};

const CALL = /^([A-Za-z_$][\w$]*)#(\d+)(?::(.*))?$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function describeOrigin(source: string): string {
  if (/^https?:\/\//i.test(source)) return `the web page ${dataText(source)}`;
  if (source === "query_ai_assistant") return "an answer of the quarantined model (query_ai_assistant)";
  if (source === "user") return "the user's request";
  const quoted = jsonString(source);
  // A source a template filled in whole is data through and through.
  if (quoted !== undefined) return `the value ${quoteData(quoted)}`;
  const colon = source.indexOf(":");
  if (colon > 0) {
    const kind = source.slice(0, colon).toLowerCase();
    const detail = source.slice(colon + 1);
    const make = KINDS[kind];
    if (make !== undefined && detail.length > 0) return make(dataText(detail));
  }
  if (IDENTIFIER.test(source) && source.length <= ITEM_LIMIT) return `the result of ${source}`;
  return quoteData(source);
}

/**
 * One source in words: `"get_email#3:email:eve@evil.com"` becomes
 * `"an email from eve@evil.com (get_email call #3)"`.
 */
export function describeSource(source: string): string {
  const call = CALL.exec(source);
  if (call === null) return describeOrigin(source);
  const [, tool, n, rest] = call;
  if (rest === undefined || rest.length === 0) return `the result of ${tool} call #${n}`;
  return `${describeOrigin(rest)} (${tool} call #${n})`;
}

const LIST_LIMIT = 4;

/** `text`, cut to `max` characters in the middle with an ellipsis, so its end is kept. */
export function clip(text: string, max = ITEM_LIMIT): string {
  return cutMiddle(text, max);
}

/**
 * `"a"`, `"a and b"`, `"a, b and c"`, `"a, b, c, d and 3 more"`. Only the items shown are
 * rendered, so a label with 800,000 sources costs as much to explain as one with five.
 */
export function listOf<T>(items: readonly T[], show: (item: T) => string, max = ITEM_LIMIT): string {
  const one = (x: T): string => clip(show(x), max);
  if (items.length <= 1) return items.length === 0 ? "" : one(items[0]);
  const cut = items.length > LIST_LIMIT + 1;
  const shown = (cut ? items.slice(0, LIST_LIMIT) : items.slice(0, -1)).map(one);
  const last = cut ? `${items.length - LIST_LIMIT} more` : one(items[items.length - 1]);
  return `${shown.join(", ")} and ${last}`;
}

/** {@link listOf} for items already in words, none cut. */
export function listText(items: readonly string[]): string {
  return listOf(items, (x) => x, Infinity);
}

/** Where a labelled value came from, e.g. `"it came from an email from eve@evil.com"`. */
export function originText(label: Label): string {
  if (label.sources.length === 0) return "its origin was not recorded";
  return `it came from ${listOf(label.sources, describeSource)}`;
}

/** Who may read a value: `"public"` or `"private (readable only by a and b)"`. */
export function secrecyText(label: Label): string {
  if (label.readers === "public") return "public";
  if (label.readers.length === 0) return "private (readable by no one)";
  return `private (readable only by ${listOf(label.readers, (r) => dataText(r))})`;
}

/** The whole label in words, e.g. `"untrusted and public: it came from …"`. */
export function labelText(label: Label): string {
  const head = `${label.trusted ? "trusted" : "untrusted"} and ${secrecyText(label)}`;
  if (label.trusted && label.sources.length === 0) return head;
  return `${head}: ${originText(label)}`;
}
