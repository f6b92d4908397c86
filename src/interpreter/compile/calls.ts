/**
 * Calls and assignments. A method call dispatches straight to the builtin table of its
 * receiver without allocating a bound function; everything else goes through callFunction.
 */
import type * as acorn from "acorn";
import type { Label } from "../../labels/index.js";
import { getMember, methodTable, setMayThrow, setMember } from "../members.js";
import { binary } from "../operators.js";
import { enterPc, exitRegion, join2, leavePc, mayHaveThrown, mayStopOn, mayThrowOn, mayWriteThrough, reshape, stored, underPc, upgradeObject, withContents } from "../rules.js";
import { st } from "../state.js";
import { ARR, BOT, FN, OBJ, type Fn, type Val, isRef, toKey, toNum, truthy } from "../values.js";
import { arrayMethods } from "../builtins/array.js";

const MAP = arrayMethods.get("map");
import { type Cx, type Expr, compileExpr, effectsOf, exprHandlers, isInert, unsupported } from "./context.js";
import { SHORT, optionalLink, shortCircuit, spreadInto } from "./expressions.js";
import { callFunction } from "./functions.js";
import { callPlain } from "../rules-calls.js";
import type { Builtin } from "../builtins/util.js";
import { TDZ, compileTarget, throwReference } from "./patterns.js";
import { hop, resolve } from "./scope.js";
import { batched } from "../program.js";
import { NEWABLE_TEXT, newCallee } from "../../language/check.js";

/** Arguments, their labels, and the label of how many there are (spreads decide it). */
type Args = (env: any) => { args: Val[]; argLs: Label[]; shape: Label };

function compileArgs(nodes: Array<acorn.Expression | acorn.SpreadElement>, cx: Cx): Args {
  type Part = { spread: Expr; value?: undefined } | { value: Expr; spread?: undefined };
  const parts: Part[] = nodes.map((a) => (a.type === "SpreadElement" ? { spread: compileExpr(a.argument, cx) } : { value: compileExpr(a, cx) }));
  if (parts.every((p) => p.value !== undefined)) {
    const fns = parts.map((p) => (p as { value: Expr }).value);
    return (env) => {
      const args = new Array<Val>(fns.length);
      const argLs = new Array<Label>(fns.length);
      for (let i = 0; i < fns.length; i++) {
        args[i] = fns[i](env);
        argLs[i] = st.l;
      }
      return { args, argLs, shape: BOT };
    };
  }
  return (env) => {
    const args: Val[] = [];
    const argLs: Label[] = [];
    let shape: Label = BOT;
    for (const p of parts) {
      if (p.value !== undefined) {
        args.push(p.value(env));
        argLs.push(st.l);
      } else {
        const v = (p.spread as Expr)(env);
        shape = join2(shape, spreadInto(v, st.l, args, argLs));
      }
    }
    return { args, argLs, shape };
  };
}

/** `Promise.all(...)` written as such, with `Promise` not redeclared: its tool calls may run together. */
function isPromiseAll(node: acorn.CallExpression, cx: Cx): boolean {
  const c = node.callee;
  return c.type === "MemberExpression" && !c.computed && c.object.type === "Identifier" && c.object.name === "Promise" &&
    (c.property as acorn.Identifier).name === "all" && resolve(cx.scope, "Promise") === null;
}

/**
 * Calls in tail position of a `Promise.all` argument (see {@link batched}): "element" directly
 * in its array literal, "map" returned by the literal callback of the `.map` that is its
 * argument ("mapSite" marks that `.map` call).
 */
const TAILS = new WeakMap<acorn.Node, "element" | "map" | "mapSite">();

function unwrap(n: acorn.Node): acorn.Node {
  let x = n as acorn.AnyNode;
  while (x.type === "AwaitExpression" || (x.type as string) === "ParenthesizedExpression") x = (x as { argument?: acorn.AnyNode; expression?: acorn.AnyNode }).argument ?? (x as unknown as { expression: acorn.AnyNode }).expression;
  return x;
}

