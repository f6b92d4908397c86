/**
 * What a region of a program may change: the static pass behind the "branch not taken" rule.
 *
 * When a branch, loop, callback or early exit is decided by labelled data, everything the
 * region *could* have written must carry that label afterwards, also when it did not run.
 * This pass lists, for a region, the variable names it may assign, the heap locations it may
 * write (as access paths from a variable), the functions it may call (as access paths), and
 * whether it holds a jump or an operation that may throw. Anything it cannot express as a path
 * sets `unknown`, and the interpreter then falls back to tainting every later sink.
 */
import type * as acorn from "acorn";
import * as walk from "acorn-walk";
import { patternNames } from "./patterns.js";

/** A variable and a chain of static property names: `inbox.items` is { root: "inbox", keys: ["items"] }. */
export interface AccessPath {
  root: string;
  keys: string[];
}

export interface RegionEffects {
  /** Variables assigned in the region (declared outside it, as far as the names tell). */
  assigned: string[];
  /** Names declared inside the region (its own locals, parameters of nested functions). */
  declared: Set<string>;
  /** Heap writes: the object at `path`, and the property written (null: computed or unknown). */
  heap: Array<{ path: AccessPath; key: string | null; deletes?: boolean }>;
  /**
   * Calls whose callee is an access path. Each argument is its path, "inert" when it cannot be
   * a function from outside the region (literals, function literals, operators), or "opaque".
   */
  calls: Array<{ callee: AccessPath; args: Array<AccessPath | "inert" | "opaque"> }>;
  /** Locals bound to a container or function made in the region: their effects stay inside. */
  fresh: Set<string>;
  /** Some effect could not be expressed as a path. */
  unknown: boolean;
  /** A break or continue leaves the region. */
  breaks: boolean;
  /** A return leaves the region. */
  returns: boolean;
  /** Something in the region may throw. */
  mayThrow: boolean;
}

const FUNCTION_TYPES = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
const LOOP_TYPES = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);
const THROWING_TYPES = new Set([
  "ThrowStatement",
  "CallExpression",
  "NewExpression",
  "MemberExpression",
  "ObjectPattern",
  "ArrayPattern",
  "ForOfStatement",
  "ForInStatement",
  "SpreadElement",
]);

/** The path an expression names, when it is a variable followed by static property names. */
export function accessPath(node: acorn.Node): AccessPath | null {
  const n = node as acorn.AnyNode;
  if (n.type === "Identifier") return { root: n.name, keys: [] };
  if (n.type === "ChainExpression") return accessPath(n.expression);
  if (n.type === "MemberExpression") {
    const key = staticKey(n);
    if (key === null) return null;
    const base = accessPath(n.object);
    return base === null ? null : { root: base.root, keys: [...base.keys, key] };
  }
  return null;
}

/** The property name of a member expression when it is written in the source, else null. */
export function staticKey(n: acorn.MemberExpression): string | null {
  if (!n.computed && n.property.type === "Identifier") return n.property.name;
  if (n.computed && n.property.type === "Literal" && (typeof n.property.value === "string" || typeof n.property.value === "number")) {
    return String(n.property.value);
  }
  return null;
}

function emptyEffects(): RegionEffects {
  return { assigned: [], declared: new Set(), heap: [], calls: [], fresh: new Set(), unknown: false, breaks: false, returns: false, mayThrow: false };
}

/** Initialisers that make a new container or function. */
const FRESH_TYPES = new Set(["ArrayExpression", "ObjectExpression", "ArrowFunctionExpression", "FunctionExpression"]);

/** Argument forms that cannot evaluate to a function defined outside the region. */
const INERT_TYPES = new Set([
  "Literal",
  "TemplateLiteral",
  "ArrayExpression",
  "ObjectExpression",
  "ArrowFunctionExpression",
  "FunctionExpression",
  "BinaryExpression",
  "UnaryExpression",
  "UpdateExpression",
]);

function argumentShape(arg: acorn.Expression | acorn.SpreadElement): AccessPath | "inert" | "opaque" {
  if (INERT_TYPES.has(arg.type)) return "inert";
  if (arg.type === "SpreadElement") return "opaque";
  return accessPath(arg) ?? "opaque";
}

/**
 * Property names under which the program may store a function of its own. A method call whose
 * name is not among them can only reach a builtin method.
 */
export function userMethodNames(program: acorn.Node): Set<string> {
  const names = new Set<string>();
  const mayBeFunction = (n: acorn.Node) => !["Literal", "TemplateLiteral", "ArrayExpression", "ObjectExpression", "BinaryExpression", "UnaryExpression"].includes(n.type);
  walk.full(program as acorn.AnyNode, (node) => {
    const n = node as acorn.AnyNode;
    if (n.type === "Property" && mayBeFunction(n.value)) {
      const key = !n.computed && n.key.type === "Identifier" ? n.key.name : n.key.type === "Literal" ? String(n.key.value) : null;
      if (key === null) names.add("*");
      else names.add(key);
    } else if (n.type === "AssignmentExpression" && n.left.type === "MemberExpression" && mayBeFunction(n.right)) {
      const key = staticKey(n.left);
      names.add(key ?? "*");
    } else if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && staticKey(n.callee) === "fromEntries") {
      // Object.fromEntries([["go", f]]) stores a function under a key written as data.
      names.add("*");
    }
    // Object.assign, spreads and JSON round trips cannot create functions from data, and a
    // spread of an object holding functions copies their keys, which the Property case saw.
    // Array elements are reached by index: callers treat every index as a possible function.
  });
  return names;
}

