/**
 * Labels: who may read a value (secrecy), whether it may steer actions (integrity), and
 * where it came from (provenance). Every value the interpreter handles carries one.
 *
 * The lattice is readers × integrity × sources. Join is the least upper bound:
 * readers intersect (public is the top of the reader sets), trusted only if both are,
 * sources unite. `Label.trusted()` with no sources is the bottom and the identity of join,
 * which is what keeps fully trusted programs cheap: joining with it allocates nothing.
 */

/** `"public"`, or the principals allowed to read a value. */
export type Readers = "public" | readonly string[];

/** The fields accepted by {@link Label.of}. */
export interface LabelSpec {
  /** `"public"` (default) or a list of principals. */
  readers?: Readers;
  /** Whether the value may steer actions. Default `false`. */
  trusted?: boolean;
  /** Where the value came from, e.g. `"email:eve@x.com"`. */
  sources?: readonly string[];
}

const EMPTY: readonly string[] = Object.freeze([]);

function sortedUnique(items: readonly string[]): readonly string[] {
  // Stryker disable next-line ConditionalExpression: a fast path; without it the result is an empty frozen list, equal to EMPTY
  if (items.length === 0) return EMPTY;
  // Stryker disable next-line ConditionalExpression: a fast path; one item is sorted and unique as it is
  if (items.length === 1) return Object.freeze([items[0]]);
  return Object.freeze([...new Set(items)].sort());
}

/**
 * The list itself when it is an array of strings; a TypeError naming the field otherwise. A
 * principal or a source that is not a string (an `undefined` from a missing field, an array
 * where a name was meant) would be compared, joined and sent between threads as whatever it
 * turns into: a label function's mistake is an error where it was made.
 */
function strings(items: unknown, field: "readers" | "sources"): readonly string[] {
  if (!Array.isArray(items)) throw new TypeError(`Label.of: ${field} must be ${field === "readers" ? '"public" or ' : ""}an array of strings, not ${describe(items)}`);
  for (let i = 0; i < items.length; i++) {
    if (typeof items[i] !== "string") throw new TypeError(`Label.of: ${field}[${i}] must be a string, not ${describe(items[i])}`);
  }
  return items as readonly string[];
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  return typeof x === "string" ? JSON.stringify(x) : typeof x;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  // Stryker disable next-line ConditionalExpression: a fast path; the loop finds the same lists equal
  if (a === b) return true;
  if (a.length !== b.length) return false;
  // Stryker disable next-line EqualityOperator: one step past both ends compares undefined with undefined
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether sorted `big` contains every item of sorted `small`. */
function containsAll(big: readonly string[], small: readonly string[]): boolean {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a fast path; the loop answers true for an empty or identical list
  if (small.length === 0 || big === small) return true;
  // Stryker disable next-line ConditionalExpression: a fast path; the loop then finds an item of small missing from big
  if (small.length > big.length) return false;
  // A few items against a long list (one sender's label joined into the label of a list of
  // hundreds of emails, at every read in a loop over it): each item found by binary search.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: a fast path; the merge below gives the same answer for any lengths
  if (small.length * 16 < big.length) return containsFew(big, small);
  let i = 0;
  for (const x of small) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end big[i] is undefined, and undefined < x is false
    while (i < big.length && big[i] < x) i++;
    // Stryker disable next-line ConditionalExpression: past the end big[i] is undefined, which is never x
    if (i === big.length || big[i] !== x) return false;
    i++;
  }
  return true;
}