function markCall(n: acorn.Node | null | undefined, kind: "element" | "map"): void {
  if (n === null || n === undefined) return;
  const c = unwrap(n);
  if (c.type === "CallExpression") TAILS.set(c, kind);
}

/** The expressions a block body returns outside any try and any nested function. */
function returnedExpressions(s: acorn.Node, out: acorn.Node[] = []): acorn.Node[] {
  const n = s as acorn.AnyNode;
  switch (n.type) {
    case "ReturnStatement":
      if (n.argument) out.push(n.argument);
      break;
    case "BlockStatement":
      for (const x of n.body) returnedExpressions(x, out);
      break;
    case "IfStatement":
      returnedExpressions(n.consequent, out);
      if (n.alternate) returnedExpressions(n.alternate, out);
      break;
    case "ForStatement":
    case "ForInStatement":
    case "ForOfStatement":
    case "WhileStatement":
    case "DoWhileStatement":
    case "LabeledStatement":
      returnedExpressions(n.body, out);
      break;
    case "SwitchStatement":
      for (const c of n.cases) for (const x of c.consequent) returnedExpressions(x, out);
      break;
  }
  return out;
}

function markTails(arg: acorn.Node | undefined): void {
  if (arg === undefined || arg.type === "SpreadElement") return;
  const a = unwrap(arg) as acorn.AnyNode;
  if (a.type === "ArrayExpression") {
    for (const e of a.elements) if (e !== null && e.type !== "SpreadElement") markCall(e, "element");
    return;
  }
  if (a.type !== "CallExpression" || a.optional || a.callee.type !== "MemberExpression" || a.callee.computed || a.callee.optional) return;
  if ((a.callee.property as acorn.Identifier).name !== "map") return;
  const fn = a.arguments[0] as acorn.AnyNode | undefined;
  if (fn === undefined || !(fn.type === "ArrowFunctionExpression" || (fn.type === "FunctionExpression" && fn.id === null))) return;
  TAILS.set(a, "mapSite");
  if (fn.body.type === "BlockStatement") for (const r of returnedExpressions(fn.body)) markCall(r, "map");
  else markCall(fn.body, "map");
}

/** Whether the call about to be made may be deferred into the pending `Promise.all` batch. */
function deferrable(tail: "element" | "map" | "mapSite" | undefined, f: Val): boolean {
  if (st.batch === null || !isRef(f) || f.k !== FN || f.host !== true) return false;
  return tail === "element" || (tail === "map" && st.deferDepth === st.depth);
}

/** Makes the call, marked deferrable when it is a host call in tail position of Promise.all. */
function dispatch(tail: "element" | "map" | "mapSite" | undefined, f: Val, fl: Label, a: { args: Val[]; argLs: Label[]; shape: Label }): Val {
  if (tail === undefined || tail === "mapSite" || !deferrable(tail, f)) return callFunction(f, fl, a.args, a.argLs, a.shape);
  st.defer = true;
  try {
    return callFunction(f, fl, a.args, a.argLs, a.shape);
  } finally {
    st.defer = false;
  }
}

