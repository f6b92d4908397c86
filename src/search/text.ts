import { stemmer } from "stemmer";
import { eng } from "stopword";

/**
 * Turning tool declarations and requests into search terms: the same steps for both sides, so
 * a word of a request meets the same word in a tool.
 */

const STOPWORDS: ReadonlySet<string> = new Set(eng);

/**
 * Splits text into lower-case words: at anything that is not a letter or digit, between a
 * lower-case letter or digit and a capital (`calendarId`), and before the last capital of a run
 * (`HTTPServer`), so `create_pull_request`, `createPullRequest` and "create pull request" agree;
 * a plural acronym ("PRs") stays one word.
 */
export function words(text: string): string[] {
  // A plural acronym is one word: "PRs", "URLs", "IDs" (not "P" and "Rs").
  const plurals = text.replace(/\b([A-Z]{2,})s\b/g, (m) => m.toLowerCase());
  const spaced = plurals.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  return spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}

/** How words become terms. */
export interface TermOptions {
  /** Reduce words to their Porter stem (`messages` and `messaging` both become `messag`). */
  stem: boolean;
}

/**
 * One word as a term: stemmed when asked. Stop words, bare numbers and single letters (the
 * "s" of "what's") are not terms.
 */
export function term(word: string, options: TermOptions): string | undefined {
  if (word.length < 2 || STOPWORDS.has(word) || /^\p{N}+$/u.test(word)) return undefined;
  return options.stem ? stemmer(word) : word;
}

/** The terms of a text, in order, duplicates kept (BM25 counts them). */
export function terms(text: string, options: TermOptions): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    const t = term(w, options);
    if (t !== undefined) out.push(t);
  }
  return out;
}
