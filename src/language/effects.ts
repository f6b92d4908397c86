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
import { ProgramError } from "./errors.js";
import type { Decl, Resolution } from "./scopes.js";

/** A variable and a chain of static property names: `inbox.items` is { root: "inbox", keys: ["items"] }. */
export interface AccessPath {
  root: string;
  keys: string[];
  /** The root is declared inside the region (its own local, a nested function's parameter). */
  local?: boolean;
  /**
   * The root is a local bound once to an array, object or function literal made in the region.
   * Only the root itself is new: what the literal holds (`{ t: outer }`) may come from outside.
   */
  fresh?: boolean;
}

export interface RegionEffects {
  /** Variables declared outside the region that it may assign. */
  assigned: string[];
  /** Heap writes: the object at `path`, and the property written (null: computed or unknown). */
  heap: Array<{ path: AccessPath; key: string | null; deletes?: boolean }>;
  /**
   * Calls whose callee is an access path. Each argument is its path, "inert" when it cannot be
   * a function from outside the region (literals, function literals, operators), or "opaque".
   * `spread`: an argument is spread, so an argument's index need not be its position.
   */
  calls: Array<{ callee: AccessPath; args: Array<AccessPath | "inert" | "opaque">; spread?: true }>;
  /** Some effect could not be expressed as a path. */
  unknown: boolean;
  /** A break or continue leaves the region. */
  breaks: boolean;
  /** A return leaves the region. */
  returns: boolean;
  /** Something in the region may throw. */
  mayThrow: boolean;
  /** The region holds a statement that sets the program's completion value (outside functions). */
  completes: boolean;
}

/** Statements that set the completion value when they run at the top level. */
const COMPLETING = new Set(["ExpressionStatement", "IfStatement", "SwitchStatement", "TryStatement", "ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);

const FUNCTION_TYPES = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
const LOOP_TYPES = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);

/**
 * The allowlist of what cannot throw: node types that raise no error of their own in this
 * interpreter (their operands may; those are visited on their own). Every other node type may
 * throw. A few types cannot throw only in some forms, decided by {@link nodeMayThrow}.
 */
const CANNOT_THROW = new Set([
  "Program", "ExpressionStatement", "BlockStatement", "EmptyStatement", "IfStatement", "WhileStatement", "DoWhileStatement",
  "ForStatement", "ForInStatement", "LabeledStatement", "BreakStatement", "ContinueStatement", "ReturnStatement",
  "VariableDeclaration", "VariableDeclarator", "SwitchStatement", "SwitchCase", "TryStatement", "CatchClause",
  "FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression", "Literal", "TemplateLiteral", "TemplateElement",
  "ArrayExpression", "ObjectExpression", "Property", "LogicalExpression", "ConditionalExpression", "SequenceExpression",
  "AwaitExpression", "ParenthesizedExpression", "ChainExpression", "AssignmentExpression", "AssignmentPattern", "RestElement",
  "UpdateExpression",
]);

/**
 * Whether a node may throw by itself: not on the allowlist, or an identifier that may be read
 * in its temporal dead zone or is declared nowhere, `key in x`, `delete`, or a spread that is
 * not an object spread (which takes anything).
 */
function nodeMayThrow(node: acorn.AnyNode, parent: acorn.Node | undefined, res: Resolution): boolean {
  switch (node.type) {
    case "Identifier":
      return res.mayThrow.has(node);
    case "BinaryExpression":
      return node.operator === "in";
    case "UnaryExpression":
      return node.operator === "delete";
    case "SpreadElement":
      return parent?.type !== "ObjectExpression";
    default:
      return !CANNOT_THROW.has(node.type);
  }
}

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
  return { assigned: [], heap: [], calls: [], unknown: false, breaks: false, returns: false, mayThrow: false, completes: false };
}

/** Where a region is, and which declaration each of its names refers to. */
interface Site {
  region: acorn.Node;
  res: Resolution;
}

/** Whether a declaration belongs to the region (its scope lies inside it). */
function isLocal(d: Decl | null | undefined, site: Site): boolean {
  return d !== null && d !== undefined && d.scope.start >= site.region.start && d.scope.end <= site.region.end;
}

/** The root identifier of a member chain (`a` of `a.b.c`), if the chain is an access path. */
function rootOf(node: acorn.Node): acorn.Identifier | null {
  const n = node as acorn.AnyNode;
  if (n.type === "Identifier") return n;
  if (n.type === "ChainExpression") return rootOf(n.expression);
  if (n.type === "MemberExpression") return rootOf(n.object);
  return null;
}

