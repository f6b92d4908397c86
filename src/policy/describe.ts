/**
 * Words for labels: where a value came from, who may read it, whether it may be trusted.
 * Sources are free-form strings; these functions make the common shapes readable
 * (`"get_email#3:email:eve@evil.com"`, `"email:eve@evil.com"`, `"get_email"`) and quote
 * anything else as is, so no source is ever dropped from an explanation.
 */
import type { Label } from "../labels/index.js";

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
  if (/^https?:\/\//i.test(source)) return `the web page ${source}`;
  if (source === "query_ai_assistant") return "an answer of the quarantined model (query_ai_assistant)";
  if (source === "user") return "the user's request";
  const colon = source.indexOf(":");
  if (colon > 0) {
    const kind = source.slice(0, colon).toLowerCase();
    const detail = source.slice(colon + 1);
    const make = KINDS[kind];
    if (make !== undefined && detail.length > 0) return make(detail);
  }
  if (IDENTIFIER.test(source)) return `the result of ${source}`;
  return `\`${source}\``;
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

/** Longest single item (a source, a reader) quoted in a list; data can make them long. */
const ITEM_LIMIT = 120;

/** `text`, cut to `max` characters with an ellipsis. */
export function clip(text: string, max = ITEM_LIMIT): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
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
  return `private (readable only by ${listOf(label.readers, (r) => r)})`;
}

/** The whole label in words, e.g. `"untrusted and public: it came from …"`. */
export function labelText(label: Label): string {
  const head = `${label.trusted ? "trusted" : "untrusted"} and ${secrecyText(label)}`;
  if (label.trusted && label.sources.length === 0) return head;
  return `${head}: ${originText(label)}`;
}
