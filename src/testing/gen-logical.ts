/**
 * Logical assignments (`&&=`, `||=`, `??=`) through a base data chose (attack round r13): a
 * string, a Map, an array, a regex, an object born under the decision, a trusted or an
 * untrusted object, with a key each kind treats its own way (`length`, `size`, an index,
 * `lastIndex`, a plain key), inside a try or not. Where one run makes the write (which may throw,
 * stop, or go through) and the other keeps the value, the write not made must charge what the
 * write made would have: the allowed sink calls after it, and what the planner is told when both
 * runs then fail alike, must agree. A property of its own (test/soundness/logical-places.test.ts),
 * so the main plan stream the planted-leak hunts are measured on stays as it is.
 */
import fc from "fast-check";
import { condLeaf } from "./gen-expressions.js";
import type { StmtScope } from "./gen-statements.js";

const pick = (...xs: string[]): fc.Arbitrary<string> => fc.constantFrom(...xs);
const DECISIONS = ["u", "s"].flatMap((x) => [`${x}.c`, `${x}.a > 0`, `${x}.b === "yes"`, `${x}.list.length > 1`]).concat(["m[1].n > 0", "t.c"]);

/** One value of each kind a write can meet, truthy and falsy where the kind has both. */
const BASES = [`"abc"`, `""`, "{ k: 1, length: 1 }", "{ k: 0 }", "[1]", "[]", "new Map([[1, 1]])", "new Map()", "/e/g", "o", "lb0", "m[1]", "u.list", "null"];
const KEYS = ["k", "length", "size", "[0]", "lastIndex"];
const OPS = ["&&=", "||=", "??="];

/** `{ const lb0 = …; const lq0 = d ? a : b; lq0.key op= x; }`, then reads of the trusted object, a send, maybe a failure. */
export function logicalStatementArb(sc: StmtScope): fc.Arbitrary<string> {
  const d = fc.oneof({ weight: 3, arbitrary: pick(...DECISIONS) }, { weight: 1, arbitrary: condLeaf(sc) });
  return fc
    .tuple(d, pick(...BASES), pick(...BASES), pick(...OPS), pick(...KEYS), fc.boolean(), pick("0", "5", "v0"), fc.boolean())
    .map(([k, a, b, op, key, inTry, x, fails]) => {
      const target = key.startsWith("[") ? `lq0${key}` : `lq0.${key}`;
      const write = `${target} ${op} ${x};`;
      const body = inTry ? `try {\n    ${write}\n  } catch {\n    v0 = 1;\n  }` : write;
      const then = `v1 = lb0.k;\n  send({ value: t.a });`;
      return `{\n  const lb0 = { k: 0 };\n  const lq0 = (${k}) ? ${a} : ${b};\n  ${body}\n  ${then}\n}${fails ? "\nwhile (null.k) {}" : ""}`;
    });
}
