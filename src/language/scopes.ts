/**
 * Which declaration every identifier of a plan refers to, resolved from the syntax alone with the
 * scopes the interpreter uses (a function's parameters, `var`s and top-level declarations share
 * one scope; a block, a `for` head, a `for…of`/`for…in` head, a `switch` body and a catch clause
 * each have their own; function declarations are hoisted to their block). The effects pass uses
 * it to tell a region's own locals from the outer variables they shadow, and to list the
 * references that may throw a ReferenceError: a read or write of a `let`/`const` that can run
 * before its declaration (the temporal dead zone), and a name declared nowhere.
 */
import type * as acorn from "acorn";
import { patternNames } from "./patterns.js";

export type DeclKind = "var" | "let" | "const" | "function" | "param" | "catch";

/** A declaration: its name and kind, where it is, and whether anything assigns it later. */
export interface Decl {
  name: string;
  kind: DeclKind;
  /** The node whose scope holds the binding (a function, block, loop, switch, catch clause or the program). */
  scope: acorn.Node;
  /** Where the binding is initialised: the end of its declarator (let/const). */
  initEnd: number;
  /** The switch case holding a `let`/`const` declared directly in a switch body. */
  switchCase?: acorn.Node;
  /** Assigned anywhere other than by its own declaration (an assignment, update, loop head or pattern). */
  reassigned: boolean;
  /** Initialised with a new array, object or function literal. */
  fresh: boolean;
}

/** The result of {@link resolveScopes}. */
export interface Resolution {
  /** Every identifier that reads or writes a variable, with its declaration (null: declared nowhere). */
  refs: Map<acorn.Node, Decl | null>;
  /** References that may throw a ReferenceError (see the module comment). */
  mayThrow: Set<acorn.Node>;
  /** References that assign the variable (assignments, updates, `var` initialisers, loop heads, patterns). */
  writes: Set<acorn.Node>;
  /** Nodes the effects pass has visited for this program so far (it is bounded: see effects.ts). */
  visits: { n: number };
}

interface Scope {
  node: acorn.Node;
  parent: Scope | null;
  decls: Map<string, Decl>;
  isFunction: boolean;
  /** The switch case a declaration directly in this (switch) scope sits in. */
  isSwitch: boolean;
}

type AnyNode = acorn.AnyNode;

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
const FRESH = new Set(["ArrayExpression", "ObjectExpression", "ArrowFunctionExpression", "FunctionExpression"]);

/**
 * Resolves every identifier of `program`. `globals` are the names the interpreter provides
 * (builtins and host functions): referring to one is not an error.
 */
