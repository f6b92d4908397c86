/** The call view's index answers exactly what a scan of the parts would. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Label } from "../../src/labels/index.js";
import { toolCallView } from "../../src/runtime/index.js";

/** The definition: every part at or under the path, else its nearest ancestor with parts, else everything. */
function byDefinition(parts: Array<{ path: string; label: Label }>, path?: string): Label {
  const all = parts.reduce((l, p) => l.join(p.label), Label.trusted());
  if (path === undefined || path === "") return all;
  let probe = path;
  for (;;) {
    // The empty probe is the root (an empty key cannot be told from it): everything.
    if (probe === "") return all;
    const hits = parts.filter((p) => p.path === probe || p.path.startsWith(`${probe}.`));
    if (hits.length > 0) return hits.reduce((l, p) => l.join(p.label), Label.trusted());
    const cut = probe.lastIndexOf(".");
    if (cut < 0) return all;
    probe = probe.slice(0, cut);
  }
}

const key = fc.constantFrom("a", "b", "c", "0", "1", "", "a.b");
const path = fc.array(key, { minLength: 0, maxLength: 4 }).map((ks) => ks.join("."));
const label = fc.constantFrom(Label.trusted(), Label.untrusted("x"), Label.untrusted("y"), Label.of({ trusted: true, readers: ["alice"] }));

describe("toolCallView", () => {
  it("label(path) is the join of the parts at or under the path, or of its nearest ancestor's, before and after indexing", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ path, label }), { maxLength: 30 }), fc.array(path, { minLength: 1, maxLength: 30 }), (parts, queries) => {
        const view = toolCallView("t", {}, parts, Label.trusted());
        // Enough questions that some arguments get indexed as trees midway.
        for (const q of [...queries, ...queries]) {
          const got = view.label(q);
          const want = byDefinition(parts, q);
          // A path whose first key is empty reads as the root: the answer is all, at least as strict.
          if (q.startsWith(".")) expect(got.join(want).equals(got)).toBe(true);
          else expect(got.equals(want)).toBe(true);
        }
        expect(view.label().equals(byDefinition(parts))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
