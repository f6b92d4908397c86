/**
 * fast-check arbitraries that write plans: small, scope-correct programs in the supported
 * language that read untrusted, secret and trusted data, compute with every kind of construct,
 * branch on what they read and call sinks. Each arbitrary makes one kind of thing and is
 * named for it; they compose into {@link programArb}.
 *
 * Every program starts with the same prelude, so every name it uses is declared:
 *   u (untrusted object), s (secret object), t (trusted object) from tools;
 *   v0, v1, v2 (let numbers), w (let string), o (object), arr (array);
 *   f(x) (a function that reads and writes the variables and may return early).
 */
import fc from "fast-check";

/** The fields of every input object: a number, a string, a boolean and a list of numbers. */
export interface InputRecord {
  a: number;
  b: string;
  c: boolean;
  list: number[];
}

/** An input record; small values so that branches go both ways. */
export const inputRecordArb: fc.Arbitrary<InputRecord> = fc.record({
  a: fc.integer({ min: -3, max: 3 }),
  b: fc.constantFrom("", "x", "yes", "no", "eve@evil.com"),
  c: fc.boolean(),
  list: fc.array(fc.integer({ min: -2, max: 3 }), { maxLength: 4 }),
});

const NUM_VARS = ["v0", "v1", "v2"];
const SOURCES = ["u", "s", "t"];

/** A numeric leaf: a literal, a variable, or a field read from a source. */
export const numberLeafArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: -2, max: 3 }).map(String) },
  { weight: 3, arbitrary: fc.constantFrom(...NUM_VARS) },
  { weight: 4, arbitrary: fc.constantFrom(...SOURCES).map((src) => `${src}.a`) },
  { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `${src}.list.length`) },
  { weight: 1, arbitrary: fc.constantFrom("o.k", "arr.length", "arr[0]", "w.length") },
);

/** A boolean leaf: comparisons of numbers and strings, and the sources' flags. */
export const conditionLeafArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SOURCES).map((src) => `${src}.c`) },
  { weight: 3, arbitrary: fc.tuple(numberLeafArb, fc.constantFrom("<", ">", "===", "!==", "<="), numberLeafArb).map(([a, op, b]) => `${a} ${op} ${b}`) },
  { weight: 2, arbitrary: fc.constantFrom(...SOURCES).map((src) => `${src}.b === "yes"`) },
  { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `${src}.list.includes(1)`) },
  { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `"b" in ${src} && ${src}.b.startsWith("y")`) },
);

/** A numeric expression of bounded depth, over every operator and many builtins. */
export function numberExprArb(depth: number, calls = true): fc.Arbitrary<string> {
  if (depth <= 0) return numberLeafArb;
  const sub = numberExprArb(depth - 1, calls);
  const cond = conditionArb(depth - 1);
  return fc.oneof(
    { weight: 4, arbitrary: numberLeafArb },
    { weight: 3, arbitrary: fc.tuple(sub, fc.constantFrom("+", "-", "*", "%", "|", "&", "^", "<<"), sub).map(([a, op, b]) => `(${a} ${op} ${b})`) },
    { weight: 2, arbitrary: fc.tuple(cond, sub, sub).map(([c, a, b]) => `(${c} ? ${a} : ${b})`) },
    { weight: 1, arbitrary: fc.tuple(sub, sub).map(([a, b]) => `Math.max(${a}, ${b})`) },
    { weight: 1, arbitrary: sub.map((a) => `String(${a}).length`) },
    { weight: 1, arbitrary: sub.map((a) => `\`n=\${${a}}\`.length`) },
    { weight: 1, arbitrary: fc.tuple(cond, sub).map(([c, a]) => `(${c} && ${a}) || 0`) },
    { weight: 1, arbitrary: sub.map((a) => `(${a} ?? 1)`) },
    { weight: calls ? 1 : 0, arbitrary: sub.map((a) => `f(${a})`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES, "arr").map((src) => `${src === "arr" ? "arr" : src + ".list"}.filter((x) => x > 0).length`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `${src}.list.reduce((acc, x) => acc + x, 0)`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...SOURCES), sub).map(([src, a]) => `${src}.list.map((x) => x * ${a}).indexOf(2)`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `(${src}.list.find((x) => x > 1) ?? -1)`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `(${src}.list.some((x) => x === 2) ? 1 : 0)`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `JSON.stringify(${src}.list).length`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `Object.keys(${src}.c ? o : {}).length`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `[...${src}.list].sort((x, y) => x - y)[0] ?? 0`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `${src}.b.split("").length`) },
    { weight: 1, arbitrary: fc.constantFrom(...SOURCES).map((src) => `${src}.b.replace(/e/g, "ee").length`) },
  );
}

/** A condition of bounded depth. */
export function conditionArb(depth: number): fc.Arbitrary<string> {
  if (depth <= 0) return conditionLeafArb;
  const sub = conditionArb(depth - 1);
  return fc.oneof(
    { weight: 4, arbitrary: conditionLeafArb },
    { weight: 1, arbitrary: fc.tuple(sub, fc.constantFrom("&&", "||"), sub).map(([a, op, b]) => `(${a} ${op} ${b})`) },
    { weight: 1, arbitrary: sub.map((a) => `!(${a})`) },
    { weight: 1, arbitrary: fc.tuple(numberExprArb(depth - 1), numberExprArb(depth - 1)).map(([a, b]) => `${a} < ${b}`) },
  );
}

/** A value for a sink: a number, a string built from numbers, or a small structure. */
export function sinkValueArb(depth: number): fc.Arbitrary<string> {
  const n = numberExprArb(depth);
  return fc.oneof(
    { weight: 3, arbitrary: n },
    { weight: 1, arbitrary: n.map((a) => `"id-" + ${a}`) },
    { weight: 1, arbitrary: fc.tuple(n, n).map(([a, b]) => `{ first: ${a}, second: [${b}] }`) },
    { weight: 1, arbitrary: fc.constantFrom("w", "o.k", "arr", "o", "w.toUpperCase()") },
  );
}

