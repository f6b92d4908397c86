/**
 * Expressions, abstractly: each gives a lower bound of its label and what else is certain.
 * Operations join their inputs' facts; a value that may be one of two meets them; the right side
 * of `&&`, `||`, `??` and the branches of `?:` run under the decision of what came before.
 */
import type * as acorn from "acorn";
import { staticKey } from "../language/index.js";
import { joinAllFacts, joinFacts, NOTHING } from "./facts.js";
import { evalCall } from "./calls.js";
import { readMember } from "./reads.js";
import { under, type Analysis, type Flow } from "./state.js";
import { deepOf, literal, lookupName, meetAbs, ofFact, tainted, UNKNOWN, type Abs, type Scope } from "./values.js";

/** The value of `node` in `scope` under `flow`, walking any calls it makes. */
export function evalExpr(a: Analysis, node: acorn.Node, scope: Scope, flow: Flow): Abs {
  const n = node as acorn.AnyNode;
  switch (n.type) {
    case "Literal":
      return "regex" in n && n.regex !== undefined ? { ...UNKNOWN, defined: true } : literal(n.value);
    case "Identifier":
      if (n.name === "undefined" && lookupName(scope, "undefined") === undefined) return literal(undefined);
      return lookupName(scope, n.name) ?? UNKNOWN;
    case "TemplateLiteral": {
      const parts = n.expressions.map((e) => evalExpr(a, e, scope, flow));
      // A template converts what it holds to text, contents of objects included.
      const fact = joinAllFacts(parts.map((p) => p.deep));
      const constant = parts.every((p) => p.literal !== undefined && typeof p.literal.value === "string");
      const value = constant ? n.quasis.map((q, i) => (q.value.cooked ?? "") + (i < parts.length ? (parts[i].literal!.value as string) : "")).join("") : undefined;
      return { fact, deep: fact, defined: true, data: true, ...(constant ? { literal: { value } } : {}) };
    }
    case "TaggedTemplateExpression":
      // String.raw, the one tag: a template of the raw text.
      return evalExpr(a, n.quasi, scope, flow);
    case "ArrayExpression":
      return arrayLiteral(a, n, scope, flow);
    case "ObjectExpression":
      return objectLiteral(a, n, scope, flow);
    case "MemberExpression":
      return member(a, n, scope, flow, false);
    case "ChainExpression":
      return evalChain(a, n.expression, scope, flow);
    case "CallExpression":
      return evalCall(a, n, scope, flow);
    case "NewExpression":
      for (const arg of n.arguments) evalExpr(a, arg, scope, flow);
      return { ...UNKNOWN, defined: true };
    case "AwaitExpression":
      return evalExpr(a, n.argument, scope, flow);
    case "SequenceExpression":
      return n.expressions.map((e) => evalExpr(a, e, scope, flow)).at(-1) ?? UNKNOWN;
    case "UnaryExpression": {
      const v = evalExpr(a, n.argument, scope, flow);
      if (n.operator === "void") return literal(undefined);
      return { ...ofFact(v.fact, true), data: true };
    }
    case "UpdateExpression":
      evalExpr(a, n.argument, scope, flow);
      return { ...UNKNOWN, defined: true, data: true };
    case "BinaryExpression": {
      const l = evalExpr(a, n.left, scope, flow);
      const r = evalExpr(a, n.right, scope, flow);
      return { ...ofFact(joinFacts(l.fact, r.fact), true), data: true };
    }
    case "LogicalExpression": {
      const l = evalExpr(a, n.left, scope, flow);
      const r = evalExpr(a, n.right, scope, under(flow, l.fact));
      // Either the left value itself, or the right one decided by it: the left's label either way.
      return { ...ofFact(l.fact, l.defined && r.defined), data: l.data === true && r.data === true };
    }
    case "ConditionalExpression": {
      const t = evalExpr(a, n.test, scope, flow);
      const inner = under(flow, t.fact);
      const c = evalExpr(a, n.consequent, scope, inner);
      const alt = evalExpr(a, n.alternate, scope, inner);
      return tainted(meetAbs(c, alt), t.fact);
    }
    case "AssignmentExpression": {
      if (n.left.type === "MemberExpression") evalExpr(a, n.left.object, scope, flow);
      const v = evalExpr(a, n.right, scope, flow);
      return n.operator === "=" ? v : { ...UNKNOWN, defined: true };
    }
    case "ArrowFunctionExpression":
    case "FunctionExpression":
      return { ...UNKNOWN, defined: true, fn: { node: n, scope, name: n.type === "FunctionExpression" && n.id ? n.id.name : "an arrow function" } };
    default:
      return UNKNOWN;
  }
}

