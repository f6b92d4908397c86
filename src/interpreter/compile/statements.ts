/**
 * Statements. Each handler compiles once to a closure returning its completion
 * (normal, break, continue, return); exceptions travel as host exceptions of type ProgramThrow.
 */
import type * as acorn from "acorn";
import { type SiteEffects, enterPc, exitRegion, guardEndsRun, join2, leavePc, underPc } from "../rules.js";
import { ProgramThrow, st, step, syncPc } from "../state.js";
import { BOT, type Val, truthy, strictEq } from "../values.js";
import { type Cx, type Stmt, BREAK, CONTINUE, NORMAL, RETURN, blockScope, childCx, compileExpr, compileStmt, effectsOf, isInert, placed, placedBinding, positionOf, stmtHandlers } from "./context.js";
import { compileFunction } from "./functions.js";
import { TDZ, compileTarget } from "./patterns.js";
import { type Env, hoist, newEnv, resolve } from "./scope.js";
import type { Label } from "../../labels/index.js";
import { patternNames } from "../../language/patterns.js";
import { alwaysThrows } from "../../language/effects.js";

/** Compiles a statement list whose declarations are already hoisted into `cx.scope`. */
export function compileBody(body: acorn.Statement[] | acorn.ModuleDeclaration[], cx: Cx): Stmt {
  const inits: Array<{ index: number; make: (env: Env) => Val }> = [];
  for (const s of body as acorn.Statement[]) {
    if (s.type === "FunctionDeclaration" && s.id) {
      const r = resolve(cx.scope, s.id.name);
      if (r !== null && r.hops === 0) inits.push({ index: r.binding.index, make: compileFunction(s, cx, s.id.name) });
    }
  }
  const stmts = (body as acorn.Statement[]).filter((s) => s.type !== "FunctionDeclaration").map((s) => compileStmt(s, cx));
  const n = stmts.length;
  return (env) => {
    for (let i = 0; i < inits.length; i++) {
      env.v[inits[i].index] = inits[i].make(env);
      env.l[inits[i].index] = st.pc;
    }
    for (let i = 0; i < n; i++) {
      const r = stmts[i](env);
      if (r !== NORMAL) return r;
    }
    return NORMAL;
  };
}

/** A block with its own scope when it declares anything. */
export function compileBlock(body: acorn.Statement[], cx: Cx): Stmt {
  const scope = blockScope(cx);
  hoist(body, scope, cx.fnScope);
  const inner = compileBody(body, childCx(cx, scope));
  if (!scope.hasEnv) return inner;
  return (env) => inner(newEnv(scope, env));
}

stmtHandlers.BlockStatement = (node: acorn.BlockStatement, cx) => compileBlock(node.body, cx);
stmtHandlers.EmptyStatement = () => () => NORMAL;
stmtHandlers.FunctionDeclaration = () => () => NORMAL;

stmtHandlers.ExpressionStatement = (node: acorn.ExpressionStatement, cx) => {
  const e = compileExpr(node.expression, cx);
  if (cx.inFunction) {
    return (env) => {
      step();
      e(env);
      return NORMAL;
    };
  }
  return (env) => {
    step();
    st.cv = e(env);
    st.cvl = join2(st.l, st.pc);
    return NORMAL;
  };
};

stmtHandlers.VariableDeclaration = (node: acorn.VariableDeclaration, cx) => {
  const parts = node.declarations.map((d) => ({
    bind: compileTarget(d.id, cx, true),
    init: d.init ? compileExpr(d.init, cx) : null,
    name: d.init && d.id.type === "Identifier" ? d.id.name : "",
  }));
  const isVar = node.kind === "var";
  return (env) => {
    step();
    for (const p of parts) {
      if (p.init === null) {
        if (!isVar) p.bind(env, undefined, BOT);
        continue;
      }
      const v = p.init(env);
      p.bind(env, v, st.l);
    }
    return NORMAL;
  };
};

