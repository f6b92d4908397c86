/**
 * Static scopes. Every identifier is resolved at compile time to (hops, index) in a chain of
 * environments, so running a program never looks a name up by string.
 */
import type * as acorn from "acorn";
import type { Label } from "../../labels/index.js";
import { BOT, type Val } from "../values.js";
import { patternNames } from "../../language/patterns.js";

/** A runtime environment: slot values, slot labels, and the enclosing environment. */
export interface Env {
  v: Val[];
  l: Label[];
  p: Env | null;
  /** Charged against the memory limit (a closure keeps it alive); then so is every parent. */
  kept?: boolean;
}

/**
 * A closure made in `env` keeps it and its parents alive: each environment is charged the first
 * time one does (16 bytes a slot), so the memory limit sees what closures hold, not every call.
 */
export function keepEnv(env: Env | null, charge: (bytes: number) => void): void {
  for (let e = env; e !== null && e.kept !== true; e = e.p) {
    charge(32 + 16 * e.v.length);
    e.kept = true;
  }
}

export type BindingKind = "var" | "let" | "const" | "function" | "param" | "catch";

export interface Binding {
  name: string;
  kind: BindingKind;
  scope: Scope;
  index: number;
  /** Assigned anywhere after its declaration (so its value is not fixed). */
  reassigned: boolean;
}

export interface Scope {
  parent: Scope | null;
  bindings: Map<string, Binding>;
  /** Whether this scope has a runtime environment (it declares something). */
  hasEnv: boolean;
  /** True for function bodies and the program: `var` and parameters live here. */
  isFunction: boolean;
  /** The values a new environment starts with (built on first use, once compiling is done). */
  template?: { v: Val[]; l: Label[] };
}

/**
 * Marks a `let`/`const` slot before its declaration runs. A primitive (a symbol), so no program
 * can write into it; it never leaves an environment slot (every read checks for it).
 */
export const TDZ: Val = Symbol("uninitialized") as unknown as Val;

export function newScope(parent: Scope | null, isFunction: boolean): Scope {
  return { parent, bindings: new Map(), hasEnv: isFunction, isFunction };
}

export function declare(scope: Scope, name: string, kind: BindingKind): Binding {
  const existing = scope.bindings.get(name);
  if (existing !== undefined) return existing;
  const b: Binding = { name, kind, scope, index: scope.bindings.size, reassigned: false };
  scope.bindings.set(name, b);
  scope.hasEnv = true;
  return b;
}

/** Finds the binding of `name` visible from `scope`, with the number of environments to climb. */
export function resolve(scope: Scope, name: string): { binding: Binding; hops: number } | null {
  let hops = 0;
  for (let s: Scope | null = scope; s !== null; s = s.parent) {
    const b = s.bindings.get(name);
    if (b !== undefined) return { binding: b, hops };
    if (s.hasEnv) hops++;
  }
  return null;
}

/** Environments to climb from `from` to reach `target`'s environment, or -1 if not an ancestor. */
export function hopsTo(from: Scope, target: Scope): number {
  let hops = 0;
  for (let s: Scope | null = from; s !== null; s = s.parent) {
    if (s === target) return hops;
    if (s.hasEnv) hops++;
  }
  return -1;
}

export function isAncestorOrSelf(ancestor: Scope, scope: Scope): boolean {
  for (let s: Scope | null = scope; s !== null; s = s.parent) if (s === ancestor) return true;
  return false;
}

/**
 * A new environment for `scope`: `let` and `const` slots start uninitialized ({@link TDZ}),
 * every other binding (var, parameters, functions, catch parameters) starts undefined.
 */
export function newEnv(scope: Scope, parent: Env | null): Env {
  let t = scope.template;
  if (t === undefined) {
    const v: Val[] = [];
    const l: Label[] = [];
    for (const b of scope.bindings.values()) {
      v[b.index] = b.kind === "let" || b.kind === "const" ? TDZ : undefined;
      l[b.index] = BOT;
    }
    t = scope.template = { v, l };
  }
  return { v: t.v.slice(), l: t.l.slice(), p: parent };
}

export function hop(env: Env, hops: number): Env {
  let e = env;
  for (let i = 0; i < hops; i++) e = e.p as Env;
  return e;
}

/** Hoists the declarations of a statement list into `scope` (block) and `fnScope` (var). */
export function hoist(body: acorn.Statement[] | acorn.ModuleDeclaration[], scope: Scope, fnScope: Scope): void {
  for (const st of body as acorn.Statement[]) {
    if (st.type === "VariableDeclaration" && st.kind !== "var") {
      for (const d of st.declarations) for (const n of patternNames(d.id)) declare(scope, n, st.kind as "let" | "const");
    } else if (st.type === "FunctionDeclaration" && st.id) {
      declare(scope, st.id.name, "function");
    }
  }
  // A function's (or the program's) own body walks every block below it once; a block's own
  // hoist would walk its subtree again for each enclosing block.
  if (scope === fnScope) hoistVars(body as acorn.Statement[], fnScope);
}

/** `var` declarations anywhere in the function body (not nested functions) go to the function scope. */
function hoistVars(body: acorn.Node[], fnScope: Scope): void {
  const visit = (n: acorn.Node | null | undefined): void => {
    if (!n || typeof n !== "object") return;
    const node = n as acorn.AnyNode;
    if (node.type === "FunctionDeclaration" || node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression") return;
    if (node.type === "VariableDeclaration" && node.kind === "var") {
      for (const d of node.declarations) for (const name of patternNames(d.id)) declare(fnScope, name, "var");
    }
    for (const key of Object.keys(node)) {
      if (key === "loc" || key === "type") continue;
      const child = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(child)) for (const c of child) visit(c as acorn.Node);
      else if (child && typeof child === "object" && typeof (child as acorn.Node).type === "string") visit(child as acorn.Node);
    }
  };
  for (const n of body) visit(n);
}
