/**
 * The compiler's context and its handler tables. A handler turns one node type into a closure
 * once; running the program runs closures and never re-walks the tree.
 */
import type * as acorn from "acorn";
import { ProgramError } from "../../language/errors.js";
import { regionEffects, mergeEffects, type RegionEffects, type AccessPath } from "../../language/effects.js";
import type { Resolution } from "../../language/scopes.js";
import type { SiteEffects, SitePath } from "../rules.js";
import type { Val } from "../values.js";
import { placeAt } from "../state.js";
import { type Env, type Scope, newScope, resolve } from "./scope.js";

/** A compiled expression: returns the value and leaves its label in `st.l`. */
export type Expr = (env: Env) => Val;

/** Completion of a statement. */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export const RETURN = 3;

/** A compiled statement: returns its completion. */
export type Stmt = (env: Env) => number;

/** Names the program can use without declaring them. */
export interface Globals {
  /** Builtin values by name (Math, JSON, …). */
  values: Map<string, Val>;
  /** Names of builtin methods and statics by their effects (see builtinEffectNames in members.ts). */
  effects: { changing: ReadonlySet<string>; callsArgs: ReadonlySet<string>; callsAt: ReadonlyMap<string, readonly number[]>; effectful: ReadonlySet<string> };
}

export interface Cx {
  scope: Scope;
  fnScope: Scope;
  globals: Globals;
  /** True inside a function body: expression statements there do not set the completion value. */
  inFunction: boolean;
  /** Labels of enclosing labelled statements. */
  labels: string[];
  /** Property names under which the program may store its own functions. */
  userMethods: Set<string>;
  /** Which declaration every identifier of the program refers to (language/scopes.ts). */
  resolution: Resolution;
}

type ExprHandler = (node: any, cx: Cx) => Expr;
type StmtHandler = (node: any, cx: Cx) => Stmt;

export const exprHandlers: Record<string, ExprHandler> = Object.create(null);
export const stmtHandlers: Record<string, StmtHandler> = Object.create(null);

export function unsupported(node: acorn.Node, message: string): never {
  const loc = node.loc?.start ?? { line: 1, column: 0 };
  throw new ProgramError("unsupported", message, loc.line, loc.column + 1);
}

export function compileExpr(node: acorn.Node, cx: Cx): Expr {
  const h = exprHandlers[node.type];
  if (h === undefined) unsupported(node, `${node.type} is not supported here`);
  return h(node, cx);
}

const LABEL_TARGETS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement", "LabeledStatement"]);

/** Statements that raise nothing themselves (a block's statements are placed one by one). */
const UNPLACED = new Set(["BlockStatement", "EmptyStatement", "FunctionDeclaration", "BreakStatement", "ContinueStatement"]);

/** Where a node starts, as the error messages give it: line, and column from 1. */
export function positionOf(node: acorn.Node): [number, number] {
  return [node.loc?.start.line ?? 1, (node.loc?.start.column ?? 0) + 1];
}

/**
 * `run` (an expression a statement evaluates apart from its start: a loop's test or update, a
 * case test), where an error raised inside it and given no place by code nested in it is placed
 * at `node` (see placeAt): the place an error reports is always the text that raised it.
 */
export function placed(node: acorn.Node, run: Expr): Expr {
  const [line, column] = positionOf(node);
  return (env) => {
    try {
      return run(env);
    } catch (e) {
      throw placeAt(e, line, column);
    }
  };
}

/** A binding (a loop head's or a catch clause's pattern) placed as {@link placed} places an expression. */
export function placedBinding<A, B>(node: acorn.Node, bind: (env: Env, v: A, l: B) => void): (env: Env, v: A, l: B) => void {
  const [line, column] = positionOf(node);
  return (env, v, l) => {
    try {
      bind(env, v, l);
    } catch (e) {
      throw placeAt(e, line, column);
    }
  };
}

export function compileStmt(node: acorn.Node, cx: Cx): Stmt {
  // Only a loop (or another label) takes the labels written right before it.
  if (cx.labels.length > 0 && !LABEL_TARGETS.has(node.type)) cx = { ...cx, labels: [] };
  const h = stmtHandlers[node.type];
  if (h === undefined) {
    if (exprHandlers[node.type] !== undefined) unsupported(node, `${node.type} is not a statement`);
    unsupported(node, `${node.type} is not supported here`);
  }
  const s = h(node, cx);
  if (UNPLACED.has(node.type)) return s;
  const [line, column] = positionOf(node);
  return (env) => {
    try {
      return s(env);
    } catch (e) {
      throw placeAt(e, line, column);
    }
  };
}

export function childCx(cx: Cx, scope: Scope): Cx {
  return { ...cx, scope };
}

export function blockScope(cx: Cx): Scope {
  return newScope(cx.scope, false);
}

function sitePath(p: AccessPath, site: Scope, fx: RegionEffects, cx: Cx): SitePath | null {
  if (p.local === true || fx.assigned.includes(p.root)) return null;
  const r = resolve(site, p.root);
  if (r !== null) return { root: { hops: r.hops, index: r.binding.index }, keys: p.keys };
  const g = cx.globals.values.get(p.root);
  return g === undefined ? null : { root: { value: g }, keys: p.keys };
}