stmtHandlers.IfStatement = (node: acorn.IfStatement, cx) => {
  const test = compileExpr(node.test, cx);
  const cons = compileStmt(node.consequent, cx);
  const alt = node.alternate ? compileStmt(node.alternate, cx) : null;
  const fx = effectsOf(cx, node.consequent, node.alternate);
  const inert = isInert(fx);
  const topLevel = !cx.inFunction;
  // A branch that can only throw is a guard (see guardEndsRun).
  const consThrows = alwaysThrows(node.consequent, cx.resolution);
  const altThrows = alwaysThrows(node.alternate, cx.resolution);
  const branch = (env: Env, taken: boolean): number => (taken ? cons(env) : alt !== null ? alt(env) : NORMAL);
  return (env) => {
    step();
    const c = test(env);
    const cl = st.l;
    if (topLevel) (st.cv = undefined), (st.cvl = join2(cl, st.pc));
    const taken = truthy(c);
    if (cl === BOT || underPc(cl)) return branch(env, taken);
    // The branch not taken can only throw, the one taken cannot: a guard that may end the run.
    if ((taken ? altThrows && !consThrows : consThrows && !altThrows) && guardEndsRun(cl)) return branch(env, taken);
    const saved = enterPc(cl);
    try {
      return branch(env, taken);
    } finally {
      if (!inert) exitRegion(fx, env, cl);
      leavePc(saved);
    }
  };
};

stmtHandlers.ReturnStatement = (node: acorn.ReturnStatement, cx) => {
  const arg = node.argument ? compileExpr(node.argument, cx) : null;
  return (env) => {
    step();
    const v = arg === null ? undefined : arg(env);
    st.retV = v;
    st.retL = st.mutants.returnDropsPc ? (arg === null ? BOT : st.l) : join2(arg === null ? BOT : st.l, st.pc);
    st.retPc = st.pc;
    return RETURN;
  };
};

stmtHandlers.ThrowStatement = (node: acorn.ThrowStatement, cx) => {
  const arg = compileExpr(node.argument, cx);
  const [line, column] = positionOf(node);
  return (env) => {
    step();
    const v = arg(env);
    throw new ProgramThrow(v, join2(st.l, st.pc), line, column, st.pc);
  };
};

function jumpStatement(kind: typeof BREAK | typeof CONTINUE) {
  return (node: acorn.BreakStatement | acorn.ContinueStatement) => {
    const label = node.label ? node.label.name : null;
    return () => {
      step();
      st.jump = label;
      st.retPc = st.pc;
      return kind;
    };
  };
}
stmtHandlers.BreakStatement = jumpStatement(BREAK);
stmtHandlers.ContinueStatement = jumpStatement(CONTINUE);

stmtHandlers.LabeledStatement = (node: acorn.LabeledStatement, cx) => {
  const name = node.label.name;
  const body = compileStmt(node.body, { ...cx, labels: [...cx.labels, name] });
  const fx = effectsOf(cx, node);
  // A labelled block (not a loop) ends on `break name`: like a loop, it is the target of the
  // breaks under it, so what they decided ends with it.
  return (env) => {
    const savedBrk = st.brk;
    let decided: Label = BOT;
    try {
      const r = body(env);
      if (r === BREAK && st.jump === name) {
        decided = st.retPc;
        st.jump = null;
        return NORMAL;
      }
      return r;
    } finally {
      const exit = join2(decided, st.brk);
      st.brk = fx.breaks ? join2(savedBrk, st.brk) : savedBrk;
      syncPc();
      if (exit !== BOT && !exit.flowsTo(st.pc)) exitRegion(fx, env, exit);
    }
  };
};