exprHandlers.CallExpression = (node: acorn.CallExpression, cx) => {
  const all = isPromiseAll(node, cx);
  if (all) markTails(node.arguments[0]);
  const tail = TAILS.get(node);
  const plainArgs = compileArgs(node.arguments, cx);
  const args: Args = all ? (env) => batched(() => plainArgs(env)) : plainArgs;
  const optionalCall = node.optional;
  const callee = node.callee;
  if (callee.type === "MemberExpression") {
    const obj = compileExpr(callee.object, cx);
    const name = !callee.computed ? (callee.property as acorn.Identifier).name : null;
    const key = callee.computed ? compileExpr(callee.property, cx) : null;
    const optionalMember = callee.optional;
    let seenTable: ReturnType<typeof methodTable>;
    let seenImpl: Builtin | undefined;
    return (env) => {
      const o = obj(env);
      const ol = st.l;
      if (o === SHORT) return SHORT;
      if (optionalMember) {
        optionalLink(ol);
        if (o === null || o === undefined) return shortCircuit(ol);
      }
      let k: Val = name;
      let kl: Label = BOT;
      if (key !== null) {
        k = key(env);
        kl = st.l;
      }
      // Fast path: a builtin method of an array, string, number, date or regexp.
      if (typeof k === "string" && kl === BOT && !(isRef(o) && (o.k === 1 || o.k === FN))) {
        const table = methodTable(o);
        // A site with a static name looks its method up once per table it sees.
        if (key === null && table !== seenTable) (seenTable = table), (seenImpl = table?.get(k));
        const impl = key === null ? seenImpl : table?.get(k);
        if (impl !== undefined) {
          mayThrowOn(ol);
          // `o.m?.(…)`: whether o has the method (an array or not, a string or a number) was
          // decided by o's reference, and with it whether the arguments run.
          if (optionalCall) optionalLink(ol);
          const a = args(env);
          if (ol === BOT && a.shape === BOT && impl.calls === false) return callPlain(impl, o, BOT, a.args, a.argLs);
          const f: Fn = { k: FN, name: k, label: BOT, builtin: impl, self: o, selfL: ol, byName: true };
          if (tail !== "mapSite" || impl !== MAP) return callFunction(f, ol, a.args, a.argLs, a.shape);
          // The builtin map given to Promise.all: its callback's returned host calls may be deferred.
          const saved = st.deferDepth;
          st.deferDepth = st.depth + 1;
          try {
            return callFunction(f, ol, a.args, a.argLs, a.shape);
          } finally {
            st.deferDepth = saved;
          }
        }
      }
      const f = getMember(o, ol, k, kl);
      const fl = st.l;
      if (optionalCall) {
        optionalLink(fl);
        if (f === null || f === undefined) return shortCircuit(fl);
      }
      return dispatch(tail, f, fl, args(env));
    };
  }
  const fn = compileExpr(callee, cx);
  return (env) => {
    const f = fn(env);
    const fl = st.l;
    if (f === SHORT) return SHORT;
    if (optionalCall) {
      optionalLink(fl);
      if (f === null || f === undefined) return shortCircuit(fl);
    }
    return dispatch(tail, f, fl, args(env));
  };
};

exprHandlers.NewExpression = (node: acorn.NewExpression, cx) => {
  const name = newCallee(node) ?? "";
  const [root, member] = name.split(".");
  const why = `\`new ${name}\` is not supported: only ${NEWABLE_TEXT} can be constructed`;
  if (resolve(cx.scope, root) !== null) unsupported(node, why);
  const global = cx.globals.values.get(root);
  // `new Intl.NumberFormat(...)`: a static of a builtin namespace.
  const ctor = member === undefined ? global : isRef(global) && global.k === FN ? global.statics?.get(member) : undefined;
  if (ctor === undefined) unsupported(node, why);
  const args = compileArgs(node.arguments, cx);
  return (env) => {
    const a = args(env);
    return callFunction(ctor, BOT, a.args, a.argLs, a.shape);
  };
};

// ---------------------------------------------------------------------------------------------
// Assignment

/** A place that can be read and written: a variable or a member. */
interface Place {
  /** Evaluates the reference once and returns a reader and a writer for it. */
  open(env: any): { get(): Val; set(v: Val, l: Label): void; notSet(l: Label): void };
}