/** One statement; loops and branches nest up to `depth`. `inLoop` allows break and continue. */
export function statementArb(depth: number, inLoop = false, loopVar = 0): fc.Arbitrary<string> {
  const e = numberExprArb(1);
  const c = conditionArb(1);
  const leaves: Array<fc.WeightedArbitrary<string>> = [
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...NUM_VARS), fc.constantFrom("=", "+=", "-=", "*=", "||=", "??="), e).map(([v, op, x]) => `${v} ${op} ${x};`) },
    { weight: 1, arbitrary: fc.constantFrom(...NUM_VARS).map((v) => `${v}++;`) },
    { weight: 2, arbitrary: e.map((x) => `o.k = ${x};`) },
    { weight: 1, arbitrary: e.map((x) => `o["m" + (${x} % 2)] = 1;`) },
    { weight: 2, arbitrary: e.map((x) => `arr.push(${x});`) },
    { weight: 1, arbitrary: fc.tuple(e, e).map(([i, x]) => `arr[Math.abs(${i}) % 3] = ${x};`) },
    { weight: 1, arbitrary: e.map((x) => `w = w + String(${x});`) },
    { weight: 1, arbitrary: fc.constant(`arr.pop();`) },
    { weight: 1, arbitrary: e.map((x) => `f(${x});`) },
    { weight: 3, arbitrary: sinkValueArb(1).map((x) => `send({ value: ${x} });`) },
    { weight: 2, arbitrary: numberExprArb(1).map((x) => `send({ value: ${x} });`) },
    { weight: 1, arbitrary: sinkValueArb(1).map((x) => `publish({ value: ${x} });`) },
    { weight: 1, arbitrary: e.map((x) => `{ const tmp = [${x}, 1]; v0 = tmp.length + tmp[0]; }`) },
  ];
  if (inLoop) leaves.push({ weight: 2, arbitrary: c.map((x) => `if (${x}) break;`) }, { weight: 1, arbitrary: c.map((x) => `if (${x}) continue;`) });
  if (depth <= 0) return fc.oneof(...leaves);
  const block = (d: number, loop: boolean) => fc.array(statementArb(d, loop, loopVar + 1), { minLength: 1, maxLength: 3 }).map((ss) => ss.join(" "));
  const x = `x${loopVar}`;
  return fc.oneof(
    ...leaves,
    { weight: 5, arbitrary: fc.tuple(c, block(depth - 1, inLoop), block(depth - 1, inLoop)).map(([k, a, b]) => `if (${k}) { ${a} } else { ${b} }`) },
    { weight: 3, arbitrary: fc.tuple(c, block(depth - 1, inLoop)).map(([k, a]) => `if (${k}) { ${a} }`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...SOURCES.map((src) => `${src}.list`), "arr", "[1, 2]"), block(depth - 1, true)).map(([it, b]) => `for (const ${x} of ${it}) { v1 += ${x}; ${b} }`) },
    { weight: 1, arbitrary: fc.tuple(e, block(depth - 1, true)).map(([n, b]) => `for (let ${x} = 0; ${x} < Math.min(3, Math.abs(${n})); ${x}++) { ${b} }`) },
    { weight: 1, arbitrary: fc.tuple(c, block(depth - 1, true)).map(([k, b]) => `{ let guard${loopVar} = 0; while (guard${loopVar} < 3 && (${k})) { guard${loopVar}++; ${b} } }`) },
    { weight: 1, arbitrary: fc.tuple(e, block(depth - 1, inLoop), block(depth - 1, inLoop)).map(([d, a, b]) => `switch (${d}) { case 0: ${a} break; case 1: ${b} default: v2 = 7; }`) },
    { weight: 2, arbitrary: fc.tuple(block(depth - 1, false), c, e, block(depth - 1, false)).map(([a, k, m, b]) => `try { ${a} if (${k}) throw new Error("e" + ${m}); v0 = 1; } catch (err${loopVar}) { v2 = err${loopVar}.message.length; ${b} }`) },
    { weight: 1, arbitrary: fc.tuple(c, block(depth - 1, false)).map(([k, a]) => `arr.forEach((el) => { if (${k}) { v1 = el; } }); ${a}`) },
    { weight: 1, arbitrary: fc.tuple(c, e).map(([k, m]) => `${k} && (v0 = ${m});`) },
  );
}

/** The body of f: reads and writes the shared variables, may return early. */
export const functionBodyArb: fc.Arbitrary<string> = fc.tuple(conditionArb(1), numberExprArb(1, false), numberExprArb(0, false)).map(
  ([c, a, b]) => `if (${c}) { v2 = x; return ${a}; } v1 = v1 + 1; return x + ${b};`,
);

const PRELUDE = `const u = read_untrusted(); const s = read_secret(); const t = read_trusted();
let v0 = 0; let v1 = 1; let v2 = 2; let w = "w"; const o = { k: 0 }; const arr = [1, 2];`;

/** A whole program: the prelude, a function, statements, and a final sink call of the state. */
export const programArb: fc.Arbitrary<string> = fc
  .tuple(functionBodyArb, fc.array(statementArb(2), { minLength: 1, maxLength: 6 }))
  .map(
    ([fbody, stmts]) =>
      `${PRELUDE}\nfunction f(x) { ${fbody} }\n${stmts.join("\n")}\n` +
      ["v0", "v1", "v2", "w", "o.k", "o", "arr"].map((v) => `send({ value: ${v} });`).join(" ") +
      `\npublish({ value: [v0, v1, v2] });`,
  );
