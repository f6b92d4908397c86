/**
 * What the text of an object literal's spread says about the keys it can bring, computed once at
 * compile time for the rule of spreads over keys already there (rules.ts spreadOverwrites).
 */
import type * as acorn from "acorn";
import type { Cx } from "./context.js";
import { resolve } from "./scope.js";

/** A property's key when the text names it (`a: 1`, `"a": 1`, `1: x`, `a`, `a() {}`), else null. */
export function staticKeyOf(p: acorn.Property): string | null {
  if (p.computed) return null;
  return p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
}

/**
 * The keys a spread's argument can have in any run, read from its text (compile time): an
 * object literal's own keys when the text names every one (no spread, no computed key); none
 * for `null` or `undefined`; either side's of `c ? a : b`; the right side's of `c && a`, whose
 * other result is a falsy `c` (a primitive, or "", with no keys). Null when the text does not
 * bound them: `a || b` and `a ?? b` may give `a`, any value, as may a variable or a call.
 * The rule that uses the bound is spreadOverwrites (rules.ts).
 */
export function spreadKeys(node: acorn.Node, cx: Cx): ReadonlySet<string> | null {
  switch (node.type) {
    case "ObjectExpression": {
      const keys = new Set<string>();
      for (const p of (node as acorn.ObjectExpression).properties) {
        const k = p.type === "Property" ? staticKeyOf(p) : null;
        if (k === null) return null;
        keys.add(k);
      }
      return keys;
    }
    case "Literal":
      return (node as acorn.Literal).raw === "null" ? new Set() : null;
    case "Identifier":
      // `undefined` unless the program declared a binding of that name.
      return (node as acorn.Identifier).name === "undefined" && resolve(cx.scope, "undefined") === null && cx.globals.values.get("undefined") === undefined ? new Set() : null;
    case "ConditionalExpression": {
      const c = node as acorn.ConditionalExpression;
      const a = spreadKeys(c.consequent, cx);
      const b = a === null ? null : spreadKeys(c.alternate, cx);
      return a === null || b === null ? null : new Set([...a, ...b]);
    }
    case "LogicalExpression": {
      const l = node as acorn.LogicalExpression;
      return l.operator === "&&" ? spreadKeys(l.right, cx) : null;
    }
    case "ParenthesizedExpression":
      return spreadKeys((node as unknown as { expression: acorn.Node }).expression, cx);
    default:
      return null;
  }
}
