/**
 * Text for a terminal. Values a run prints were often written by a stranger (an email body, a
 * reader's answer), and control characters in them could move the cursor, rewrite earlier
 * lines or reorder text on screen, hiding what really happened. Every such string is escaped
 * before it is printed.
 */

// C0 controls (tab and newline handled separately), DEL, C1 controls, line/paragraph
// separators, and every format character (bidirectional overrides and isolates, zero-width
// characters, word joiners, and the tag characters U+E0000-E007F that a model reads as ASCII
// and a terminal shows as nothing), and variation selectors.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;

function escape(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every control character escaped; newlines and tabs kept when `multiline`. */
export function safe(text: string, multiline = false): string {
  const out = text.replace(UNSAFE, escape);
  return multiline ? out : out.replace(/\n/g, "\\n").replace(/\t/g, "\\t");
}

/** A value as one safe line of JSON-like text, cut at `max` characters. */
export function shortValue(value: unknown, max = 300): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  text = safe(text);
  return text.length > max ? `${text.slice(0, max - 1)}… (${text.length - max + 1} more characters; --json prints all)` : text;
}

/** Numbers with thousands separators. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** `"1 query"`, `"2 queries"`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** Every line of `text` indented by `pad`. */
export function indent(text: string, pad: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? line : pad + line))
    .join("\n");
}