stmtHandlers.TryStatement = (node: acorn.TryStatement, cx) => {
  const block = compileBlock(node.block.body, cx);
  const handler = node.handler;
  let bindParam: ((env: Env, v: Val, l: Label) => void) | null = null;
  let handlerBody: Stmt | null = null;
  let handlerScopeEnv: ((env: Env) => Env) | null = null;
  if (handler) {
    const scope = blockScope(cx);
    const hcx = childCx(cx, scope);
    if (handler.param) {
      for (const n of patternNames(handler.param)) scope.bindings.has(n) || declareCatch(scope, n);
      bindParam = placedBinding(handler.param, compileTarget(handler.param, hcx, true));
    }
    handlerBody = compileBlock(handler.body.body, hcx);
    handlerScopeEnv = scope.hasEnv ? (env) => newEnv(scope, env) : (env) => env;
  }
  const finalizer = node.finalizer ? compileBlock(node.finalizer.body, cx) : null;
  const fx = effectsOf(cx, node.block, node.handler);
  const whole = node.finalizer ? effectsOf(cx, node.block, node.handler, node.finalizer) : fx;
  const topLevel = !cx.inFunction;
  return (env) => {
    if (topLevel) (st.cv = undefined), (st.cvl = st.pc);
    let completion = NORMAL;
    let pending: ProgramThrow | null = null;
    const savedThr = st.thr;
    // This try collects its own pending throws; the outer ones stay in the pc meanwhile.
    const outerSpc = savedThr === BOT ? st.spc : enterPc(savedThr);
    st.thr = BOT;
    st.tryDepth++;
    let thrown: ProgramThrow | null = null;
    try {
      completion = block(env);
    } catch (e) {
      if (!(e instanceof ProgramThrow)) {
        st.tryDepth--;
        throw e;
      }
      thrown = e;
    }
    st.tryDepth--;
    const decided = join2(st.thr, thrown?.label ?? BOT);
    st.thr = savedThr;
    st.spc = outerSpc;
    syncPc();
    if (thrown !== null) {
      if (handlerBody === null) pending = thrown;
      else {
        const saved = enterPc(st.mutants.catchNoPc ? BOT : decided);
        // A caught throw: the try's completion is the catch block's, undefined unless it makes one.
        if (topLevel) (st.cv = undefined), (st.cvl = st.pc);
        // A throw from a catch block runs the finally's code before it leaves: as inside a try,
        // what may throw there decides what runs next.
        if (finalizer !== null) st.tryDepth++;
        try {
          const henv = (handlerScopeEnv as (env: Env) => Env)(env);
          bindParam?.(henv, thrown.value, join2(thrown.label, decided));
          completion = handlerBody(henv);
        } catch (e) {
          if (!(e instanceof ProgramThrow)) throw e;
          pending = e;
        } finally {
          if (finalizer !== null) st.tryDepth--;
          leavePc(saved);
        }
      }
    }
    if (decided !== BOT && !underPc(decided)) {
      // Whether the catch block ran was decided here; what may throw in it raised the pc of the
      // finally (and of what follows a finally that ends otherwise) where it ran, since it ran as
      // inside a try: where it did not run, the same is raised (as inside a try, too).
      if (finalizer !== null) st.tryDepth++;
      exitRegion(fx, env, decided);
      if (finalizer !== null) st.tryDepth--;
    }
    if (finalizer !== null) {
      // A finally block that completes normally leaves the try's completion as it was: its
      // value, and the pending return, jump or throw (a function it calls sets them too). But
      // the finally could have ended otherwise (returned, broken, thrown): what decided that
      // is in the pc now, and decides that the pending completion is the one that happens.
      const { cv, cvl, retV, retL, retPc, jump } = st;
      const r = finalizer(env);
      if (r !== NORMAL) {
        endFinally(savedThr, whole, env);
        return r;
      }
      const kept = st.mutants.finallyDropsPc ? BOT : st.pc;
      st.cv = cv;
      st.cvl = join2(cvl, kept);
      st.retV = retV;
      st.retL = join2(retL, kept);
      st.retPc = join2(retPc, kept);
      st.jump = jump;
      // A failed call's throw keeps apart what decided its place but for the failure: raised alike.
      if (pending !== null && (!kept.flowsTo(pending.label) || (pending.call !== undefined && !kept.flowsTo(pending.call.reached)))) {
        const call = pending.call === undefined ? undefined : { ...pending.call, reached: join2(pending.call.reached, kept) };
        pending = new ProgramThrow(pending.value, join2(pending.label, kept), pending.line, pending.column, join2(pending.at, kept), call);
      }
      endFinally(savedThr, whole, env);
    }
    if (pending !== null) throw pending;
    return completion;
  };
};

