/**
 * Functions: closures over compiled bodies, and the one calling convention shared by
 * programs and builtins. A call runs under the caller's pc joined with the label of the
 * function value; when the callee returns early or throws, what it could have written is
 * upgraded with the label that decided it.
 */
import type * as acorn from "acorn";
import type { Label } from "../../labels/index.js";
import { regionEffects } from "../../language/effects.js";
import { patternNames } from "../../language/patterns.js";
import { typeError } from "../errors.js";
import { brief, exitFunction, join2, mayStopOn, mayThrowOn, resolvePath, setClosureEffects, upgradeEffects } from "../rules.js";
import { callBuiltin, isInertBuiltin, setCallFunction, upgradeCallback } from "../rules-calls.js";
import { SecurityStop, charge, limit, st, step, syncPc } from "../state.js";
import { BOT, FN, type Fn, type Val, describe, isRef } from "../values.js";
import { type Cx, type Expr, RETURN, type Stmt, compileExpr, siteEffects } from "./context.js";
import { type Binder, compileTarget } from "./patterns.js";
import { type Env, type Scope, declare, hoist, keepEnv, newEnv, newScope } from "./scope.js";
import { compileBody } from "./statements.js";

/** What a closure needs to run, shared by every closure made from one function literal. */
interface FunctionCode {
  name: string;
  scope: Scope;
  params: Binder[];
  restParam: Binder | null;
  body: Stmt | null;
  exprBody: Expr | null;
  /** What the function may change outside itself, resolved against its defining scope. */
  summary: import("../rules.js").SiteEffects;
  selfIndex: number;
}

interface Closure {
  code: FunctionCode;
  env: Env;
}

setClosureEffects((f: Fn) => {
  const c = f.closure as Closure | undefined;
  return c === undefined ? undefined : { summary: c.code.summary, env: c.env };
});

type FunctionNode = acorn.FunctionDeclaration | acorn.FunctionExpression | acorn.ArrowFunctionExpression;

/** Compiles a function literal once; the returned maker builds a closure over an environment. */
export function compileFunction(node: FunctionNode, cx: Cx, name: string): (env: Env) => Fn {
  const scope = newScope(cx.scope, true);
  const fcx: Cx = { ...cx, scope, fnScope: scope, inFunction: true, labels: [] };
  let selfIndex = -1;
  if (node.type === "FunctionExpression" && node.id) selfIndex = declare(scope, node.id.name, "const").index;
  for (const p of node.params) for (const n of patternNames(p)) declare(scope, n, "param");
  if (node.body.type === "BlockStatement") hoist(node.body.body, scope, scope);
  const params: Binder[] = [];
  let restParam: Binder | null = null;
  for (const p of node.params) {
    if (p.type === "RestElement") restParam = compileTarget(p.argument, fcx, true);
    else params.push(compileTarget(p, fcx, true));
  }
  const code: FunctionCode = {
    name,
    scope,
    params,
    restParam,
    body: node.body.type === "BlockStatement" ? compileBody(node.body.body, fcx) : null,
    exprBody: node.body.type === "BlockStatement" ? null : compileExpr(node.body, fcx),
    summary: siteEffects(regionEffects(node, cx.resolution), cx.scope, cx),
    selfIndex,
  };
  return (env: Env): Fn => {
    // A function value and its closure record, and the environments it keeps alive.
    charge(96);
    keepEnv(env, charge);
    const f: Fn = { k: FN, name, label: BOT, closure: { code, env } satisfies Closure };
    return f;
  };
}

/**
 * The call gate: every call of a builtin, a method, a tool, the quarantined model or one of the
 * program's own functions comes here. `fl` is the label of the reference the function was
 * reached through (what chose it), `shape` the label of how many arguments there are, `choosePc`
 * the pc where the function was chosen. Sets `st.l` to the result's label. The rules for
 * builtins are in rules-calls.ts.
 */
export function callFunction(f: Val, fl: Label, args: Val[], argLs: Label[], shape: Label = BOT, choosePc: Label = st.pc): Val {
  // Whether this is a function at all, and how many arguments it gets, decide whether it throws.
  mayThrowOn(join2(fl, shape));
  if (typeof f !== "object" || f === null || f.k !== FN) return typeError(`${describe(f)} is not a function`, fl);
  if (f.builtin !== undefined) return callBuiltin(f, fl, args, argLs, shape, choosePc);
  const c = f.closure as Closure;
  // `choosePc`: the pc where the function was chosen (a builtin's caller's, for its callbacks).
  if (fl !== BOT && !fl.flowsTo(choosePc) && !st.mutants.noAliasFloor) {
    // Data chose which function runs, and what the functions not called would have changed is
    // unknown: a function that changes state may not be chosen that way. Another run's choice
    // may stop where this one does not.
    mayStopOn(fl);
    if (!isPure(c)) throw new SecurityStop(`cannot call \`${f.name || "a function"}\`: which function runs was chosen by untrusted or private data (${brief(fl)}), and it changes variables or objects; choose the function with trusted data, or make it return values instead`, fl);
  }
  return invoke(c, f, fl, args, argLs, shape);
}
setCallFunction(callFunction);