function compilePlace(node: acorn.Node, cx: Cx): Place {
  if (node.type === "Identifier") {
    const id = node as acorn.Identifier;
    const r = resolve(cx.scope, id.name);
    if (r === null) unsupported(node, `\`${id.name}\` is not declared; declare it with let first`);
    if (r.binding.kind === "const") unsupported(node, `\`${id.name}\` is a constant; declare it with let to change it`);
    r.binding.reassigned = true;
    const { hops } = r;
    const i = r.binding.index;
    const write = compileTarget(node, cx, false);
    const name = id.name;
    return {
      open(env) {
        const e = hop(env, hops);
        return {
          get: () => {
            const v = e.v[i];
            if (v === TDZ) throwReference(name);
            st.l = e.l[i];
            return v;
          },
          set: (v, l) => write(env, v, l),
          // The assignment not made, decided by `l`: the variable carries it.
          notSet: (l) => {
            e.l[i] = join2(e.l[i], stored(l));
          },
        };
      },
    };
  }
  if (node.type === "MemberExpression") {
    const m = node as acorn.MemberExpression;
    const obj = compileExpr(m.object, cx);
    const key: Expr | null = m.computed ? compileExpr(m.property, cx) : null;
    const name = m.computed ? null : (m.property as acorn.Identifier).name;
    // `o[0]` and `o["k"]` name their part as surely as `o.k` does (see staticKey).
    const dynamicKey = m.computed && m.property.type !== "Literal";
    return {
      open(env) {
        const o = obj(env);
        const ol = st.l;
        let k: Val = name;
        let kl: Label = BOT;
        if (key !== null) (k = key(env)), (kl = st.l);
        return {
          get: () => getMember(o, ol, k, kl),
          set: (v, l) => setMember(o, ol, k, kl, v, l, dynamicKey),
          // The write not made, decided by `l`: it charges what the write made would have
          // charged in any run (setMember), or the runs tell apart where it was not made
          // (attack r13).
          notSet: (l) => {
            const keyL = isRef(k) ? withContents(k, kl) : kl;
            const decided = join2(l, st.pc);
            // Which value the reference chose decides whether a write through it throws or
            // stops, whatever this run's base is: another run's may be an object, or a string.
            mayThrowOn(ol);
            if (ol !== BOT) mayStopOn(ol);
            if (!isRef(o) || o.k !== OBJ) mayThrowOn(keyL);
            // A write that would have thrown here (a string's key, a collection's, an array's
            // named key) was not made because of `l`: as a region's exit, `l` decides where the
            // run may end and, inside a try, the pending throw.
            if (setMayThrow(o, k)) mayHaveThrown(join2(join2(decided, keyL), ol));
            if (!isRef(o)) return;
            // A write through `ol` into this object would stop: no run that goes on made it, and
            // a run that chose another object did not write this one. So nothing is upgraded
            // (the chosen object of another run carries `ol` on every read), and `l` only joins
            // where the run may end (attack r13: a floor here was raised in one run only).
            if (!mayWriteThrough(ol, o)) return mayStopOn(join2(decided, ol));
            // The part (or, missing, which keys exist) carries `l`; a labelled key labels the
            // object, a computed one reshapes it.
            if ((dynamicKey || keyL !== BOT) && (o.k === OBJ || o.k === ARR)) reshape(o, join2(decided, keyL));
            upgradeObject(o, keyL === BOT ? toKey(k) : null, decided);
          },
        };
      },
    };
  }
  return unsupported(node, `cannot assign to ${node.type}`);
}

