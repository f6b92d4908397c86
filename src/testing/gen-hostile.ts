/**
 * Programs that try to break the interpreter rather than leak: endless loops and recursion,
 * unbounded strings and arrays, tool calls in a loop, bad arguments to tools and builtins,
 * values a host would choke on, and broken syntax. A robust runtime ends every one of them
 * with a result (completed, blocked, or failed with a known kind), never a crash or a hang.
 */
import fc from "fast-check";
import { planArb, type PlanOptions } from "./arbitraries.js";

/** Statements that exhaust a limit or hit an error path. */
export const HOSTILE_STATEMENTS: readonly string[] = [
  "while (true) {}",
  "for (;;) { v0++; }",
  "do { v1 = v1 + 1; } while (v1 > 0);",
  "{ const r = (n) => r(n + 1) + 1; r(0); }",
  "function deep(n) { return n === 0 ? 0 : 1 + deep(n - 1); } v0 = deep(100000);",
  `{ let z = "ab"; while (true) z = z + z; }`,
  "{ const big = []; while (true) big.push(big.length); }",
  "{ let z = [1]; for (;;) z = z.concat(z); }",
  "for (const x of arr) arr.push(x);",
  `w = "a".repeat(1e9);`,
  `w = "x".padStart(1e9);`,
  "v0 = Array.from({ length: 1e9 }).length;",
  "{ const a = []; a.push(a); w = JSON.stringify(a); }",
  "{ const a = {}; a.self = a; send({ value: a }); }",
  "while (true) send({ value: 1 });",
  `while (true) query_ai_assistant("again", S);`,
  "send(1, 2);",
  "send(null);",
  "send([1]);",
  "send({ value: () => 1 });",
  `query_ai_assistant(123, null);`,
  `query_ai_assistant("q", { type: "nope" });`,
  "read_untrusted({ extra: [1, 2, 3] });",
  "v0 = (1).toFixed(500);",
  "v0 = (255).toString(99);",
  `v0 = "a".localeCompare("b", "xx-not-a-locale-%%");`,
  `w = new Date("garbage").toISOString();`,
  "v0 = Date.now();",
  "v0 = Math.random() < 2 ? 1 : 0;",
  `v0 = /(a+)+$/.test("a".repeat(5000) + "b") ? 1 : 0;`,
  "v0 = JSON.parse(\"[\".repeat(100000));",
  "v0 = notDeclared + 1;",
  "throw undefined;",
  "throw { deep: { deeper: [1, 2, 3] } };",
  "v0 = null.k;",
  "v0 = (void 0)();",
  "o.k = { [Symbol]: 1 };",
  "v0 = [1, 2, 3].reduce((a, b) => a + b);",
  "v0 = [].reduce((a, b) => a + b);",
  "arr.length = 1e9;",
  "v0 = Number.MAX_VALUE * 10;",
  "w = String.fromCharCode(0xd800) + String.fromCharCode(0xdfff);",
  "v0 = parseInt(\"9\".repeat(400));",
  "w = `${[1, [2, [3, [4]]]]}`;",
  "{ const o3 = {}; for (let i = 0; i < 100000; i++) o3[\"k\" + i] = i; v0 = Object.keys(o3).length; }",
];

/** Pieces of syntax that a parser or checker must refuse with a clear error. */
export const REFUSED_FRAGMENTS: readonly string[] = [
  "class A {}",
  "this.x = 1;",
  "import fs from \"fs\";",
  "eval(\"1\");",
  "new Function(\"return 1\");",
  "function* g() { yield 1; }",
  "with (o) { k = 1; }",
  "o.__proto__ = null;",
  "const q = 1; q = 2;",
  "v0 = 10n;",
  "label: label: v0 = 1;",
  "({ get x() { return 1; } });",
  "new WeakMap();",
  "debugger;",
];

/**
 * Generated plans with hostile statements and refused fragments spliced in, and some cut short
 * at a random point (broken syntax).
 */
export function hostilePlanArb(options: PlanOptions = {}): fc.Arbitrary<string> {
  const insert = fc.constantFrom(...HOSTILE_STATEMENTS, ...REFUSED_FRAGMENTS);
  return fc
    .record({ plan: planArb({ statements: 3, ...options }), extra: fc.array(insert, { minLength: 1, maxLength: 2 }), at: fc.nat(), cut: fc.option(fc.nat(), { freq: 5 }) })
    .map(({ plan, extra, at, cut }) => {
      const lines = plan.split("\n");
      const i = 14 + (at % Math.max(1, lines.length - 14));
      const out = [...lines.slice(0, i), ...extra, ...lines.slice(i)].join("\n");
      return cut === null ? out : out.slice(0, cut % out.length);
    });
}