/**
 * A function that changes nothing outside itself: it assigns no outer variable, writes no
 * object, and calls only builtins and host functions that change nothing and call nothing
 * (a tool call carries the pc, so it may still make one).
 */
function isPure(c: Closure): boolean {
  const fx = c.code.summary;
  if (fx.unknown || fx.vars.length > 0 || fx.heap.length > 0) return false;
  for (const call of fx.calls) {
    if (call.callee === null || !("value" in call.callee.root)) return false;
    const g = resolvePath(call.callee, c.env);
    if (!isRef(g) || g.k !== FN || g.builtin === undefined || !isInertBuiltin(g)) return false;
  }
  return true;
}

function invoke(c: Closure, f: Fn, fl: Label, args: Val[], argLs: Label[], shape: Label): Val {
  if (st.depth >= st.limits.callDepth) limit(`calls nested deeper than ${st.limits.callDepth}`);
  step();
  const code = c.code;
  const saved = { spc: st.spc, brk: st.brk, ret: st.ret, thr: st.thr };
  const callerPc = st.pc;
  const entry = st.mutants.noBranchPc ? st.pc : join2(join2(st.pc, fl), shape);
  st.spc = entry;
  st.brk = st.ret = st.thr = BOT;
  st.pc = entry;
  st.depth++;
  try {
    const env = newEnv(code.scope, c.env);
    if (code.selfIndex >= 0) {
      env.v[code.selfIndex] = f;
      env.l[code.selfIndex] = BOT;
    }
    for (let i = 0; i < code.params.length; i++) code.params[i](env, args[i], argLs[i] ?? BOT);
    if (code.restParam !== null) {
      const rest = args.slice(code.params.length);
      code.restParam(env, { k: 2, items: rest, lbls: argLs.slice(code.params.length), label: BOT }, BOT);
    }
    let v: Val;
    let l: Label;
    // What decided where the body stopped: returns that did or could have happened. The body's
    // effects are upgraded with it whether the function returned early or ran to its end.
    let exit: Label;
    if (code.exprBody !== null) {
      v = code.exprBody(env);
      l = join2(st.l, st.pc);
      exit = st.ret;
    } else if ((code.body as Stmt)(env) === RETURN) {
      v = st.retV;
      l = st.retL;
      exit = join2(st.ret, st.retPc);
    } else {
      v = undefined;
      l = st.pc;
      exit = st.ret;
    }
    if (exit !== BOT && !exit.flowsTo(entry)) exitFunction(code.summary, c.env, exit);
    st.l = join2(l, fl);
    return v;
  } finally {
    // What may have thrown in the callee decided what the caller does next, whether it returned
    // or threw: a throw passes on through a catch block or a finally that does not collect it
    // (attack r5-guards: a catch calling a function that throws in one run, with a finally that
    // breaks, ran the finally at a clean pc in that run and under the callee's decision in the other).
    const calleeThr = st.thr;
    st.depth--;
    st.spc = saved.spc;
    st.brk = saved.brk;
    st.ret = saved.ret;
    st.thr = calleeThr === BOT ? saved.thr : join2(saved.thr, calleeThr);
    const rl = st.l;
    syncPc();
    // What chose the function and how many arguments it got decided everything it did: what it
    // did not do is upgraded as for a region, whether it returned or threw.
    // A function chosen instead (a builtin that calls its arguments) would have called them.
    // Whether it threw or stopped was decided by them too, though the body's regions they decided
    // skipped their exits under the entry's pc (attack r10-stops: `f(...u.list)`): as a function's exit.
    const chose = join2(fl, shape);
    if (chose !== BOT && !chose.flowsTo(callerPc)) {
      exitFunction(code.summary, c.env, chose);
      syncPc();
      for (let i = 0; i < args.length; i++) upgradeCallback(args[i], argLs[i] ?? BOT, chose, callerPc);
    }
    st.l = rl;
  }
}