exprHandlers.AssignmentExpression = (node: acorn.AssignmentExpression, cx) => {
  const op = node.operator;
  const right = compileExpr(node.right, cx);
  if (op === "=") {
    if (node.left.type === "MemberExpression") {
      const place = compilePlace(node.left, cx);
      return (env) => {
        const p = place.open(env);
        const v = right(env);
        const l = st.l;
        p.set(v, l);
        st.l = l;
        return v;
      };
    }
    const bind = compileTarget(node.left, cx, false);
    const direct = directSlot(node.left, cx);
    if (direct !== null) {
      // `x = e`: the slot written in place, as the identifier's binder writes it.
      const { hops, index, name } = direct;
      const tdz = direct.kind === "let";
      return (env) => {
        const v = right(env);
        const l = st.l;
        const e = hops === 0 ? env : hop(env, hops);
        if (tdz && e.v[index] === TDZ) throwReference(name);
        e.v[index] = v;
        e.l[index] = stored(l);
        st.l = l;
        return v;
      };
    }
    return (env) => {
      const v = right(env);
      const l = st.l;
      bind(env, v, l);
      st.l = l;
      return v;
    };
  }
  const place = compilePlace(node.left, cx);
  if (op === "&&=" || op === "||=" || op === "??=") {
    const fx = effectsOf(cx, node.right);
    const inert = isInert(fx);
    return (env) => {
      const p = place.open(env);
      const cur = p.get();
      const cl = st.l;
      const keep = op === "&&=" ? !truthy(cur) : op === "||=" ? truthy(cur) : cur !== null && cur !== undefined;
      // Rule: whether the assignment happens is a branch on the current value.
      const guarded = cl !== BOT && !underPc(cl);
      const saved = guarded ? enterPc(cl) : st.spc;
      try {
        if (keep) {
          // The assignment not made was decided by the current value: the place carries it.
          if (guarded) p.notSet(cl);
          return (st.l = cl), cur;
        }
        const v = right(env);
        const l = join2(st.l, cl);
        p.set(v, l);
        st.l = l;
        return v;
      } finally {
        if (guarded) {
          const l = st.l;
          if (!inert) exitRegion(fx, env, cl);
          leavePc(saved);
          st.l = l;
        }
      }
    };
  }
  const binop = op.slice(0, -1);
  const direct = directSlot(node.left, cx);
  if (direct !== null) {
    const { hops, index, bind } = direct;
    return (env) => {
      const e = hops === 0 ? env : hop(env, hops);
      const a = e.v[index];
      if (a === TDZ) throwReference(direct.name);
      let la = e.l[index];
      const b = right(env);
      let lb = st.l;
      if (isRef(a)) la = withContents(a, la);
      if (isRef(b)) lb = withContents(b, lb);
      const v = typeof a === "number" && typeof b === "number" && binop === "+" ? a + b : binary(binop, a, b);
      const l = st.mutants.compoundDropsRight ? la : join2(la, lb);
      bind(env, v, l);
      st.l = l;
      return v;
    };
  }
  return (env) => {
    const p = place.open(env);
    const a = p.get();
    const la = isRef(a) ? withContents(a, st.l) : st.l;
    const b = right(env);
    const lb = isRef(b) ? withContents(b, st.l) : st.l;
    const v = binary(binop, a, b);
    const l = join2(la, lb);
    p.set(v, l);
    st.l = l;
    return v;
  };
};

/** A variable that can be read and written in place (not a constant, declared). */
function directSlot(node: acorn.Node, cx: Cx): { hops: number; index: number; name: string; kind: string; bind: ReturnType<typeof compileTarget> } | null {
  if (node.type !== "Identifier") return null;
  const name = (node as acorn.Identifier).name;
  const r = resolve(cx.scope, name);
  if (r === null || r.binding.kind === "const") return null;
  return { hops: r.hops, index: r.binding.index, name, kind: r.binding.kind, bind: compileTarget(node, cx, false) };
}

exprHandlers.UpdateExpression = (node: acorn.UpdateExpression, cx) => {
  const place = compilePlace(node.argument, cx);
  const delta = node.operator === "++" ? 1 : -1;
  const prefix = node.prefix;
  const direct = directSlot(node.argument, cx);
  if (direct !== null) {
    const { hops, index, bind } = direct;
    return (env) => {
      const e = hops === 0 ? env : hop(env, hops);
      const cur = e.v[index];
      if (cur === TDZ) throwReference(direct.name);
      const old = typeof cur === "number" ? cur : toNum(cur);
      // Rule: the number converted from an object (a Date, an array) is decided by its contents.
      const l = isRef(cur) ? withContents(cur, e.l[index]) : e.l[index];
      const v = old + delta;
      bind(env, v, l);
      st.l = l;
      return prefix ? v : old;
    };
  }
  return (env) => {
    const p = place.open(env);
    const cur = p.get();
    const old = toNum(cur);
    const l = isRef(cur) ? withContents(cur, st.l) : st.l;
    const v = old + delta;
    p.set(v, l);
    st.l = l;
    return prefix ? v : old;
  };
};
