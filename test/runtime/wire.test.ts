/** The label tables of the worker boundary (src/runtime/wire.ts): what crosses, and what is rebuilt. */
import { describe, expect, it } from "vitest";
import { Label } from "../../src/labels/index.js";
import { LabelReader, LabelWriter } from "../../src/runtime/wire.js";

describe("labels crossing the worker boundary", () => {
  it("a result's label with the parts of one sent before takes its number, with no second definition", () => {
    const w = new LabelWriter();
    // What a tool's label function does: a new label per call, the same parts.
    const a = Label.untrusted("ping:1");
    const b = Label.untrusted("ping:1");
    expect(a).not.toBe(b);
    const ia = w.id(a, true);
    expect(w.take()).toHaveLength(1);
    expect(w.id(b, true)).toBe(ia);
    expect(w.take()).toEqual([]);
    // The labels of a result's labelled parts are numbered by identity only (many, mostly different).
    const c = Label.untrusted("ping:1");
    expect(w.id(c)).not.toBe(ia);
    expect(w.take()).toHaveLength(1);
  });

  it("labels that differ in any part get their own numbers, and are rebuilt as they were", () => {
    const w = new LabelWriter();
    const labels = [
      Label.untrusted("ping:1"),
      Label.untrusted("ping:2"),
      Label.of({ sources: ["ping:1"], trusted: true }),
      Label.of({ readers: ["a@x.com"], sources: ["ping:1"] }),
      Label.of({ readers: ["b@x.com"], sources: ["ping:1"] }),
      Label.of({ readers: [], sources: ["ping:1"] }),
      // A source whose text looks like the encoding of two sources.
      Label.of({ sources: ['ping:1","ping:2'] }),
      Label.of({ sources: ["ping:1", "ping:2"] }),
      // One source (the short form) whose text is another label's long form.
      Label.untrusted('["ping:1","ping:2"]'),
      Label.untrusted("\u0001ping:1"),
      Label.of({ sources: [] }),
      Label.trusted(),
    ];
    const ids = labels.map((l) => w.id(l, true));
    expect(new Set(ids).size).toBe(labels.length);
    const r = new LabelReader();
    r.add(w.take());
    for (const [i, l] of labels.entries()) {
      const back = r.get(ids[i]);
      expect([back.readers, back.trusted, back.sources]).toEqual([l.readers, l.trusted, l.sources]);
    }
  });
});