export function resolveScopes(program: acorn.Program, globals: ReadonlySet<string>): Resolution {
  const out: Resolution = { refs: new Map(), mayThrow: new Set(), writes: new Set(), visits: { n: 0 } };
  const pending: Array<{ id: acorn.Identifier; scope: Scope; write: boolean; fnChain: acorn.Node[]; typeofArg: boolean }> = [];

  const declare = (scope: Scope, name: string, kind: DeclKind, initEnd: number, fresh = false, switchCase?: acorn.Node): void => {
    if (!scope.decls.has(name)) scope.decls.set(name, { name, kind, scope: scope.node, initEnd, switchCase, reassigned: false, fresh });
  };
  // Blocks hoist the vars under them again: each declarator counts once.
  const varDeclarators = new Set<acorn.Node>();

  /** Declarations of a statement list: let/const/function to `scope`, var to its function scope. */
  const hoist = (body: acorn.Node[], scope: Scope, switchCase?: acorn.Node): void => {
    for (const st of body as AnyNode[]) {
      if (st.type === "VariableDeclaration" && st.kind !== "var") {
        for (const d of st.declarations) {
          const fresh = d.id.type === "Identifier" && d.init !== null && d.init !== undefined && FRESH.has(d.init.type);
          for (const n of patternNames(d.id)) declare(scope, n, st.kind as DeclKind, d.end, fresh, switchCase);
        }
      } else if (st.type === "FunctionDeclaration" && st.id) declare(scope, st.id.name, "function", st.start, true);
    }
    // Only at a function's (or the program's) body, which walks every block below it once.
    if (scope.isFunction) hoistVars(body, scope);
  };
  const hoistVars = (nodes: acorn.Node[], fn: Scope): void => {
    const visit = (n: unknown): void => {
      if (!n || typeof n !== "object") return;
      const node = n as AnyNode;
      if (typeof node.type !== "string") return;
      if (FUNCTIONS.has(node.type)) return;
      if (node.type === "VariableDeclaration" && node.kind === "var") {
        for (const d of node.declarations) {
          const fresh = d.id.type === "Identifier" && d.init !== null && d.init !== undefined && FRESH.has(d.init.type);
          if (varDeclarators.has(d)) continue;
          varDeclarators.add(d);
          for (const name of patternNames(d.id)) {
            const had = fn.decls.get(name);
            // A var declared twice is fresh only if neither declarator leaves it to chance.
            if (had !== undefined) had.fresh = false;
            else declare(fn, name, "var", d.start, fresh);
          }
        }
      }
      for (const [k, v] of Object.entries(node)) if (k !== "loc") Array.isArray(v) ? v.forEach(visit) : visit(v);
    };
    nodes.forEach(visit);
  };

  const newScope = (node: acorn.Node, parent: Scope | null, isFunction = false, isSwitch = false): Scope => ({ node, parent, decls: new Map(), isFunction, isSwitch });

  const ref = (id: acorn.Identifier, scope: Scope, write: boolean, fnChain: acorn.Node[], typeofArg = false): void => {
    pending.push({ id, scope, write, fnChain, typeofArg });
  };

  /** Writes through a pattern (assignment targets): identifiers are written, the rest is walked. */
  const target = (n: acorn.Node, scope: Scope, fns: acorn.Node[]): void => {
    const t = n as AnyNode;
    switch (t.type) {
      case "Identifier":
        ref(t, scope, true, fns);
        return;
      case "ObjectPattern":
        for (const p of t.properties) {
          if (p.type === "RestElement") target(p.argument, scope, fns);
          else {
            if (p.computed) walk(p.key, scope, fns);
            target(p.value, scope, fns);
          }
        }
        return;
      case "ArrayPattern":
        for (const e of t.elements) if (e) target(e, scope, fns);
        return;
      case "RestElement":
        target(t.argument, scope, fns);
        return;
      case "AssignmentPattern":
        target(t.left, scope, fns);
        walk(t.right, scope, fns);
        return;
      default:
        walk(t, scope, fns);
    }
  };

  /** A binding pattern (declarations, parameters, catch): only defaults and computed keys are walked. */
  const binding = (n: acorn.Node, scope: Scope, fns: acorn.Node[]): void => {
    const t = n as AnyNode;
    switch (t.type) {
      case "Identifier":
        return;
      case "ObjectPattern":
        for (const p of t.properties) {
          if (p.type === "RestElement") binding(p.argument, scope, fns);
          else {
            if (p.computed) walk(p.key, scope, fns);
            binding(p.value, scope, fns);
          }
        }
        return;
      case "ArrayPattern":
        for (const e of t.elements) if (e) binding(e, scope, fns);
        return;
      case "RestElement":
        binding(t.argument, scope, fns);
        return;
      case "AssignmentPattern":
        binding(t.left, scope, fns);
        walk(t.right, scope, fns);
        return;
      default:
        walk(t, scope, fns);
    }
  };

  const fn = (node: acorn.FunctionDeclaration | acorn.FunctionExpression | acorn.ArrowFunctionExpression, scope: Scope, fns: acorn.Node[]): void => {
    // A function expression's name lives in a scope of its own, outside its parameters and body:
    // a parameter or a body declaration of the same name is another binding that shadows it.
    let outer = scope;
    if (node.type === "FunctionExpression" && node.id) {
      outer = newScope(node, scope);
      declare(outer, node.id.name, "function", node.start, true);
    }
    const s = newScope(node, outer, true);
    const inner = [...fns, node];
    for (const p of node.params) for (const n of patternNames(p)) declare(s, n, "param", node.start);
    if (node.body.type === "BlockStatement") hoist(node.body.body, s);
    for (const p of node.params) binding(p, s, inner);
    if (node.body.type === "BlockStatement") for (const st of node.body.body) walk(st, s, inner);
    else walk(node.body, s, inner);
  };

  const block = (body: acorn.Node[], node: acorn.Node, scope: Scope, fns: acorn.Node[]): void => {
    const s = newScope(node, scope);
    hoist(body, s);
    for (const st of body) walk(st, s, fns);
  };

  const walk = (n: acorn.Node | null | undefined, scope: Scope, fns: acorn.Node[]): void => {
    if (!n) return;
    const node = n as AnyNode;
    switch (node.type) {
      case "Identifier":
        ref(node, scope, false, fns);
        return;
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        fn(node as acorn.FunctionDeclaration | acorn.FunctionExpression | acorn.ArrowFunctionExpression, scope, fns);
        return;
      case "BlockStatement":
        block(node.body, node, scope, fns);
        return;
      case "VariableDeclaration":
        for (const d of node.declarations) {
          binding(d.id, scope, fns);
          walk(d.init, scope, fns);
          // `var x = …` assigns the function's variable where it stands.
          if (node.kind === "var" && d.init) for (const id of identifiersOf(d.id)) ref(id, scope, true, fns);
        }
        return;
      case "MemberExpression":
        walk(node.object, scope, fns);
        if (node.computed) walk(node.property, scope, fns);
        return;
      case "Property":
        if (node.computed) walk(node.key, scope, fns);
        walk(node.value, scope, fns);
        return;
      case "AssignmentExpression":
        target(node.left, scope, fns);
        walk(node.right, scope, fns);
        return;
      case "UpdateExpression":
        target(node.argument, scope, fns);
        return;
      case "UnaryExpression":
        if (node.operator === "typeof" && node.argument.type === "Identifier") ref(node.argument, scope, false, fns, true);
        else walk(node.argument, scope, fns);
        return;
      case "ForStatement": {
        const s = newScope(node, scope);
        if (node.init?.type === "VariableDeclaration" && node.init.kind !== "var") hoist([node.init], s);
        walk(node.init, s, fns);
        walk(node.test, s, fns);
        walk(node.update, s, fns);
        walk(node.body, s, fns);
        return;
      }
      case "ForInStatement":
      case "ForOfStatement": {
        walk(node.right, scope, fns);
        const s = newScope(node, scope);
        if (node.left.type === "VariableDeclaration") {
          // A head's bindings are initialised in pattern order each iteration: a default in the
          // pattern may read one not yet initialised, so they count as initialised at its end.
          if (node.left.kind !== "var") for (const name of patternNames(node.left.declarations[0].id)) declare(s, name, node.left.kind as DeclKind, node.left.end);
          binding(node.left.declarations[0].id, s, fns);
          // A `var` head is assigned by every iteration.
          if (node.left.kind === "var") for (const id of identifiersOf(node.left.declarations[0].id)) ref(id, s, true, fns);
        } else target(node.left, s, fns);
        walk(node.body, s, fns);
        return;
      }
      case "SwitchStatement": {
        walk(node.discriminant, scope, fns);
        const s = newScope(node, scope, false, true);
        for (const c of node.cases) hoist(c.consequent, s, c);
        for (const c of node.cases) {
          walk(c.test, s, fns);
          for (const st of c.consequent) walk(st, s, fns);
        }
        return;
      }
      case "CatchClause": {
        const s = newScope(node, scope);
        if (node.param) {
          for (const name of patternNames(node.param)) declare(s, name, "catch", node.start);
          binding(node.param, s, fns);
        }
        walk(node.body, s, fns);
        return;
      }
      case "LabeledStatement":
        walk(node.body, scope, fns);
        return;
      case "BreakStatement":
      case "ContinueStatement":
        return;
      default:
        for (const [k, v] of Object.entries(node)) {
          if (k === "loc" || k === "type") continue;
          if (Array.isArray(v)) for (const c of v) (c && typeof c === "object" && typeof (c as acorn.Node).type === "string") ? walk(c as acorn.Node, scope, fns) : undefined;
          else if (v && typeof v === "object" && typeof (v as acorn.Node).type === "string") walk(v as acorn.Node, scope, fns);
        }
    }
  };

  const top = newScope(program, null, true);
  hoist(program.body, top);
  for (const st of program.body) walk(st, top, []);

  const varWrites = new Map<Decl, number>();
  for (const r of pending) {
    let decl: Decl | null = null;
    let declScope: Scope | null = null;
    for (let s: Scope | null = r.scope; s !== null; s = s.parent) {
      const d = s.decls.get(r.id.name);
      if (d !== undefined) {
        decl = d;
        declScope = s;
        break;
      }
    }
    out.refs.set(r.id, decl);
    if (r.write) out.writes.add(r.id);
    if (decl === null) {
      if (!globals.has(r.id.name) && !(r.typeofArg && !r.write) && r.id.name !== "undefined") out.mayThrow.add(r.id);
      continue;
    }
    if (r.write) {
      // A var's own fresh initialiser is its one write; any other write reassigns it.
      // Any other write reassigns it wherever it stands in the text: a closure or a hoisted
      // function written above a declaration runs after it, and a function declaration is
      // initialised at block entry, before every write of its name.
      if (decl.kind === "var") varWrites.set(decl, (varWrites.get(decl) ?? 0) + 1);
      else decl.reassigned = true;
    }
    if ((decl.kind === "let" || decl.kind === "const") && mayBeUninitialized(r.id, r.fnChain, decl, declScope as Scope)) out.mayThrow.add(r.id);
  }
  for (const [decl, n] of varWrites) {
    if (n > (decl.fresh ? 1 : 0)) decl.reassigned = true;
  }
  return out;
}

