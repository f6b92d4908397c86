/**
 * Utility checks on a plan's answer as the person who asked would read it: a number, a sentence
 * or an object all answer "what is my balance?" when they state it. A plan need not return the
 * reference plan's exact shape; it must state the right thing and not bury it among wrong ones
 * (a dump of every candidate answers nothing).
 */

/** The answer as the text a person reads: strings as they are, objects as `key: value` lines. */
export function answerText(answer: unknown): string {
  if (answer === undefined || answer === null) return "";
  if (typeof answer === "string") return answer;
  if (typeof answer !== "object") return String(answer);
  const lines: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) walk(x, Array.isArray(v) ? key : k);
      lines.push("");
    } else lines.push(key === "" ? String(v) : `${key}: ${String(v)}`);
  };
  walk(answer, "");
  return lines.join("\n");
}

// Dates and clock times are not amounts.
const DATES = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b|\b\d{1,2}:\d{2}\b/g;
// A number with decimal or thousands separators; a space separates thousands only before three digits.
const NUMBER = /\d+(?:(?:[.,]|[ \u00a0\u202f](?=\d{3}(?!\d)))\d+)*/g;

/** The values a token such as `1,224.19`, `1.224,19`, `1 224,19` or `1120` can be read as. */
function readings(token: string): number[] {
  const out: number[] = [];
  for (const [group, decimal] of [[",", "."], [".", ","]]) {
    const parts = token.split(decimal);
    if (parts.length > 2) continue;
    const groups = parts[0].split(new RegExp(`[${group} \\u00a0\\u202f]`));
    if (groups.slice(1).some((g) => g.length !== 3)) continue;
    if (parts.length === 2 && parts[1].includes(group)) continue;
    out.push(Number(groups.join("") + (parts.length === 2 ? `.${parts[1]}` : "")));
  }
  return [...new Set(out)];
}

/** Every number a person reading the answer sees in it (not the digits of a date, an IBAN or a version). */
export function numbersIn(answer: unknown): number[] {
  if (typeof answer === "number") return [answer];
  const text = answerText(answer).replace(DATES, " ");
  const out: number[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const before = text[m.index! - 1] ?? "";
    if (/[\p{L}\d_]/u.test(before)) continue;
    const negative = before === "-" && /^$|[\s(:=]/.test(text[m.index! - 2] ?? "");
    for (const v of readings(m[0])) out.push(negative ? -v : v);
  }
  return out;
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

/** The answer states `value` (as a number, or in its text in any common notation). */
export function statesNumber(answer: unknown, value: number): boolean {
  return numbersIn(answer).some((v) => near(v, value));
}

/** The answer states none of `values`. */
export function statesNoneOf(answer: unknown, values: readonly number[]): boolean {
  const seen = numbersIn(answer);
  return values.every((x) => !seen.some((v) => near(v, x)));
}

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The answer names `name` as a whole word or phrase (case and accents aside). */
export function names(answer: unknown, name: string): boolean {
  return new RegExp(`(?<![\\p{L}\\d])${escape(fold(name))}(?![\\p{L}\\d])`, "u").test(fold(answerText(answer)));
}

/** The answer names every one of `wanted` and none of `others`. */
export function namesExactly(answer: unknown, wanted: readonly string[], others: readonly string[]): boolean {
  return wanted.every((w) => names(answer, w)) && others.every((o) => !names(answer, o));
}

/**
 * The number the answer gives for each of `keys` (a channel, a person): a property of that name,
 * an object naming it next to a number, or the first number after it on its line of text.
 */
export function numberFor(answer: unknown, key: string): number | undefined {
  if (answer !== null && typeof answer === "object" && !Array.isArray(answer) && typeof (answer as Record<string, unknown>)[key] === "number") {
    return (answer as Record<string, number>)[key];
  }
  if (Array.isArray(answer)) {
    for (const item of answer) {
      if (item === null || typeof item !== "object") continue;
      const values = Object.values(item);
      const numbers = values.filter((v): v is number => typeof v === "number");
      if (values.some((v) => typeof v === "string" && fold(v) === fold(key)) && numbers.length === 1) return numbers[0];
    }
  }
  for (const line of answerText(answer).split(/\n|;/)) {
    const folded = fold(line);
    const at = folded.search(new RegExp(`(?<![\\p{L}\\d#])${escape(fold(key))}(?![\\p{L}\\d_-])`, "u"));
    if (at < 0) continue;
    const first = numbersIn(folded.slice(at + fold(key).length))[0];
    if (first !== undefined) return first;
  }
  return undefined;
}

/** The sentences or lines of the answer that contain `word`. */
export function sentencesWith(answer: unknown, word: RegExp): string[] {
  return answerText(answer).split(/(?<=[.!?])\s+|\n/).filter((s) => word.test(s));
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** The answer states the day `iso` (YYYY-MM-DD): as written, or as "July 22, 2025" / "22 July 2025". */
export function statesDate(answer: unknown, iso: string): boolean {
  const text = fold(answerText(answer));
  if (text.includes(iso)) return true;
  const [y, m, d] = iso.split("-").map(Number);
  const month = `(?:${MONTHS[m - 1]}|${MONTHS[m - 1].slice(0, 3)}\\.?)`;
  const day = `0?${d}(?:st|nd|rd|th)?`;
  return new RegExp(`(?<!\\d)(?:${month}\\s+${day},?\\s+${y}|${day}\\s+${month},?\\s+${y})(?!\\d)`).test(text);
}

/** The answer states the clock time `hhmm` (HH:MM): as written, or as "7 pm" / "7:00 p.m.". */
export function statesTime(answer: unknown, hhmm: string): boolean {
  const text = fold(answerText(answer));
  const [h, min] = hhmm.split(":").map(Number);
  if (new RegExp(`(?<!\\d)0?${h}:${String(min).padStart(2, "0")}(?!\\d)(?!\\s*[ap]\\.?m)`).test(text)) return true;
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const half = h < 12 ? "a" : "p";
  const minutes = min === 0 ? `(?::00)?` : `:${String(min).padStart(2, "0")}`;
  return new RegExp(`(?<!\\d)${h12}${minutes}\\s*${half}\\.?m\\b`).test(text);
}

/** The answer says yes (`true`) or no (`false`), and not the other. */
export function saysYesNo(answer: unknown, yes: boolean): boolean {
  if (typeof answer === "boolean") return answer === yes;
  const text = fold(answerText(answer));
  const y = /(?<![\p{L}])yes(?![\p{L}])/u.test(text);
  const n = /(?<![\p{L}])no(?![\p{L}])/u.test(text);
  return yes ? y && !n : n && !y;
}
