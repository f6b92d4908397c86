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

/**
 * A catch block whose try has a finally, where what may throw is in a function the catch block
 * calls (a closure, a callback of a builtin, a method), or where whether the catch block runs at
 * all was decided: the finally then ends otherwise (break, continue, return) or calls a sink, and
 * the plan goes on (attack round 5, r5-guards: a callee's throw dropped the label of what may
 * have thrown in it, and a catch block that ran in one run only raised the pc in that run).
 */
export function catchFinallyStatementArb(sc: StmtScope): fc.Arbitrary<string> {
  const d = fc.oneof(pick(...DECISIONS), condLeaf(sc));
  const n = numLeaf(sc);
  const write = fc.oneof(fc.tuple(pick("v0", "v1", "v2", "o.k"), n).map(([p, x]) => `${p} = ${x};`), n.map((x) => `send({ value: ${x} });`));
  const thr = pick(`throw new Error("x");`, "throw 1;", "null.k;");
  return fc.oneof(
    fc.tuple(d, thr, write, write).map(([k, t, x, y]) => `{ const c0 = () => { if (${k}) { ${t} } ${x} }; F0: try { throw 0; } catch { c0(); } finally { break F0; } ${y} }`),
    fc.tuple(d, thr, write, write).map(([k, t, x, y]) => `{ const c0 = (p0) => { if (${k}) { ${t} } ${x} return p0; }; v1 = ((q0) => { try { throw 0; } catch { c0(q0); } finally { return 2; } })(1); ${y} }`),
    fc.tuple(d, thr, write, write).map(([k, t, x, y]) => `{ for (const q0 of [0]) { try { throw 0; } catch { [1].forEach((p0) => { if (${k}) { ${t} } ${x} }); } finally { continue; } } ${y} }`),
    fc.tuple(d, thr, write, write).map(([k, t, x, y]) => `{ const c0 = { m(p0) { if (${k}) { ${t} } return p0; } }; try { try { throw 0; } catch { c0.m(1); ${x} } finally { ${y} } } catch {} }`),
    fc.tuple(d, thr, write, write).map(([k, t, x, y]) => `{ const c0 = () => { if (${k}) { ${t} } }; for (const q0 of [0]) { try { c0(); } catch { c0(); ${x} } finally { continue; } } ${y} }`),
    fc.tuple(d, thr, d, write).map(([k, t, j, y]) => `{ const c0 = () => { if (${k}) { ${t} } }; F0: try { c0(); } catch { if (${j}) { ${t} } } finally { break F0; } ${y} }`),
  );
}