/** The identifiers a binding pattern declares. */
function identifiersOf(p: acorn.Node, out: acorn.Identifier[] = []): acorn.Identifier[] {
  const n = p as AnyNode;
  if (n.type === "Identifier") out.push(n);
  else if (n.type === "ObjectPattern") for (const x of n.properties) identifiersOf(x.type === "RestElement" ? x.argument : x.value, out);
  else if (n.type === "ArrayPattern") for (const x of n.elements) x && identifiersOf(x, out);
  else if (n.type === "RestElement") identifiersOf(n.argument, out);
  else if (n.type === "AssignmentPattern") identifiersOf(n.left, out);
  return out;
}

/**
 * Whether a reference to a `let`/`const` may run before the declaration has: the reference (or
 * the function literal it sits in, created when its outermost enclosing literal is evaluated)
 * comes after the declarator in the text, inside no function declaration (hoisted, callable at
 * any time), and, for a declaration in a switch body, inside the same case.
 */
function mayBeUninitialized(id: acorn.Node, fnChain: acorn.Node[], decl: Decl, declScope: Scope): boolean {
  let at = id.start;
  // Functions between the declaration's function and the reference, outermost first.
  const declFn = enclosingFunction(declScope);
  const inner = declFn === null ? fnChain : fnChain.slice(fnChain.indexOf(declFn) + 1);
  for (const f of inner) {
    if (f.type === "FunctionDeclaration") return true;
    at = Math.min(at, f.start);
  }
  if (at <= decl.initEnd) return true;
  if (decl.switchCase !== undefined) return !(id.start >= decl.switchCase.start && id.end <= decl.switchCase.end);
  return false;
}

function enclosingFunction(s: Scope): acorn.Node | null {
  for (let x: Scope | null = s; x !== null; x = x.parent) if (x.isFunction) return x.parent === null ? null : x.node;
  return null;
}