/** {@link accessPath}, with whether its root is the region's own (and made there). */
function sitePathOf(node: acorn.Node, site: Site): AccessPath | null {
  const p = accessPath(node);
  if (p === null) return null;
  const d = site.res.refs.get(rootOf(node) as acorn.Identifier);
  if (isLocal(d, site)) {
    p.local = true;
    if ((d as Decl).fresh && !(d as Decl).reassigned) p.fresh = true;
  }
  return p;
}

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

/** Receivers every evaluation of which is a new value (a regex, array or object literal) or a primitive. */
const NEW_RECEIVERS = new Set(["Literal", "TemplateLiteral", "ArrayExpression", "ObjectExpression"]);

/**
 * A method, by its written name, of a receiver that is no access path: a value made right there
 * (`/chlo/i.test(x)`, `[a, b].map(f)`) is a fresh local's, anything else (`s.trim().includes(x)`,
 * `o[k].push(x)`) a local's that may hold any value. Either way only a builtin of that name (or
 * the program's own function, by name) can run; what the receiver's own expression does is
 * walked on its own.
 */
function literalMethod(callee: acorn.Node): AccessPath | null {
  const n = callee as acorn.AnyNode;
  if (n.type === "ChainExpression") return literalMethod(n.expression);
  if (n.type !== "MemberExpression") return null;
  const key = staticKey(n);
  if (key === null) return null;
  return NEW_RECEIVERS.has(n.object.type) ? { root: "", keys: [key], local: true, fresh: true } : { root: "", keys: [key], local: true };
}

function argumentShape(arg: acorn.Expression | acorn.SpreadElement, site: Site): AccessPath | "inert" | "opaque" {
  if (INERT_TYPES.has(arg.type)) return "inert";
  if (arg.type === "SpreadElement") return "opaque";
  return sitePathOf(arg, site) ?? "opaque";
}

/** Types of values that are never a function. */
const NOT_FUNCTION = ["Literal", "TemplateLiteral", "ArrayExpression", "ObjectExpression", "BinaryExpression", "UnaryExpression", "UpdateExpression"];

/**
 * Property names under which the program may store a function of its own. A method call whose
 * name is not among them can only reach a builtin method. Every place a function can be kept
 * counts: object literal keys, assignment targets, destructuring-assignment and loop-head
 * targets (whatever they are given); `"*"` (any name) when a key is computed, or when the
 * program can reach a builtin that stores values under keys written as data (`Object.fromEntries`,
 * a `JSON.parse` reviver) other than by calling `JSON.parse` on one argument.
 */
export function userMethodNames(program: acorn.Node): Set<string> {
  const names = new Set<string>();
  const mayBeFunction = (n: acorn.Node) => !NOT_FUNCTION.includes(n.type);
  const memberTargets = (t: acorn.Node | null | undefined): void => {
    const n = t as acorn.AnyNode | null | undefined;
    if (!n) return;
    if (n.type === "MemberExpression") names.add(staticKey(n) ?? "*");
    else if (n.type === "ObjectPattern") for (const p of n.properties) memberTargets(p.type === "RestElement" ? p.argument : p.value);
    else if (n.type === "ArrayPattern") for (const e of n.elements) memberTargets(e);
    else if (n.type === "RestElement") memberTargets(n.argument);
    else if (n.type === "AssignmentPattern") memberTargets(n.left);
  };
  walk.fullAncestor(program as acorn.AnyNode, (node, _state, ancestors) => {
    const n = node as acorn.AnyNode;
    const parent = ancestors[ancestors.length - 2] as acorn.AnyNode | undefined;
    if (n.type === "Property" && parent?.type === "ObjectExpression" && mayBeFunction(n.value)) {
      const key = !n.computed && n.key.type === "Identifier" ? n.key.name : n.key.type === "Literal" ? String(n.key.value) : null;
      names.add(key ?? "*");
    } else if (n.type === "AssignmentExpression") {
      if (n.left.type === "MemberExpression") {
        // Arithmetic compound assignments (`+=`, …) make a number or a string.
        if (mayBeFunction(n.right) && (n.operator === "=" || n.operator === "&&=" || n.operator === "||=" || n.operator === "??=")) names.add(staticKey(n.left) ?? "*");
      } else memberTargets(n.left);
    } else if (n.type === "ForOfStatement" || n.type === "ForInStatement") {
      if (n.left.type !== "VariableDeclaration") memberTargets(n.left);
    } else if (n.type === "Identifier" && n.name === "Object" && !staticMemberOf(n, parent, (k) => k !== "fromEntries") && !(parent?.type === "BinaryExpression" && parent.operator === "instanceof")) {
      // Object reached other than as `Object.name` for a static that keeps no data-named key.
      names.add("*");
    } else if (n.type === "MemberExpression" && staticKey(n) === "fromEntries") {
      names.add("*");
    } else if (n.type === "Identifier" && n.name === "JSON" && !jsonCallOnOneArgument(n, parent, ancestors[ancestors.length - 3] as acorn.AnyNode | undefined)) {
      names.add("*");
    }
    // Spreads, Object.assign and rest patterns copy keys some object already had, which the
    // cases above saw. Array elements are reached by index: callers treat every index as a
    // possible function.
  });
  return names;
}