/**
 * True when a path names a container or function made in the region: a fresh local itself, with
 * no key after it (`o.t` of `const o = { t: outer }` is an outside object).
 */
function isFreshLocal(p: AccessPath): boolean {
  return p.fresh === true && p.keys.length === 0;
}

/**
 * An argument the site cannot name (a local of the region) is opaque: it matters only if the
 * callee turns out to be a builtin that calls or changes its arguments, and then raises the
 * floor; a closure's own summary already covers what it does with its parameters.
 */
function resolveArgs(args: RegionEffects["calls"][number]["args"], site: Scope, fx: RegionEffects, cx: Cx) {
  return args.map((a) => {
    if (a === "inert" || a === "opaque") return a;
    if (isFreshLocal(a)) return "inert" as const;
    return sitePath(a, site, fx, cx) ?? ("opaque" as const);
  });
}

/**
 * The argument positions a call by method name may call, whichever builtin of that name it
 * reaches (undefined: every one, also when an argument is spread, which moves the rest).
 */
function positionsByName(method: string, c: RegionEffects["calls"][number], cx: Cx): { at?: readonly number[] } {
  const at = cx.globals.effects.callsAt.get(method);
  return at === undefined || c.spread === true ? {} : { at };
}

/** Whether a method call by this name may run one of the program's own functions. */
function mayBeUserMethod(method: string, cx: Cx): boolean {
  return cx.userMethods.has(method) || cx.userMethods.has("*") || /^\d+$/.test(method);
}

/** A call whose callee starts at a local: only builtin methods are reachable when the name is not the program's own. */
function localCall(c: RegionEffects["calls"][number], site: Scope, fx: RegionEffects, cx: Cx, out: SiteEffects): void {
  const method = c.callee.keys[c.callee.keys.length - 1];
  if (method === undefined) {
    if (!isFreshLocal(c.callee)) out.unknown = true;
    return;
  }
  if (mayBeUserMethod(method, cx)) {
    out.unknown = true;
    return;
  }
  if (cx.globals.effects.changing.has(method) && !(c.callee.fresh === true && c.callee.keys.length === 1)) out.unknown = true;
  if (cx.globals.effects.callsArgs.has(method)) out.calls.push({ callee: null, args: resolveArgs(c.args, site, fx, cx), ...positionsByName(method, c, cx) });
}

/** Resolves a region's static effects against the scope where its decision is made. */
export function siteEffects(fx: RegionEffects, site: Scope, cx: Cx): SiteEffects {
  const out: SiteEffects = { vars: [], heap: [], calls: [], unknown: fx.unknown, breaks: fx.breaks, returns: fx.returns, mayThrow: fx.mayThrow, completes: fx.completes && !cx.inFunction };
  const seen = new Set<string>();
  for (const name of fx.assigned) {
    if (seen.has(name)) continue;
    seen.add(name);
    const r = resolve(site, name);
    if (r !== null) out.vars.push({ hops: r.hops, index: r.binding.index });
  }
  for (const h of fx.heap) {
    if (isFreshLocal(h.path)) continue;
    const path = sitePath(h.path, site, fx, cx);
    if (path === null) out.unknown = true;
    else out.heap.push({ path, key: h.key, deletes: h.deletes === true });
  }
  for (const c of fx.calls) {
    if (c.callee.local === true) {
      localCall(c, site, fx, cx, out);
      continue;
    }
    const method = c.callee.keys[c.callee.keys.length - 1];
    const userMethod = method !== undefined && mayBeUserMethod(method, cx);
    // Only an effect-free builtin can run: nothing to upgrade, whichever object the path reaches.
    if (method !== undefined && !userMethod && !cx.globals.effects.effectful.has(method)) continue;
    const callee = sitePath(c.callee, site, fx, cx);
    if (callee === null) out.unknown = true;
    else {
      // Which function the path names matters unless every function it can name only calls its
      // arguments (map, forEach, …), whose effects are upgraded from the arguments' own paths.
      const chosen = method === undefined || userMethod || cx.globals.effects.changing.has(method);
      // A function the path does not choose is one of the builtins of that name (by their positions);
      // one it chooses is the one it names at the upgrade (by its own).
      const args = resolveArgs(c.args, site, fx, cx);
      if (!chosen) out.calls.push({ callee, args, chosen, ...positionsByName(method, c, cx) });
      else out.calls.push({ callee, args, chosen, ...(c.spread === true ? { spread: true } : {}) });
    }
  }
  return out;
}

/** Effects of the given regions, resolved at the current scope. */
export function effectsOf(cx: Cx, ...regions: Array<acorn.Node | null | undefined>): SiteEffects {
  return siteEffects(mergeEffects(regions.map((r) => regionEffects(r, cx.resolution))), cx.scope, cx);
}

/** True when the effects hold nothing to upgrade and no jump. */
export function isInert(fx: SiteEffects): boolean {
  return !fx.unknown && !fx.breaks && !fx.returns && !fx.mayThrow && !fx.completes && fx.vars.length === 0 && fx.heap.length === 0 && fx.calls.length === 0;
}