/**
 * After a finally: what may have thrown in the catch block (raised as inside a try, since the
 * finally ran after it) has decided the finally and how it ended (its break, continue or return
 * carries it), and, where no try is open, nothing else: a throw it let through ends the run. It
 * is dropped from the pc there, so it is raised after the statement in no run rather than in the
 * run whose catch block ran (or whose try ran in a branch) only. But while it was in the pc, the
 * regions it covered skipped their exit upgrades (`underPc`: the pc carried the label to every
 * write they made where they ran); it leaves the pc with no region's exit behind it, so the
 * statement's exit makes them now, in every run, as a region decided by it.
 */
function endFinally(savedThr: Label, whole: SiteEffects, env: Env): void {
  if (st.tryDepth === 0 && st.thr !== savedThr) {
    const dropped = st.thr;
    st.thr = savedThr;
    syncPc();
    if (!st.mutants.finallyDropsThr && !underPc(dropped)) exitRegion(whole, env, dropped);
  }
}

function declareCatch(scope: ReturnType<typeof blockScope>, name: string): void {
  scope.bindings.set(name, { name, kind: "catch", scope, index: scope.bindings.size, reassigned: false });
  scope.hasEnv = true;
}

stmtHandlers.SwitchStatement = (node: acorn.SwitchStatement, cx) => {
  const disc = placed(node.discriminant, compileExpr(node.discriminant, cx));
  const scope = blockScope(cx);
  // The discriminant is evaluated outside the cases' scope.
  const all = node.cases.flatMap((c) => c.consequent);
  hoist(all, scope, cx.fnScope);
  const scx = childCx(cx, scope);
  const tests = node.cases.map((c) => (c.test ? placed(c.test, compileExpr(c.test, scx)) : null));
  const bodies = node.cases.map((c) => compileBody(c.consequent, scx));
  const defaultIndex = node.cases.findIndex((c) => c.test === null);
  // The whole switch is the region: a break that ends the switch does not leave it.
  const fx = effectsOf(cx, node);
  const inert = isInert(fx);
  const topLevel = !cx.inFunction;
  return (env) => {
    step();
    const d = disc(env);
    const senv = scope.hasEnv ? newEnv(scope, env) : env;
    let decided: Label = st.l;
    let start = -1;
    const outerSpc = st.spc;
    const outerPc = st.pc;
    let first = true;
    try {
      for (let i = 0; i < tests.length && start < 0; i++) {
        const t = tests[i];
        if (t === null) continue;
        // Rule: a case test after the first runs only because the tests before it missed, which
        // the discriminant and those tests decided: it runs under them.
        if (!first && !decided.flowsTo(st.pc) && !st.mutants.switchNoPc) {
          st.spc = join2(outerSpc, decided);
          syncPc();
        }
        first = false;
        const v = t(senv);
        decided = join2(decided, st.l);
        if (strictEq(d, v)) start = i;
      }
    } finally {
      if (st.spc !== outerSpc) {
        st.spc = outerSpc;
        syncPc();
      }
    }
    if (start < 0) start = defaultIndex;
    if (topLevel) (st.cv = undefined), (st.cvl = join2(decided, st.pc));
    const guarded = decided !== BOT && !decided.flowsTo(outerPc);
    const savedBrk = st.brk;
    const saved = guarded && !st.mutants.switchNoPc ? enterPc(decided) : st.spc;
    try {
      if (start < 0) return NORMAL;
      for (let i = start; i < bodies.length; i++) {
        const r = bodies[i](senv);
        if (r === BREAK && st.jump === null) return NORMAL;
        if (r !== NORMAL) return r;
      }
      return NORMAL;
    } finally {
      const exit = join2(decided, st.brk);
      st.brk = fx.breaks ? join2(savedBrk, st.brk) : savedBrk;
      if (guarded || exit !== BOT) {
        if (!inert && !underPcOf(exit, saved)) exitRegion(fx, env, exit);
        leavePc(saved);
      } else syncPc();
    }
  };
};

function underPcOf(l: Label, spc: Label): boolean {
  return l === BOT || l.flowsTo(join2(spc, join2(st.brk, join2(st.ret, st.thr))));
}
