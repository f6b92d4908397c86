/**
 * Loops. Whether another iteration runs is a decision: its label (the test's, the length of
 * what is iterated, the pc of every break and continue taken) raises the pc of the body and,
 * when the loop ends, upgrades everything the loop could have written.
 */
import type * as acorn from "acorn";
import type { Label } from "../../labels/index.js";
import { typeError } from "../errors.js";
import { exitRegion, join2, keysLabel, mayThrowOn, readElem } from "../rules.js";
import { charge, charsOf, st, step, syncPc } from "../state.js";
import { ARR, BOT, OBJ, type Val, enumerableKeys, truthy } from "../values.js";
import { type Cx, type Expr, type Stmt, BREAK, CONTINUE, NORMAL, RETURN, blockScope, childCx, compileExpr, compileStmt, effectsOf, placed, placedBinding, stmtHandlers } from "./context.js";
import { TDZ, type Binder, compileTarget } from "./patterns.js";
import { type Env, type Scope, declare, newEnv } from "./scope.js";
import { patternNames } from "../../language/patterns.js";
import { iterableOf } from "../builtins/collections.js";

/**
 * A loop at the top level completes with undefined unless its body makes a value (as in
 * JavaScript); its exit joins what decided it into the completion's label (the loop's effects).
 */
function startCompletion(topLevel: boolean): void {
  if (topLevel) (st.cv = undefined), (st.cvl = st.pc);
}

/** Bookkeeping shared by every loop: the decision label and the state to restore. */
interface LoopFrame {
  spc: Label;
  brk: Label;
  decided: Label;
}

function enterLoop(): LoopFrame {
  return { spc: st.spc, brk: st.brk, decided: BOT };
}

/** Adds `l` to what decides the loop; the body runs under it from now on. */
function decide(f: LoopFrame, l: Label): void {
  if (l === BOT || st.mutants.noLoopPc) return;
  f.decided = join2(f.decided, l);
  st.spc = join2(f.spc, f.decided);
  syncPc();
}

function leaveLoop(f: LoopFrame, fx: ReturnType<typeof effectsOf>, env: Env): void {
  const exit = join2(f.decided, st.brk);
  st.brk = fx.breaks ? join2(f.brk, st.brk) : f.brk;
  st.spc = f.spc;
  syncPc();
  if (exit !== BOT && !exit.flowsTo(st.pc)) exitRegion(fx, env, exit);
}

/**
 * What a completion of the body means for the loop: undefined to keep going, or the
 * completion the loop itself ends with.
 */
function afterBody(r: number, labels: string[], f: LoopFrame): number | undefined {
  if (r === NORMAL) return undefined;
  if (r === RETURN) return RETURN;
  const mine = st.jump === null || labels.includes(st.jump);
  if (!mine) return r;
  decide(f, st.retPc);
  st.jump = null;
  return r === CONTINUE ? undefined : NORMAL;
}

/** Statements under a loop see only the labels that name this loop. */
function bodyCx(cx: Cx): Cx {
  return { ...cx, labels: [] };
}

stmtHandlers.WhileStatement = (node: acorn.WhileStatement, cx) => {
  const labels = cx.labels;
  // A loop's head runs again after its body: each part is placed at its own text.
  const test = placed(node.test, compileExpr(node.test, cx));
  const body = compileStmt(node.body, bodyCx(cx));
  const fx = effectsOf(cx, node);
  const topLevel = !cx.inFunction;
  return (env) => {
    startCompletion(topLevel);
    const f = enterLoop();
    try {
      for (;;) {
        step();
        const c = test(env);
        decide(f, st.l);
        if (!truthy(c)) return NORMAL;
        const out = afterBody(body(env), labels, f);
        if (out !== undefined) return out;
      }
    } finally {
      leaveLoop(f, fx, env);
    }
  };
};

stmtHandlers.DoWhileStatement = (node: acorn.DoWhileStatement, cx) => {
  const labels = cx.labels;
  // A loop's head runs again after its body: each part is placed at its own text.
  const test = placed(node.test, compileExpr(node.test, cx));
  const body = compileStmt(node.body, bodyCx(cx));
  const fx = effectsOf(cx, node);
  const topLevel = !cx.inFunction;
  return (env) => {
    startCompletion(topLevel);
    const f = enterLoop();
    try {
      for (;;) {
        step();
        const out = afterBody(body(env), labels, f);
        if (out !== undefined) return out;
        const c = test(env);
        decide(f, st.l);
        if (!truthy(c)) return NORMAL;
      }
    } finally {
      leaveLoop(f, fx, env);
    }
  };
};

stmtHandlers.ForStatement = (node: acorn.ForStatement, cx) => {
  const labels = cx.labels;
  const scope = blockScope(cx);
  const lets = node.init?.type === "VariableDeclaration" && node.init.kind !== "var";
  if (lets) for (const d of (node.init as acorn.VariableDeclaration).declarations) for (const n of patternNames(d.id)) declare(scope, n, (node.init as acorn.VariableDeclaration).kind as "let");
  const lcx = childCx(cx, scope);
  // A loop's head runs again after its body: each part is placed at its own text.
  const init: Stmt | Expr | null = node.init ? (node.init.type === "VariableDeclaration" ? compileStmt(node.init, lcx) : placed(node.init, compileExpr(node.init, lcx))) : null;
  const test = node.test ? placed(node.test, compileExpr(node.test, lcx)) : null;
  const update = node.update ? placed(node.update, compileExpr(node.update, lcx)) : null;
  const body = compileStmt(node.body, bodyCx(lcx));
  const fx = effectsOf(cx, node);
  const copyPerIteration = scope.hasEnv && containsFunction(node.body);
  const topLevel = !cx.inFunction;
  return (outer) => {
    startCompletion(topLevel);
    let env = scope.hasEnv ? newEnv(scope, outer) : outer;
    if (init !== null) init(env);
    const f = enterLoop();
    try {
      for (;;) {
        step();
        if (test !== null) {
          const c = test(env);
          if (st.l !== BOT) decide(f, st.l);
          if (!truthy(c)) return NORMAL;
        }
        const r = body(env);
        if (r !== NORMAL) {
          const out = afterBody(r, labels, f);
          if (out !== undefined) return out;
        }
        if (copyPerIteration) {
          // Each iteration's bindings are kept by the closures made in it (charged when one is: keepEnv).
          env = { v: env.v.slice(), l: env.l.slice(), p: env.p };
        }
        if (update !== null) update(env);
      }
    } finally {
      leaveLoop(f, fx, outer);
    }
  };
};

