/**
 * What the plan generators reach: every node type of generated plans counted by the position it
 * stands in (its parent's type and field, `IfStatement.test`, `SwitchCase.test`,
 * `AssignmentPattern.right`, …), and the positions leaks hid in, which the generators must reach
 * (the test in test/soundness/generators.test.ts checks them; `npm run coverage:generators`
 * prints the table of src/testing/README.md).
 */
import * as acorn from "acorn";
import fc from "fast-check";
import { planArb, soundnessProgramArb } from "./arbitraries.js";
import { placeStatementArb } from "./gen-places.js";

/** Counts of `NodeType @ Parent.field` over some plans. */
export type Coverage = Map<string, number>;

/** The position of every node of every program, counted. */
export function positionCounts(programs: readonly string[]): Coverage {
  const out: Coverage = new Map();
  const add = (k: string): void => void out.set(k, (out.get(k) ?? 0) + 1);
  const visit = (node: acorn.Node, where: string): void => {
    add(`${node.type} @ ${where}`);
    for (const key of Object.keys(node)) {
      if (key === "loc" || key === "type" || key === "start" || key === "end") continue;
      const v = (node as unknown as Record<string, unknown>)[key];
      const here = `${node.type}.${key}`;
      if (Array.isArray(v)) for (const c of v) isNode(c) && visit(c, here);
      else if (isNode(v)) visit(v, here);
    }
  };
  for (const p of programs) visit(acorn.parse(p, { ecmaVersion: "latest", sourceType: "script", allowAwaitOutsideFunction: true }), "top");
  return out;
}

/** A markdown table of how often `coverage` reached each of `positions`. */
export function positionsTable(coverage: Coverage, plans: number, positions: ReadonlyArray<[string, (key: string) => boolean]> = LEAK_POSITIONS, title = "leak position"): string {
  const rows = [`| ${title} (${plans} plans) | times |`, "| --- | --- |"];
  for (const [name, test] of positions) rows.push(`| ${name} | ${[...coverage].filter(([k]) => test(k)).reduce((a, [, n]) => a + n, 0)} |`);
  return rows.join("\n");
}

/** A markdown table: each leak position and how often `coverage` reached it, then each node type and in how many positions. */
export function coverageTable(coverage: Coverage, plans: number): string {
  const rows = [positionsTable(coverage, plans)];
  const byType = new Map<string, { positions: number; times: number }>();
  for (const [k, n] of coverage) {
    const type = k.slice(0, k.indexOf(" @ "));
    const t = byType.get(type) ?? { positions: 0, times: 0 };
    byType.set(type, { positions: t.positions + 1, times: t.times + n });
  }
  rows.push("", "| node type | positions | times |", "| --- | --- | --- |");
  for (const [type, t] of [...byType].sort((a, b) => b[1].positions - a[1].positions)) rows.push(`| ${type} | ${t.positions} | ${t.times} |`);
  return rows.join("\n");
}

function isNode(v: unknown): v is acorn.Node {
  return v !== null && typeof v === "object" && typeof (v as { type?: unknown }).type === "string";
}

/**
 * The positions every leak mechanism so far hid in, each as a test over a node and its position
 * (the brief of issue 14: case tests, chain tails, default parameters, destructuring targets,
 * spread arguments, every builtin that takes a callback, loop heads, finally blocks, …).
 */
export const LEAK_POSITIONS: ReadonlyArray<[string, (key: string) => boolean]> = [
  ["a case test", (k) => k.endsWith("@ SwitchCase.test")],
  ["a call in a case test", (k) => k === "CallExpression @ SwitchCase.test"],
  ["the tail of an optional chain", (k) => /@ ChainExpression\.expression$/.test(k)],
  ["an optional call", (k) => k.startsWith("CallExpression @") && k.includes("Chain")],
  ["a default parameter", (k) => /@ AssignmentPattern\.right$/.test(k)],
  ["a destructuring-assignment target", (k) => k === "MemberExpression @ ArrayPattern.elements"],
  ["a loop-head target", (k) => k === "MemberExpression @ ForOfStatement.left"],
  ["a loop-head pattern", (k) => k === "ArrayPattern @ VariableDeclarator.id"],
  ["a spread argument", (k) => k === "SpreadElement @ CallExpression.arguments"],
  ["a spread into an object", (k) => k === "SpreadElement @ ObjectExpression.properties"],
  ["a callback argument", (k) => k === "ArrowFunctionExpression @ CallExpression.arguments"],
  ["a callee chosen by a conditional", (k) => k === "ConditionalExpression @ CallExpression.callee" || k === "ConditionalExpression @ CallExpression.arguments"],
  ["a finally block", (k) => k === "BlockStatement @ TryStatement.finalizer"],
  ["a for…in", (k) => k.startsWith("ForInStatement @")],
  ["a labelled statement", (k) => k.startsWith("LabeledStatement @")],
  ["a computed member written", (k) => k === "MemberExpression @ AssignmentExpression.left"],
  ["a throw", (k) => k.startsWith("ThrowStatement @")],
  ["a function expression with a name", (k) => k === "Identifier @ FunctionExpression.id"],
];

/**
 * The heads an error's place hid behind (attack round 5: the place was the last statement run),
 * as built by the plans of the error-place property (`planArb({ focus: placeStatementArb })`,
 * test/soundness/error-places.test.ts). They are a property of their own, not part of the
 * soundness plans: each run fails there, and in the main properties the shapes moved the plan
 * stream the planted-leak hunts are measured on.
 */
export const PLACE_POSITIONS: ReadonlyArray<[string, (key: string) => boolean]> = [
  ["a while test", (k) => k.endsWith("@ WhileStatement.test")],
  ["a do…while test", (k) => k.endsWith("@ DoWhileStatement.test")],
  ["a for's init expression", (k) => k === "AssignmentExpression @ ForStatement.init"],
  ["a for's test", (k) => k.endsWith("@ ForStatement.test")],
  ["a for's update", (k) => k.endsWith("@ ForStatement.update")],
  ["a for…of head", (k) => k.endsWith("@ ForOfStatement.right")],
  ["a for…in head", (k) => k.endsWith("@ ForInStatement.right")],
  ["a loop-head pattern", (k) => k === "ObjectPattern @ VariableDeclarator.id"],
  ["a switch value", (k) => k.endsWith("@ SwitchStatement.discriminant")],
  ["a case test", (k) => k.endsWith("@ SwitchCase.test")],
  ["a labelled loop", (k) => k === "WhileStatement @ LabeledStatement.body"],
  ["a catch pattern", (k) => k === "ObjectPattern @ CatchClause.param"],
];

/** Positions of {@link LEAK_POSITIONS} (or of `positions`) that `coverage` never reached. */
export function missingPositions(coverage: Coverage, positions: ReadonlyArray<[string, (key: string) => boolean]> = LEAK_POSITIONS): string[] {
  const keys = [...coverage.keys()];
  return positions.filter(([, test]) => !keys.some(test)).map(([name]) => name);
}

/** Samples `n` plans of the soundness generator (seeded) and counts their positions. */
export function generatorCoverage(n: number, seed = 7): Coverage {
  return positionCounts(fc.sample(soundnessProgramArb, { numRuns: n, seed }));
}

/** Samples `n` plans of the error-place property (seeded) and counts their positions. */
export function placeCoverage(n: number, seed = 7): Coverage {
  return positionCounts(fc.sample(planArb({ focus: placeStatementArb }), { numRuns: n, seed }));
}
