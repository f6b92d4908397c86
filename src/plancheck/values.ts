/**
 * Abstract values of the static plan check: for each expression, a lower bound of its label
 * (`fact`), of the label of what it holds (`deep`), and what else is certain about it (a
 * constant the program wrote, fields that exist, the place inside a declared tool result).
 */
import type * as acorn from "acorn";
import { NOTHING, joinFacts, meetFacts, type Fact } from "./facts.js";

/** A labelled part a tool declares, as the check knows it. */
export interface PartFact {
  readonly pattern: readonly string[];
  readonly fact: Fact;
}

/** A function the program wrote, with the scope it was made in. */
export interface FnValue {
  readonly node: acorn.Function;
  readonly scope: Scope;
  readonly name: string;
}

/** An abstract value. */
export interface Abs {
  /** The label read with the value itself, at least. */
  readonly fact: Fact;
  /** The label of the value with everything it certainly holds, at least (what string conversion depends on). */
  readonly deep: Fact;
  /** The value is certainly not undefined. */
  readonly defined: boolean;
  /** A constant the program wrote. */
  readonly literal?: { readonly value: unknown };
  /** Certainly plain data (tool results, the reader's answers, strings): it holds no function of the program. */
  readonly data?: boolean;
  /** Fields certainly there (object literals, answers of the reader); `open`: others may be there too. */
  readonly props?: ReadonlyMap<string, Abs>;
  readonly open?: boolean;
  /** Elements at known positions (array literals, Promise.all). */
  readonly items?: readonly Abs[];
  /** What reading any element gives, when something is known of every element. */
  readonly elem?: Abs;
  /** What the value is when reading its fields succeeds (a found element: `find` gave an object). */
  readonly whenObject?: Abs;
  /** A place inside a declared tool result: its path from the result, and the tool's parts. */
  readonly tool?: { readonly parts: readonly PartFact[]; readonly path: readonly string[] };
  /** A function the program wrote. */
  readonly fn?: FnValue;
}

/** A binding of the check's scopes. */
export interface Scope {
  readonly parent: Scope | undefined;
  readonly names: Map<string, Abs>;
}

/** Nothing known. */
export const UNKNOWN: Abs = Object.freeze({ fact: NOTHING, deep: NOTHING, defined: false });

/** A value known only by its label. */
export function ofFact(fact: Fact, defined = false): Abs {
  return { fact, deep: fact, defined };
}

/** A constant the program wrote: trusted, public, defined unless it is `undefined`. */
export function literal(value: unknown): Abs {
  return { fact: NOTHING, deep: NOTHING, defined: value !== undefined, literal: { value }, data: true };
}

/** The same value, read under `f` as well (a reference, container or decision labelled `f`). */
export function tainted(v: Abs, f: Fact): Abs {
  if (f === NOTHING) return v;
  return { ...v, fact: joinFacts(v.fact, f), deep: joinFacts(v.deep, f), literal: v.literal };
}

/** Only what both values share: a value that is one or the other. */
export function meetAbs(a: Abs, b: Abs): Abs {
  if (a === b) return a;
  const out: { -readonly [K in keyof Abs]: Abs[K] } = { fact: meetFacts(a.fact, b.fact), deep: meetFacts(a.deep, b.deep), defined: a.defined && b.defined };
  if (a.literal !== undefined && b.literal !== undefined && Object.is(a.literal.value, b.literal.value)) out.literal = a.literal;
  if (a.elem !== undefined && b.elem !== undefined) out.elem = meetAbs(a.elem, b.elem);
  if (a.data === true && b.data === true) out.data = true;
  return out;
}

/** The meet of several values; unknown for none. */
export function meetAll(values: readonly Abs[]): Abs {
  if (values.length === 0) return UNKNOWN;
  return values.slice(1).reduce(meetAbs, values[0]);
}

/** The fact of everything an object or array literal holds, with its own. */
export function deepOf(own: Fact, parts: Iterable<Abs>): Fact {
  let f = own;
  for (const p of parts) f = joinFacts(f, p.deep);
  return f;
}

/** A string constant, or a list of them, that the program wrote: principals named in the text. */
export function literalStrings(v: Abs): string[] | undefined {
  if (v.literal !== undefined) {
    const x = v.literal.value;
    if (typeof x === "string") return [x];
    if (Array.isArray(x) && x.every((s) => typeof s === "string")) return x as string[];
    return undefined;
  }
  if (v.items !== undefined) {
    const out: string[] = [];
    for (const item of v.items) {
      const s = literalStrings(item);
      if (s === undefined) return undefined;
      out.push(...s);
    }
    return out;
  }
  return undefined;
}

/** Looks a name up through the scopes. */
export function lookupName(scope: Scope | undefined, name: string): Abs | undefined {
  for (let s = scope; s !== undefined; s = s.parent) {
    const v = s.names.get(name);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** True when `name` is bound in the program's scopes (so it is not a global or a tool). */
export function isBound(scope: Scope | undefined, name: string): boolean {
  return lookupName(scope, name) !== undefined;
}

export function childScope(parent: Scope | undefined): Scope {
  return { parent, names: new Map() };
}