/** containsAll by binary search: each item of sorted `small` looked for past the one before it. */
function containsFew(big: readonly string[], small: readonly string[]): boolean {
  let lo = 0;
  for (const x of small) {
    let hi = big.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (big[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    // Stryker disable next-line ConditionalExpression: past the end big[lo] is undefined, which is never x
    if (lo === big.length || big[lo] !== x) return false;
    // Stryker disable next-line UpdateOperator: where the next search starts only; from one before, it finds the same (small is sorted and without repeats)
    lo++;
  }
  return true;
}

function intersect(a: Readers, b: Readers): Readers {
  if (a === "public") return b;
  if (b === "public") return a;
  const keep = new Set(b);
  return Object.freeze(a.filter((r) => keep.has(r)));
}

function unite(a: readonly string[], b: readonly string[]): readonly string[] {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a fast path; the merge returns a itself for an empty or identical b
  if (b.length === 0 || a === b) return a;
  // Stryker disable next-line ConditionalExpression: a fast path; the merge of an empty a returns b itself
  if (a.length === 0) return b;
  const out: string[] = [];
  let i = 0;
  let j = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end a[i] is undefined, neither equal to nor less than b[j], so b[j] is taken as the loop would
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) (out.push(a[i]), i++, j++);
    // Stryker disable next-line EqualityOperator: equal items took the branch before
    else if (a[i] < b[j]) out.push(a[i++]);
    else out.push(b[j++]);
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out.length === a.length ? a : out.length === b.length ? b : Object.freeze(out);
}

/**
 * An immutable security label. Create with {@link Label.trusted}, {@link Label.untrusted} or
 * {@link Label.of}; combine with {@link Label.join}.
 */
export class Label {
  /** The bottom label, shared so that identity checks take the fast path. */
  static readonly BOTTOM: Label;
  /** `"public"` or the principals allowed to read the value. */
  readonly readers: Readers;
  /** Whether the value may be trusted to steer actions. */
  readonly trusted: boolean;
  /** Where the value came from, sorted and without repeats. */
  readonly sources: readonly string[];
  /** Memo of joins with other labels: programs join the same few labels over and over. */
  private joins: Map<Label, Label> | undefined;

  private constructor(readers: Readers, trusted: boolean, sources: readonly string[]) {
    this.readers = readers;
    this.trusted = trusted;
    this.sources = sources;
  }

  /** Public and trusted, with no sources: the user's own words and the program's literals. */
  static trusted(): Label {
    return BOTTOM;
  }

  /** Public and untrusted, from `source`. */
  static untrusted(source: string): Label {
    return new Label("public", false, Object.freeze(strings([source], "sources")));
  }

  /** A label from its parts; see {@link LabelSpec} for the defaults. */
  static of(spec: LabelSpec = {}): Label {
    const readers = spec.readers === undefined || spec.readers === "public" ? "public" : sortedUnique(strings(spec.readers, "readers"));
    const trusted = spec.trusted === true;
    const sources = sortedUnique(strings(spec.sources ?? EMPTY, "sources"));
    if (readers === "public" && trusted && sources.length === 0) return BOTTOM;
    return new Label(readers, trusted, sources);
  }

  /** Least upper bound: readers intersect, trusted only if both are, sources unite. */
  join(other: Label): Label {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: fast paths; absorbs answers the same for itself and for the bottom
    if (other === this || other === BOTTOM) return this;
    // Stryker disable next-line ConditionalExpression: a fast path; other absorbs the bottom, so other is returned
    if (this === BOTTOM) return other;
    const memo = this.joins?.get(other);
    if (memo !== undefined) return memo;
    // Most joins add nothing new to one side: answer those without allocating.
    if (this.absorbs(other)) return this;
    // Stryker disable next-line ConditionalExpression: a fast path; sameParts then returns other
    if (other.absorbs(this)) return other;
    const readers = intersect(this.readers, other.readers);
    const trusted = this.trusted && other.trusted;
    const sources = unite(this.sources, other.sources);
    let result: Label;
    // Stryker disable next-line ConditionalExpression: reuse only; a new label with the same parts is equal
    if (this.sameParts(readers, trusted, sources)) result = this;
    // Stryker disable next-line ConditionalExpression: reuse only; a new label with the same parts is equal
    else if (other.sameParts(readers, trusted, sources)) result = other;
    else result = new Label(readers, trusted, sources);
    // Stryker disable next-line ConditionalExpression: the memo only; a fresh map forgets answers, it never changes one
    if (this.joins === undefined) this.joins = new Map();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the memo's size bound only
    if (this.joins.size < 256) this.joins.set(other, result);
    return result;
  }

  /** True when joining `other` into this label changes nothing. */
  private absorbs(other: Label): boolean {
    if (other.trusted === false && this.trusted) return false;
    if (!containsAll(this.sources, other.sources)) return false;
    // Stryker disable next-line ConditionalExpression,StringLiteral: with readers "public" the string reaches containsAll, which finds its letters in no sorted reader list (after 'u' no 'b'), so the answer is the same
    if (this.readers === "public") return other.readers === "public";
    if (other.readers === "public") return true;
    // Intersecting with other's readers must leave this label's readers unchanged.
    return containsAll(other.readers, this.readers);
  }

  /** True when this label may flow to `other`: `other` is at least as restrictive. */
  flowsTo(other: Label): boolean {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: fast paths; every label absorbs itself and the bottom
    if (this === BOTTOM || this === other) return true;
    return other.absorbs(this);
  }

  /** True when the readers are public or include every principal given. */
  canBeReadBy(...principals: string[]): boolean {
    const readers = this.readers;
    if (readers === "public") return true;
    return principals.every((p) => readers.includes(p));
  }

  /** True when the value is public (readable by anyone). */
  get isPublic(): boolean {
    return this.readers === "public";
  }

  /** True when both labels have the same readers, integrity and sources. */
  equals(other: Label): boolean {
    // Stryker disable next-line ConditionalExpression: a fast path; sameParts of a label with its own parts is true
    return this === other || other.sameParts(this.readers, this.trusted, this.sources);
  }

  private sameParts(readers: Readers, trusted: boolean, sources: readonly string[]): boolean {
    if (this.trusted !== trusted || !sameList(this.sources, sources)) return false;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: "public" and a sorted reader list are never the same list (its letters are not in sorted order), two "public"s are
    if (this.readers === "public" || readers === "public") return this.readers === readers;
    return sameList(this.readers, readers);
  }

  /** Plain data, for records and JSON. */
  toJSON(): { readers: Readers; trusted: boolean; sources: readonly string[] } {
    return { readers: this.readers, trusted: this.trusted, sources: this.sources };
  }

  /** A short human-readable form, e.g. `untrusted public {email:eve@x.com}`. */
  toString(): string {
    const who = this.readers === "public" ? "public" : `readers [${this.readers.join(", ")}]`;
    const src = this.sources.length ? ` from ${this.sources.join(", ")}` : "";
    return `${this.trusted ? "trusted" : "untrusted"} ${who}${src}`;
  }
}

/** The bottom of the lattice: public, trusted, no sources. */
const BOTTOM: Label = Reflect.construct(Label, ["public", true, EMPTY]) as Label;

(Label as { BOTTOM: Label }).BOTTOM = BOTTOM;

/** Joins any number of labels. */
export function joinAll(labels: Iterable<Label>): Label {
  let out = BOTTOM;
  for (const l of labels) out = out.join(l);
  return out;
}