/** `id` is the object of a non-computed member `id.name` (or `id["name"]`) with `ok(name)`. */
function staticMemberOf(id: acorn.Identifier, parent: acorn.AnyNode | undefined, ok: (k: string) => boolean): boolean {
  if (parent?.type !== "MemberExpression" || parent.object !== id) return false;
  const k = staticKey(parent);
  return k !== null && ok(k);
}

/** `JSON.stringify(…)` or `JSON.parse(x)` with one plain argument (no reviver can run). */
function jsonCallOnOneArgument(id: acorn.Identifier, parent: acorn.AnyNode | undefined, grand: acorn.AnyNode | undefined): boolean {
  if (!staticMemberOf(id, parent, (k) => k === "stringify" || k === "parse")) return false;
  if (staticKey(parent as acorn.MemberExpression) === "stringify") return true;
  return grand?.type === "CallExpression" && grand.callee === parent && grand.arguments.length <= 1 && grand.arguments.every((a) => a.type !== "SpreadElement");
}

/**
 * Visits every node of `region` once, with its ancestors from the region down (the region at
 * index 0) and whether a function boundary lies strictly between the region and the node: a
 * counter kept on the way down, so a region costs time linear in its size, whatever its depth.
 */
function walkRegion(region: acorn.Node, visits: { n: number }, visit: (node: acorn.AnyNode, ancestors: acorn.Node[], nested: boolean) => void): void {
  const ancestors: acorn.Node[] = [];
  let functions = 0;
  const go = (node: acorn.Node): void => {
    // Each node is visited once per region around it: a plan nested deep around many statements
    // costs size x depth. Compiling is outside the run's limits, so the pass itself is bounded.
    if (++visits.n > MAX_VISITS) {
      const loc = region.loc?.start ?? { line: 1, column: 0 };
      throw new ProgramError("unsupported", "the program is too large or nested too deeply to analyse; split it into smaller functions with fewer nested blocks", loc.line, loc.column + 1);
    }
    ancestors.push(node);
    visit(node as acorn.AnyNode, ancestors, functions > 0);
    const boundary = node !== region && FUNCTION_TYPES.has(node.type);
    if (boundary) functions++;
    for (const key in node) {
      if (key === "loc" || key === "type") continue;
      const v = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(v)) {
        for (const c of v) if (isNode(c)) go(c);
      } else if (isNode(v)) go(v);
    }
    if (boundary) functions--;
    ancestors.pop();
  };
  go(region);
}

/** Most node visits the effects pass makes for one program (about a second of work). */
const MAX_VISITS = 2_000_000;