/** Inside `a?.b.c`, an optional step may end the chain with undefined: only the label before it is certain. */
function evalChain(a: Analysis, node: acorn.Node, scope: Scope, flow: Flow): Abs {
  const n = node as acorn.AnyNode;
  if (n.type === "MemberExpression") return member(a, n, scope, flow, n.optional);
  if (n.type === "CallExpression" && !n.optional) return evalCall(a, n, scope, flow);
  if (n.type === "CallExpression") {
    evalExpr(a, n.callee, scope, flow);
    return UNKNOWN;
  }
  return evalExpr(a, n, scope, flow);
}

function member(a: Analysis, n: acorn.MemberExpression, scope: Scope, flow: Flow, optional: boolean): Abs {
  const obj = n.object.type === "MemberExpression" ? member(a, n.object, scope, flow, n.object.optional) : evalExpr(a, n.object, scope, flow);
  const key = staticKey(n) ?? undefined;
  const keyAbs = n.computed && key === undefined ? evalExpr(a, n.property, scope, flow) : undefined;
  const dynamicKey = keyAbs?.literal !== undefined && (typeof keyAbs.literal.value === "string" || typeof keyAbs.literal.value === "number") ? String(keyAbs.literal.value) : undefined;
  return readMember(a, obj, key ?? dynamicKey, keyAbs?.fact ?? NOTHING, optional);
}

// A literal's parts keep their own labels; the pc is not joined in (the interpreter's rule for
// fresh values: whatever stores the literal carries the pc).
function arrayLiteral(a: Analysis, n: acorn.ArrayExpression, scope: Scope, flow: Flow): Abs {
  const items: Abs[] = [];
  let spread = false;
  for (const e of n.elements) {
    if (e === null) items.push(literal(undefined));
    else if (e.type === "SpreadElement") (evalExpr(a, e.argument, scope, flow), (spread = true));
    else items.push(evalExpr(a, e, scope, flow));
  }
  if (spread) return { ...UNKNOWN, defined: true };
  const constant = items.every((i) => i.literal !== undefined);
  return {
    fact: NOTHING,
    deep: deepOf(NOTHING, items),
    defined: true,
    items,
    data: items.every((i) => i.data === true),
    ...(constant ? { literal: { value: items.map((i) => i.literal!.value) } } : {}),
  };
}

function objectLiteral(a: Analysis, n: acorn.ObjectExpression, scope: Scope, flow: Flow): Abs {
  const props = new Map<string, Abs>();
  let open = false;
  const own = NOTHING;
  for (const p of n.properties) {
    if (p.type === "SpreadElement") {
      const src = evalExpr(a, p.argument, scope, flow);
      // A spread may set any key, so what was written before it is no longer certain.
      if (src.props === undefined || src.open === true) (props.clear(), (open = true));
      else for (const [k, v] of src.props) props.set(k, tainted(v, src.fact));
      continue;
    }
    const key = p.computed ? undefined : p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : undefined;
    const keyAbs = p.computed ? evalExpr(a, p.key, scope, flow) : undefined;
    const value = evalExpr(a, p.value, scope, flow);
    const k = key ?? (keyAbs?.literal !== undefined ? String(keyAbs.literal.value) : undefined);
    if (k !== undefined) props.set(k, value);
    else (props.clear(), (open = true));
  }
  const values = [...props.values()];
  const constant = !open && values.every((v) => v.literal !== undefined);
  return {
    fact: own,
    deep: deepOf(own, values),
    defined: true,
    props,
    open,
    data: !open && values.every((v) => v.data === true),
    ...(constant ? { literal: { value: Object.fromEntries([...props].map(([k, v]) => [k, v.literal!.value])) } } : {}),
  };
}
