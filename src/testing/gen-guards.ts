/**
 * Statements for the rule of guards that end the run (issue 15, precision): a branch that can
 * only throw, decided by untrusted or secret data, at the top level, in a helper, in a callback,
 * with writes before its throw or an else branch; and the same guard where a throw does not end
 * the run (inside a try at any depth, in a catch block whose finally runs after it), where the
 * rest must still carry the decision.
 */
import fc from "fast-check";
import { condLeaf, numLeaf } from "./gen-expressions.js";
import type { StmtScope } from "./gen-statements.js";

const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
const DECISIONS = ["u", "s"].flatMap((x) => [`${x}.c`, `${x}.a > 0`, `${x}.b === "yes"`, `${x}.list.length === 0`]).concat(["m[1].n > 0", "t.c"]);

/** One statement with a guard (see the module comment). */
export function guardStatementArb(sc: StmtScope): fc.Arbitrary<string> {
  const d = fc.oneof(pick(...DECISIONS), condLeaf(sc));
  const n = numLeaf(sc);
  const write = fc.oneof(fc.tuple(pick("v0", "v1", "v2", "o.k", "o2.k"), n).map(([p, x]) => `${p} = ${x};`), n.map((x) => `send({ value: ${x} });`));
  const thr = pick(`throw new Error("x");`, "throw 1;", `throw new Error(String(v0));`);
  return fc.oneof(
    // Guards that end the run: what follows need not carry their decision.
    fc.tuple(d, thr).map(([k, t]) => `if (${k}) ${t}`),
    fc.tuple(d, write, thr, write).map(([k, x, t, y]) => `if (${k}) { ${x} ${t} } ${y}`),
    fc.tuple(d, thr, write).map(([k, t, x]) => `if (${k}) { ${t} } else { ${x} }`),
    fc.tuple(d, write, thr).map(([k, x, t]) => `if (${k}) { ${x} } else ${t}`),
    fc.tuple(d, thr, n, write).map(([k, t, a, y]) => `{ const h0 = (p0) => { if (${k}) { ${t} } return p0; }; v1 = h0(${a}); ${y} }`),
    fc.tuple(d, thr, write).map(([k, t, x]) => `[1, 2].forEach((p0) => { if (${k} && p0 > 1) { ${t} } ${x} });`),
    // The same guard where a throw does not end the run (the decision read before the try, where
    // reading it cannot throw).
    fc.tuple(d, write, thr, write, write).map(([k, x, t, y, z]) => `{ const k0 = ${k}; try { if (k0) { ${x} ${t} } ${y} } catch { ${z} } }`),
    fc.tuple(d, thr, write, write).map(([k, t, y, z]) => `{ const k0 = ${k}; const h0 = () => { if (k0) { ${t} } }; try { h0(); ${y} } catch { ${z} } }`),
    fc.tuple(d, thr, write, write).map(([k, t, y, z]) => `{ const k0 = ${k}; try { throw 0; } catch { if (k0) { ${t} } ${y} } finally { ${z} } }`),
    fc.tuple(d, thr, write).map(([k, t, z]) => `{ const k0 = ${k}; try { try { if (k0) { ${t} } } finally { ${z} } } catch {} }`),
  );
}