function isNode(v: unknown): v is acorn.Node {
  return v !== null && typeof v === "object" && typeof (v as { type?: unknown }).type === "string";
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

/** Records the heap writes of an assignment target (variables are recorded from the resolution). */
function recordTarget(fx: RegionEffects, target: acorn.Node, site: Site, deletes = false): void {
  const t = target as acorn.AnyNode;
  switch (t.type) {
    case "Identifier":
    case "VariableDeclaration":
      return;
    case "MemberExpression": {
      const base = sitePathOf(t.object, site);
      if (base === null) fx.unknown = true;
      else fx.heap.push({ path: base, key: staticKey(t), deletes });
      return;
    }
    case "ObjectPattern":
      for (const p of t.properties) recordTarget(fx, p.type === "RestElement" ? p.argument : p.value, site);
      return;
    case "ArrayPattern":
      for (const e of t.elements) if (e) recordTarget(fx, e, site);
      return;
    case "RestElement":
      recordTarget(fx, t.argument, site);
      return;
    case "AssignmentPattern":
      recordTarget(fx, t.left, site);
      return;
    default:
      fx.unknown = true;
  }
}

function visit(fx: RegionEffects, node: acorn.AnyNode, ancestors: acorn.Node[], nested: boolean, site: Site): void {
  const rootIndex = 0;
  if (!nested && !fx.mayThrow && nodeMayThrow(node, ancestors[ancestors.length - 2], site.res)) fx.mayThrow = true;
  if (!fx.completes && COMPLETING.has(node.type) && !nested && !FUNCTION_TYPES.has(ancestors[rootIndex].type)) fx.completes = true;
  switch (node.type) {
    case "Identifier":
      // Every assignment of a variable declared outside the region, by any syntax that assigns.
      if (site.res.writes.has(node) && !isLocal(site.res.refs.get(node), site)) fx.assigned.push(node.name);
      break;
    case "AssignmentExpression":
      recordTarget(fx, node.left, site);
      break;
    case "UpdateExpression":
      recordTarget(fx, node.argument, site);
      break;
    case "UnaryExpression":
      if (node.operator === "delete") recordTarget(fx, node.argument, site, true);
      break;
    case "ForInStatement":
    case "ForOfStatement":
      recordTarget(fx, node.left, site);
      break;
    case "CallExpression": {
      const callees = calleePaths(node.callee, site);
      if (callees === null) fx.unknown = true;
      else {
        const args = node.arguments.map((a) => argumentShape(a, site));
        const spread = node.arguments.some((a) => a.type === "SpreadElement");
        for (const callee of callees) fx.calls.push(spread ? { callee, args, spread: true } : { callee, args });
      }
      break;
    }
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
 * The functions a callee expression may be: its path, or each path a choice between paths may
 * yield (`(c ? f : g)(x)`, `(h || f)(x)`, `(a, f)(x)`: the value is one of them); null when
 * some alternative is not a path, which counts as any function.
 */
function calleePaths(callee: acorn.Node, site: Site): AccessPath[] | null {
  const n = callee as acorn.AnyNode;
  if (n.type === "ConditionalExpression") return both(calleePaths(n.consequent, site), calleePaths(n.alternate, site));
  if (n.type === "LogicalExpression") return both(calleePaths(n.left, site), calleePaths(n.right, site));
  if (n.type === "SequenceExpression") return calleePaths(n.expressions[n.expressions.length - 1], site);
  const path = sitePathOf(n, site) ?? literalMethod(n);
  return path === null ? null : [path];
}

function both(a: AccessPath[] | null, b: AccessPath[] | null): AccessPath[] | null {
  return a === null || b === null ? null : [...a, ...b];
}

/**
 * The effects of a region, with `res` the program's scope resolution. For a function's summary
 * the region is the function itself: its parameters and `var`s are its own.
 */
export function regionEffects(region: acorn.Node | null | undefined, res: Resolution): RegionEffects {
  const fx = emptyEffects();
  if (!region) return fx;
  const site: Site = { region, res };
  walkRegion(region, res.visits, (node, ancestors, nested) => visit(fx, node, ancestors, nested, site));
  return fx;
}

/** Effects of several regions together (the arms of an if, the cases of a switch). */
export function mergeEffects(parts: RegionEffects[]): RegionEffects {
  const fx = emptyEffects();
  for (const p of parts) {
    fx.assigned.push(...p.assigned);
    fx.heap.push(...p.heap);
    fx.calls.push(...p.calls);
    fx.unknown ||= p.unknown;
    fx.breaks ||= p.breaks;
    fx.returns ||= p.returns;
    fx.mayThrow ||= p.mayThrow;
    fx.completes ||= p.completes;
  }
  return fx;
}

/**
 * Whether a statement can complete only by throwing: a `throw`, a block whose last statement is
 * one, or an `if` both of whose branches are; and no break, continue or return leaves it. (A throw
 * caught by a try inside it lets the statements after that try run on, to the last one.)
 */
export function alwaysThrows(stmt: acorn.Node | null | undefined, res: Resolution): boolean {
  if (!stmt || !endsInThrow(stmt as acorn.AnyNode)) return false;
  const fx = regionEffects(stmt, res);
  return !fx.breaks && !fx.returns;
}

function endsInThrow(stmt: acorn.AnyNode): boolean {
  if (stmt.type === "ThrowStatement") return true;
  if (stmt.type === "BlockStatement") return stmt.body.length > 0 && endsInThrow(stmt.body[stmt.body.length - 1]);
  if (stmt.type === "IfStatement") return stmt.alternate != null && endsInThrow(stmt.consequent) && endsInThrow(stmt.alternate);
  return false;
}