function containsFunction(node: acorn.Node): boolean {
  let found = false;
  const visit = (n: unknown): void => {
    if (found || !n || typeof n !== "object") return;
    const t = (n as acorn.Node).type;
    if (t === "FunctionExpression" || t === "ArrowFunctionExpression" || t === "FunctionDeclaration") {
      found = true;
      return;
    }
    for (const [k, v] of Object.entries(n)) if (k !== "loc") Array.isArray(v) ? v.forEach(visit) : typeof v === "object" && visit(v);
  };
  visit(node);
  return found;
}

/** The head of a for-of / for-in: a fresh binding per iteration, or an existing target. */
function compileHead(left: acorn.VariableDeclaration | acorn.Pattern, cx: Cx): { scope: Scope; bind: Binder; cx: Cx } {
  const scope = blockScope(cx);
  if (left.type === "VariableDeclaration") {
    if (left.kind !== "var") for (const n of patternNames(left.declarations[0].id)) declare(scope, n, left.kind as "let");
    const hcx = childCx(cx, scope);
    return { scope, bind: placedBinding(left, compileTarget(left.declarations[0].id, hcx, true)), cx: hcx };
  }
  return { scope, bind: placedBinding(left, compileTarget(left, cx, false)), cx: childCx(cx, scope) };
}

/** Iterates an array by index (live, as JavaScript does), a string by code point. */
function iterate(v: Val, vl: Label, f: LoopFrame, each: (x: Val, xl: Label) => number | undefined): number {
  mayThrowOn(vl);
  v = iterableOf(v, vl);
  if (typeof v === "string") {
    decide(f, vl);
    for (const ch of v) {
      step();
      const out = each(ch, vl);
      if (out !== undefined) return out;
    }
    return NORMAL;
  }
  if (typeof v === "object" && v !== null && v.k === ARR) {
    for (let i = 0; ; i++) {
      step();
      decide(f, join2(vl, v.label));
      if (i >= v.items.length) return NORMAL;
      const x = readElem(v, i, vl, BOT);
      const out = each(x, st.l);
      if (out !== undefined) return out;
    }
  }
  return typeError("the value is not iterable; loop over an array or a string (use Object.keys/values/entries for objects)", vl);
}

/**
 * Iterates the keys of an object (own, enumerable), the indices of an array or a string. The keys
 * are taken at the start, as in JavaScript, and a key removed before its turn is skipped: whether
 * it is visited is decided by the container's shape as it is then, re-joined before every key.
 */
function iterateKeys(v: Val, vl: Label, f: LoopFrame, each: (k: Val, kl: Label) => number | undefined): number {
  let keys: string[] = [];
  const live = (): Label => {
    if (typeof v !== "object" || v === null) return vl;
    if (v.k === OBJ) return join2(join2(vl, v.label), keysLabel(v));
    return v.k === ARR ? join2(vl, v.label) : vl;
  };
  if (typeof v === "object" && v !== null) {
    if (v.k === OBJ) keys = enumerableKeys(v);
    else if (v.k === ARR) keys = v.items.map((_, i) => String(i));
  } else if (typeof v === "string") keys = charsOf(v, 32).map((_, i) => String(i));
  decide(f, live());
  for (let i = 0; i < keys.length; i++) {
    step();
    const k = keys[i];
    const kl = live();
    decide(f, kl);
    if (typeof v === "object" && v !== null && (v.k === OBJ ? !v.props.has(k) : v.k === ARR && i >= v.items.length)) continue;
    const out = each(k, kl);
    if (out !== undefined) return out;
  }
  return NORMAL;
}

/** for-of and for-in: a fresh binding per iteration over what `walk` yields. */
function forEachLoop(node: acorn.ForOfStatement | acorn.ForInStatement, cx: Cx, walk: typeof iterate): Stmt {
  const labels = cx.labels;
  const right = placed(node.right, compileExpr(node.right, cx));
  const head = compileHead(node.left, cx);
  const body = compileStmt(node.body, bodyCx(head.cx));
  const fx = effectsOf(cx, node);
  const scope = head.scope;
  const topLevel = !cx.inFunction;
  return (env) => {
    startCompletion(topLevel);
    const v = right(env);
    const vl = st.l;
    const f = enterLoop();
    try {
      return walk(v, vl, f, (x, xl) => {
        const ienv = scope.hasEnv ? newEnv(scope, env) : env;
        head.bind(ienv, x, xl);
        return afterBody(body(ienv), labels, f);
      });
    } finally {
      leaveLoop(f, fx, env);
    }
  };
}

stmtHandlers.ForOfStatement = (node: acorn.ForOfStatement, cx) => forEachLoop(node, cx, iterate);
stmtHandlers.ForInStatement = (node: acorn.ForInStatement, cx) => forEachLoop(node, cx, iterateKeys);
