/**
 * A label as the calling agent reads it. Sources and reader names are data: label functions
 * and output templates fill them from what tools return (an event's title, an email's `to`),
 * so the agent must not take a stranger's text in them for sluice's provenance record. Where
 * the value is not trusted, a source keeps its detail only when that is one principal-like token
 * (`email:eve@x.example`), else it is reduced to its kind (the word before the first colon); a
 * reader is shown only when it looks like a principal; a trusted value's sources have their
 * control and format characters escaped and are cut to a bound.
 */
import type { Label } from "../../labels/index.js";
import type { LabelAnswer } from "./answer.js";

const KIND = /^[A-Za-z][A-Za-z0-9_#.-]{0,31}$/;
/** An address, a handle, a channel, an IBAN, a path: no spaces, quotes or line breaks to carry a sentence. */
const PRINCIPAL = /^[\p{L}\p{N}._%+@#:/~-]{1,100}$/u;
const MAX_SOURCE = 200;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
const UNTRUSTED_DETAIL = " (detail withheld: not trusted)";
const NO_PRINCIPAL = "(withheld: not an address)";

function escaped(text: string): string {
  const out = text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return out.length > MAX_SOURCE ? `${out.slice(0, MAX_SOURCE)}…` : out;
}

function sourceAnswer(source: string, trusted: boolean): string {
  if (trusted) return escaped(source);
  const colon = source.indexOf(":");
  const kind = colon < 0 ? source : source.slice(0, colon);
  if (!KIND.test(kind)) return "(withheld: not trusted)";
  // A detail that is one principal-like token (`email:eve@x.example`) cannot carry a sentence.
  const detail = colon < 0 ? "" : source.slice(colon + 1);
  return colon < 0 || PRINCIPAL.test(detail) ? source : `${kind}${UNTRUSTED_DETAIL}`;
}

/**
 * True when `label`, put in words by a policy's explanation, would quote text a stranger may
 * have written: an untrusted label with a source whose detail {@link labelAnswer} withholds, or
 * a reader that is not principal-like (label functions fill readers from data too).
 */
export function quotesStrangers(label: Pick<Label, "toJSON"> | undefined): boolean {
  if (label === undefined) return false;
  const { trusted, readers, sources } = label.toJSON();
  if (readers !== "public" && readers.some((r) => !PRINCIPAL.test(r))) return true;
  return !trusted && sources.some((s) => sourceAnswer(s, false) !== s);
}

/** The label as JSON for the agent. */
export function labelAnswer(label: Pick<Label, "toJSON">): LabelAnswer {
  const { trusted, readers, sources } = label.toJSON();
  return {
    trusted,
    readers: readers === "public" ? "public" : [...new Set(readers.map((r) => (PRINCIPAL.test(r) ? r : NO_PRINCIPAL)))],
    sources: [...new Set(sources.map((s) => sourceAnswer(s, trusted)))],
  };
}
