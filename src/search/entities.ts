/**
 * The things a request names by their shape rather than by a word: a path, a repository, a
 * channel, an address, a link, a date, an amount. Their parts are names, not vocabulary ("react"
 * in `facebook/react` is not a reaction), and their shape says which parameter will take them:
 * a path goes to a `path`, `owner/repo` to an `owner` and a `repo`, an address to an `email` or
 * a `to`. Parameter names are the most conventional words a tool has, so this carries over to
 * tools nobody here has seen.
 */

/** One kind of thing a request can name, and the parameter names that take it. */
export interface EntityKind {
  readonly kind: string;
  /** Words tools use for this kind of thing, added to the request like a lexicon entry's. */
  readonly cue: string;
  /** Matches a parameter name (split and lower-cased words joined by `_`) that takes this kind. */
  readonly parameter: RegExp;
}

const KINDS = {
  url: { kind: "url", cue: "url web page fetch", parameter: /(^|_)(url|uri|link|href)(_|$)/ },
  email: { kind: "email", cue: "email", parameter: /(^|_)(email|to|cc|bcc|recipient|recipients|attendees)(_|$)/ },
  path: { kind: "path", cue: "file directory path", parameter: /(^|_)(path|paths|source|destination|file|dir|directory|folder)(_|$)/ },
  repository: { kind: "repository", cue: "repository", parameter: /(^|_)(owner|repo|repository|branch)(_|$)/ },
  channel: { kind: "channel", cue: "channel", parameter: /(^|_)(channel|channel_id|channels)(_|$)/ },
  user: { kind: "user", cue: "user", parameter: /(^|_)(user|user_id|assignee|assignees|assignee_id|author|username)(_|$)/ },
  number: { kind: "number", cue: "number", parameter: /(^|_)(number|id|issue_number|pull_number|issue_id)(_|$)/ },
  money: { kind: "money", cue: "amount payment", parameter: /(^|_)(amount|unit_amount|price|currency)(_|$)/ },
  time: { kind: "time", cue: "time", parameter: /(^|_)(time|time_min|time_max|start|end|date|since|until|due|days_until_due)(_|$)/ },
} satisfies Record<string, EntityKind>;

const EXTENSIONS = "md|txt|json|ya?ml|csv|ini|log|tsx?|jsx?|py|toml|cfg|conf|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|html?|css|sh|env|lock|sql|zip|tar|gz";
const WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thurs|fri|sat|sun";
const MONTHS = "january|february|march|april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec";
const RELATIVE_DAYS = "today|tonight|tomorrow|tmrw|yesterday|weekend|noon|midnight";

/** Patterns over the raw request, each with the kind it names. Order matters: the first claims the text. */
const PATTERNS: ReadonlyArray<{ re: RegExp; kind: EntityKind }> = [
  { re: /\b(?:https?:\/\/|www\.)\S+/gi, kind: KINDS.url },
  { re: /\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|ai|app|co|edu|gov|info|me|xyz|uk|de|fr|eu)\b(?:\/[^\s?,;!]*)?/gi, kind: KINDS.url },
  { re: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, kind: KINDS.email },
  { re: /(?:^|\s)(?:~|\.{1,2})?\/[\w./-]*|\b[\w-]+(?:\/[\w.-]+)*\/(?=\s|$|[?,;!])/g, kind: KINDS.path },
  { re: new RegExp(`\\b[\\w-]+(?:\\/[\\w-]+)*\\.(?:${EXTENSIONS})\\b`, "gi"), kind: KINDS.path },
  { re: /\b[A-Za-z][\w.-]*\/[\w.-]+\b/g, kind: KINDS.repository },
  { re: /(?:^|\s)#[A-Za-z][\w-]*/g, kind: KINDS.channel },
  { re: /(?:^|\s)#\d+\b/g, kind: KINDS.number },
  { re: /(?:^|\s)@[A-Za-z][\w.-]*/g, kind: KINDS.user },
  { re: /[$€£]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:usd|eur|gbp|dollars|euros|bucks)\b/gi, kind: KINDS.money },
  {
    re: new RegExp(`\\b(?:${WEEKDAYS}|${MONTHS}|${RELATIVE_DAYS})\\b|\\b\\d{1,2}(?::\\d{2})?\\s?(?:am|pm)\\b|\\b\\d{1,2}:\\d{2}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b`, "gi"),
    kind: KINDS.time,
  },
];

/** What a request names by shape. */
export interface RequestEntities {
  /** The kinds found, each once, sorted. */
  readonly kinds: readonly string[];
  /** The cue words of each kind found, one string per kind. */
  readonly cues: readonly string[];
  /** The request with every name blanked out, for the lexicon to read: its parts are not words. */
  readonly prose: string;
  /** The names blanked out, as written. */
  readonly names: readonly string[];
}

/**
 * The kinds of thing a request names by shape, and its text with those names blanked. Words
 * that are only names of times (weekdays, "tomorrow") stay in the prose: they are words too.
 */
export function requestEntities(request: string): RequestEntities {
  let prose = request;
  const kinds = new Set<string>();
  const names: string[] = [];
  for (const { re, kind } of PATTERNS) {
    prose = prose.replace(re, (m) => {
      kinds.add(kind.kind);
      if (kind === KINDS.time) return m;
      names.push(m.trim());
      return " ".repeat(m.length);
    });
  }
  const sorted = [...kinds].sort();
  const cueOf = new Map(Object.values(KINDS).map((k) => [k.kind, k.cue]));
  return { kinds: sorted, cues: sorted.map((k) => cueOf.get(k)!), prose, names };
}

/** Parameter names in the form the kinds match: lower-case words joined by `_` (`timeMin` → `time_min`). */
function normalise(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().replace(/[^a-z0-9]+/g, "_");
}

/** The kinds a tool's parameters take. */
export function parameterKinds(parameterNames: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const p of parameterNames.map(normalise)) for (const k of Object.values(KINDS)) if (k.parameter.test(p)) out.add(k.kind);
  return out;
}
