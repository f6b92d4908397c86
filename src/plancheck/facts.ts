/**
 * What the static plan check knows of a label: a lower bound. Every fact holds in every run
 * that reaches the value, whatever the tools return; when unsure, a fact is left out. Joining
 * facts (an operation on two values) keeps both; meeting them (a value that is one or the
 * other) keeps only what both say.
 */

/** A place in the program that made a value untrusted or private, in words built from the program text. */
export interface Origin {
  /** E.g. "the result of search_emails", "the answer of query_ai_assistant". */
  readonly what: string;
  readonly line: number;
  /** Why it is untrusted or private, from the tool's declaration, when known. */
  readonly why?: string;
}

/** A lower bound of a label. */
export interface Fact {
  /** The value is untrusted in every run. */
  readonly untrusted: boolean;
  /** The value is private (not public) in every run. */
  readonly private: boolean;
  /** When private: every principal that may read it is among these (lower case); undefined when not known. */
  readonly within?: ReadonlySet<string>;
  /** What made it so. */
  readonly origins: readonly Origin[];
}

/** Nothing known: may be public and trusted. */
export const NOTHING: Fact = Object.freeze({ untrusted: false, private: false, origins: Object.freeze([]) as readonly Origin[] });

const MAX_ORIGINS = 6;

function uniteOrigins(a: readonly Origin[], b: readonly Origin[]): readonly Origin[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = [...a];
  for (const o of b) if (!out.some((x) => x.what === o.what && x.line === o.line)) out.push(o);
  return out.slice(0, MAX_ORIGINS);
}

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  return new Set([...a].filter((x) => b.has(x)));
}

/** True when the fact says anything. */
export function isFlagged(f: Fact): boolean {
  return f.untrusted || f.private;
}

/** Both facts hold: the label of an operation on both values. */
export function joinFacts(a: Fact, b: Fact): Fact {
  if (!isFlagged(b)) return a;
  if (!isFlagged(a)) return b;
  const within = a.within === undefined ? b.within : b.within === undefined ? a.within : intersect(a.within, b.within);
  return { untrusted: a.untrusted || b.untrusted, private: a.private || b.private, ...(within === undefined ? {} : { within }), origins: uniteOrigins(a.origins, b.origins) };
}

/** Only what both facts say: the label of a value that is one or the other. */
export function meetFacts(a: Fact, b: Fact): Fact {
  const untrusted = a.untrusted && b.untrusted;
  const priv = a.private && b.private;
  if (!untrusted && !priv) return NOTHING;
  const within = priv && a.within !== undefined && b.within !== undefined ? new Set([...a.within, ...b.within]) : undefined;
  return { untrusted, private: priv, ...(within === undefined ? {} : { within }), origins: uniteOrigins(a.origins, b.origins) };
}

/** The join of any number of facts. */
export function joinAllFacts(facts: Iterable<Fact>): Fact {
  let out = NOTHING;
  for (const f of facts) out = joinFacts(out, f);
  return out;
}

/** A fact from a declared label: untrusted unless `trusted`, private with `readers` when they are known. */
export function declaredFact(spec: { trusted: boolean; readers: "public" | "unknown-private" | readonly string[] }, origin: Origin): Fact {
  const priv = spec.readers !== "public";
  const untrusted = !spec.trusted;
  if (!priv && !untrusted) return NOTHING;
  const within = Array.isArray(spec.readers) ? new Set((spec.readers as readonly string[]).map((r) => r.toLowerCase())) : undefined;
  return { untrusted, private: priv, ...(within === undefined ? {} : { within }), origins: [origin] };
}

/** The same fact, said to come from `origin` (its own origins kept after it). */
export function via(f: Fact, origin: Origin): Fact {
  if (!isFlagged(f)) return f;
  return { ...f, origins: uniteOrigins([origin], f.origins) };
}