/** True when a function boundary lies strictly between the region root and the node. */
function insideNestedFunction(ancestors: acorn.Node[], rootIndex: number): boolean {
  for (let i = rootIndex + 1; i < ancestors.length - 1; i++) if (FUNCTION_TYPES.has(ancestors[i].type)) return true;
  return false;
}

function jumpLeavesRegion(node: acorn.BreakStatement | acorn.ContinueStatement, ancestors: acorn.Node[], rootIndex: number): boolean {
  for (let i = ancestors.length - 2; i >= rootIndex; i--) {
    const a = ancestors[i] as acorn.AnyNode;
    if (FUNCTION_TYPES.has(a.type)) return false;
    if (node.label) {
      if (a.type === "LabeledStatement" && a.label.name === node.label.name) return false;
    } else if (LOOP_TYPES.has(a.type) || (node.type === "BreakStatement" && a.type === "SwitchStatement")) {
      return false;
    }
  }
  return true;
}

function recordTarget(fx: RegionEffects, target: acorn.Node, deletes = false): void {
  const t = target as acorn.AnyNode;
  switch (t.type) {
    case "Identifier":
      fx.assigned.push(t.name);
      return;
    case "MemberExpression": {
      const base = accessPath(t.object);
      if (base === null) fx.unknown = true;
      else fx.heap.push({ path: base, key: staticKey(t), deletes });
      return;
    }
    case "ObjectPattern":
      for (const p of t.properties) recordTarget(fx, p.type === "RestElement" ? p.argument : p.value);
      return;
    case "ArrayPattern":
      for (const e of t.elements) if (e) recordTarget(fx, e);
      return;
    case "RestElement":
      recordTarget(fx, t.argument);
      return;
    case "AssignmentPattern":
      recordTarget(fx, t.left);
      return;
    case "VariableDeclaration":
      return;
    default:
      fx.unknown = true;
  }
}

function declareLocals(fx: RegionEffects, node: acorn.AnyNode, nested: boolean, isFunctionBody: boolean): void {
  switch (node.type) {
    case "VariableDeclaration":
      for (const d of node.declarations) {
        const names = patternNames(d.id);
        // A `var` at the region's own function level belongs to the enclosing function.
        if (node.kind === "var" && !nested && !isFunctionBody) {
          if (d.init) fx.assigned.push(...names);
        } else for (const n of names) fx.declared.add(n);
      }
      return;
    case "FunctionDeclaration":
      if (node.id) fx.declared.add(node.id.name);
      for (const p of node.params) for (const n of patternNames(p)) fx.declared.add(n);
      return;
    case "FunctionExpression":
    case "ArrowFunctionExpression":
      for (const p of node.params) for (const n of patternNames(p)) fx.declared.add(n);
      if (node.type === "FunctionExpression" && node.id) fx.declared.add(node.id.name);
      return;
    case "CatchClause":
      if (node.param) for (const n of patternNames(node.param)) fx.declared.add(n);
      return;
  }
}

function visit(fx: RegionEffects, node: acorn.AnyNode, ancestors: acorn.Node[], rootIndex: number, isFunctionBody: boolean): void {
  const nested = insideNestedFunction(ancestors, rootIndex);
  declareLocals(fx, node, nested, isFunctionBody);
  if (!nested && THROWING_TYPES.has(node.type)) fx.mayThrow = true;
  switch (node.type) {
    case "AssignmentExpression":
      recordTarget(fx, node.left);
      break;
    case "UpdateExpression":
      recordTarget(fx, node.argument);
      break;
    case "UnaryExpression":
      if (node.operator === "delete") recordTarget(fx, node.argument, true);
      break;
    case "ForInStatement":
    case "ForOfStatement":
      recordTarget(fx, node.left);
      break;
    case "CallExpression": {
      const callee = accessPath(node.callee);
      if (callee === null) fx.unknown = true;
      else fx.calls.push({ callee, args: node.arguments.map(argumentShape) });
      break;
    }
    case "VariableDeclarator":
      if (node.id.type === "Identifier" && node.init && FRESH_TYPES.has(node.init.type)) fx.fresh.add(node.id.name);
      break;
    case "FunctionDeclaration":
      if (node.id) fx.fresh.add(node.id.name);
      break;
    case "BreakStatement":
    case "ContinueStatement":
      if (jumpLeavesRegion(node, ancestors, rootIndex)) fx.breaks = true;
      break;
    case "ReturnStatement":
      if (!nested) fx.returns = true;
      break;
  }
}

/**
 * The effects of a region. `isFunctionBody` makes the region's own `var`s local, as they are
 * for a function's summary.
 */
export function regionEffects(region: acorn.Node | null | undefined, isFunctionBody = false): RegionEffects {
  const fx = emptyEffects();
  if (!region) return fx;
  walk.fullAncestor(region as acorn.AnyNode, (node, _state, ancestors) => {
    const rootIndex = (ancestors as acorn.Node[]).indexOf(region);
    visit(fx, node as acorn.AnyNode, ancestors, rootIndex < 0 ? 0 : rootIndex, isFunctionBody);
  });
  return fx;
}

/** Effects of several regions together (the arms of an if, the cases of a switch). */
export function mergeEffects(parts: RegionEffects[]): RegionEffects {
  const fx = emptyEffects();
  for (const p of parts) {
    fx.assigned.push(...p.assigned);
    for (const d of p.declared) fx.declared.add(d);
    fx.heap.push(...p.heap);
    fx.calls.push(...p.calls);
    for (const f of p.fresh) fx.fresh.add(f);
    fx.unknown ||= p.unknown;
    fx.breaks ||= p.breaks;
    fx.returns ||= p.returns;
    fx.mayThrow ||= p.mayThrow;
  }
  return fx;
}
