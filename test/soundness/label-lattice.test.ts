/**
 * The label lattice against a reference model: readers are "public" or a set of principals
 * (public is the top of the readers order), integrity is a boolean, sources are a set. Every
 * operation of Label must agree with the model on generated labels, duplicates and all.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Label, joinAll } from "../../src/index.js";

interface Model {
  readers: "public" | string[];
  trusted: boolean;
  sources: string[];
}

const set = (xs: readonly string[]): string[] => [...new Set(xs)].sort();
const spec = fc.record({
  readers: fc.option(fc.oneof(fc.constant("public" as const), fc.array(fc.constantFrom("alice", "bob", "carol"), { maxLength: 4 })), { nil: undefined }),
  trusted: fc.option(fc.boolean(), { nil: undefined }),
  sources: fc.option(fc.array(fc.constantFrom("a", "b", "email:eve", "file:x"), { maxLength: 4 }), { nil: undefined }),
});
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

function model(s: { readers?: "public" | readonly string[]; trusted?: boolean; sources?: readonly string[] }): Model {
  return { readers: s.readers === undefined || s.readers === "public" ? "public" : set(s.readers), trusted: s.trusted === true, sources: set(s.sources ?? []) };
}

function join(a: Model, b: Model): Model {
  const readers = a.readers === "public" ? b.readers : b.readers === "public" ? a.readers : a.readers.filter((r) => (b.readers as string[]).includes(r));
  return { readers, trusted: a.trusted && b.trusted, sources: set([...a.sources, ...b.sources]) };
}

const plain = (l: Label): Model => ({ readers: l.readers === "public" ? "public" : [...l.readers], trusted: l.trusted, sources: [...l.sources] });
const same = (a: Model, b: Model): boolean => JSON.stringify(a) === JSON.stringify(b);
const labelArb = spec.map((s) => ({ s, l: Label.of(s), m: model(s) }));
const RUNS = { numRuns: 400 };

describe("the label lattice", () => {
  it("Label.of normalises its parts (sorted, no repeats, public by default, untrusted by default)", () => {
    fc.assert(fc.property(labelArb, ({ l, m }) => { expect(plain(l)).toEqual(m); }), RUNS);
  });

  it("join is the model's least upper bound: readers intersect, trusted only if both, sources unite", () => {
    fc.assert(fc.property(labelArb, labelArb, (a, b) => {
      expect(plain(a.l.join(b.l))).toEqual(join(a.m, b.m));
      // Joins are memoised: asking again gives the same answer.
      expect(plain(a.l.join(b.l))).toEqual(join(a.m, b.m));
    }), RUNS);
  });

  it("flowsTo(a, b) holds exactly when a ⊔ b = b", () => {
    fc.assert(fc.property(labelArb, labelArb, (a, b) => { expect(a.l.flowsTo(b.l)).toBe(same(join(a.m, b.m), b.m)); }), RUNS);
  });

  it("equals agrees with the model", () => {
    fc.assert(fc.property(labelArb, labelArb, (a, b) => { expect(a.l.equals(b.l)).toBe(same(a.m, b.m)); }), RUNS);
  });

  it("canBeReadBy and isPublic agree with the readers", () => {
    fc.assert(fc.property(labelArb, fc.array(fc.constantFrom("alice", "bob", "carol"), { maxLength: 3 }), ({ l, m }, who) => {
      expect(l.isPublic).toBe(m.readers === "public");
      expect(l.canBeReadBy(...who)).toBe(m.readers === "public" || who.every((p) => (m.readers as string[]).includes(p)));
    }), RUNS);
  });

  it("joinAll folds join from the bottom; trusted() is the bottom and untrusted(src) is public, untrusted, from src", () => {
    fc.assert(fc.property(fc.array(labelArb, { maxLength: 4 }), (xs) => {
      expect(plain(joinAll(xs.map((x) => x.l)))).toEqual(xs.map((x) => x.m).reduce(join, model({ readers: undefined, trusted: true, sources: undefined })));
    }), RUNS);
    expect(plain(Label.trusted())).toEqual({ readers: "public", trusted: true, sources: [] });
    expect(Label.trusted()).toBe(Label.BOTTOM);
    expect(plain(Label.untrusted("email:eve"))).toEqual({ readers: "public", trusted: false, sources: ["email:eve"] });
    expect(Label.untrusted("x").toJSON()).toEqual({ readers: "public", trusted: false, sources: ["x"] });
  });

  // Every operation of a run joins labels, so joins that add nothing must not allocate: the
  // interpreter's speed on trusted programs and its memory on long ones rest on these.
  it("a join that adds nothing returns one of its inputs, and a repeated join the same object", () => {
    fc.assert(fc.property(labelArb, labelArb, (a, b) => {
      const j = a.l.join(b.l);
      if (b.l.flowsTo(a.l)) expect(j).toBe(a.l);
      else if (a.l.flowsTo(b.l)) expect(j).toBe(b.l);
      else {
        expect(j).not.toBe(a.l);
        expect(a.l.join(b.l)).toBe(j);
      }
      // Sources that add nothing share the input's array (toContain compares with ===).
      const united = set([...a.m.sources, ...b.m.sources]).length;
      if (united === a.m.sources.length || united === b.m.sources.length) expect([a.l.sources, b.l.sources]).toContain(j.sources);
    }), RUNS);
    expect(Label.of({ trusted: true })).toBe(Label.BOTTOM);
    expect(Label.of({ readers: "public", trusted: true, sources: [] })).toBe(Label.BOTTOM);
    expect(Label.of({ trusted: true, sources: ["a"] }).join(Label.BOTTOM).sources).toEqual(["a"]);
  });

  it("join is commutative, associative and idempotent, with the bottom as identity", () => {
    fc.assert(fc.property(labelArb, labelArb, labelArb, (a, b, c) => {
      expect(a.l.join(b.l).equals(b.l.join(a.l))).toBe(true);
      expect(a.l.join(b.l).join(c.l).equals(a.l.join(b.l.join(c.l)))).toBe(true);
      expect(a.l.join(a.l).equals(a.l)).toBe(true);
      expect(Label.BOTTOM.join(a.l).equals(a.l) && a.l.join(Label.BOTTOM).equals(a.l)).toBe(true);
    }), RUNS);
  });
});

// Labels of lists that join one labelled item after another grow to hundreds of sources (or
// readers); a few are then looked up in them by binary search (label.ts containsFew). The labels
// above are too short to reach it.
describe("the label lattice on long lists", () => {
  const names = Array.from({ length: 120 }, (_, i) => `s${String(i).padStart(3, "0")}`);
  const long = fc.uniqueArray(fc.constantFrom(...names), { minLength: 20, maxLength: 100 });
  // A few names, mostly from the long list (so that containing all of them is often true).
  const few = (from: string[]) => fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...from) }, { weight: 1, arbitrary: fc.constantFrom(...names) }), { maxLength: 5 });
  const pair = long.chain((big) => fc.tuple(fc.constant(big), few(big), fc.boolean(), fc.boolean(), fc.boolean()));
  const specs = pair.map(([big, small, onReaders, trustBig, trustSmall]) => {
    type Parts = Parameters<typeof model>[0];
    const a: Parts = onReaders ? { readers: small, trusted: trustBig, sources: ["a"] } : { sources: big, trusted: trustBig };
    const b: Parts = onReaders ? { readers: big, trusted: trustSmall, sources: ["a"] } : { sources: small, trusted: trustSmall };
    return [{ l: Label.of(a), m: model(a) }, { l: Label.of(b), m: model(b) }] as const;
  });

  it("join, flowsTo and equals agree with the model, both ways round", () => {
    fc.assert(fc.property(specs, ([a, b]) => {
      for (const [x, y] of [[a, b], [b, a]] as const) {
        expect(plain(x.l.join(y.l))).toEqual(join(x.m, y.m));
        expect(x.l.flowsTo(y.l)).toBe(same(join(x.m, y.m), y.m));
        expect(x.l.equals(y.l)).toBe(same(x.m, y.m));
      }
    }), { numRuns: 1000 });
  });

  it("a one-source label joined into a long one that has it returns the long one; one it lacks adds it", () => {
    const big = Label.of({ sources: names });
    for (const n of names) expect(big.join(Label.untrusted(n))).toBe(big);
    const without = Label.of({ sources: names.filter((n) => n !== "s060") });
    expect(without.join(Label.untrusted("s060")).sources).toEqual(names);
    expect(Label.untrusted("s060").flowsTo(without)).toBe(false);
    expect(Label.untrusted("s999").flowsTo(big)).toBe(false);
    expect(Label.untrusted("a").flowsTo(big)).toBe(false);
  });
});

describe("a label made from what is not a list of strings", () => {
  it("is a TypeError naming the field and the item, so a label function's mistake is found where it was made", () => {
    expect(() => Label.of({ readers: [undefined as never] })).toThrow(/readers\[0\] must be a string, not undefined/);
    expect(() => Label.of({ readers: ["maya@x.com", ["leo@x.com"]] as never })).toThrow(/readers\[1\] must be a string, not an array/);
    expect(() => Label.of({ sources: [null as never] })).toThrow(/sources\[0\] must be a string, not null/);
    expect(() => Label.of({ sources: { length: 1, 0: "z" } as never })).toThrow(/sources must be an array of strings, not object/);
    expect(() => Label.of({ readers: "maya@x.com" as never })).toThrow(/readers must be "public" or an array of strings/);
    expect(() => Label.untrusted(42 as never)).toThrow(/sources\[0\] must be a string, not number/);
  });
});
