/**
 * Binding and assignment targets: identifiers, members and destructuring patterns with
 * defaults and rest. A pattern compiles to a binder that stores a value and its label.
 */
import type * as acorn from "acorn";
import type { Label } from "../../labels/index.js";
import { getMember, setMember } from "../members.js";
import { throwError, typeError } from "../errors.js";
import { enterPc, exitRegion, join2, keysLabel, leavePc, mayThrowOn, stored, underPc, withContents } from "../rules.js";
import { charge, charsOf, checkArrayLength, st, work } from "../state.js";
import { ARR, BOT, OBJ, type Arr, type Val, enumerableKeys, newArr, newObj, elemLabel, toKey } from "../values.js";
import { type Cx, type Expr, compileExpr, effectsOf, isInert, unsupported } from "./context.js";
import { type Env, TDZ, hop, resolve } from "./scope.js";
import { iterableOf } from "../builtins/collections.js";

/** Stores a value labelled `vl` into a target. */
export type Binder = (env: Env, v: Val, vl: Label) => void;

export { TDZ };

export function compileTarget(node: acorn.Node, cx: Cx, declaring: boolean): Binder {
  const n = node as acorn.AnyNode;
  switch (n.type) {
    case "Identifier":
      return identifierTarget(n, cx, declaring);
    case "MemberExpression":
      if (declaring) unsupported(n, "a declaration can only bind names");
      return memberTarget(n, cx);
    case "ObjectPattern":
      return objectPattern(n, cx, declaring);
    case "ArrayPattern":
      return arrayPattern(n, cx, declaring);
    case "AssignmentPattern":
      return withDefault(n, cx, declaring);
    default:
      return unsupported(n, `cannot assign to ${n.type}`);
  }
}

function identifierTarget(n: acorn.Identifier, cx: Cx, declaring: boolean): Binder {
  const r = resolve(cx.scope, n.name);
  if (r === null) {
    if (cx.globals.values.has(n.name)) unsupported(n, `\`${n.name}\` is a builtin and cannot be assigned; declare a variable with another name`);
    unsupported(n, `\`${n.name}\` is not declared; declare it first with let or const`);
  }
  const { binding, hops } = r;
  if (!declaring && binding.kind === "const") unsupported(n, `\`${n.name}\` is a constant; declare it with let to reassign it`);
  if (!declaring) binding.reassigned = true;
  const i = binding.index;
  const checkTdz = !declaring && (binding.kind === "let" || binding.kind === "const");
  const name = n.name;
  return (env, v, vl) => {
    const e = hops === 0 ? env : hop(env, hops);
    if (checkTdz && e.v[i] === TDZ) throwReference(name);
    e.v[i] = v;
    e.l[i] = stored(vl);
  };
}

export function throwReference(name: string): never {
  return throwError("ReferenceError", `Cannot access '${name}' before initialization`, BOT);
}

function memberTarget(n: acorn.MemberExpression, cx: Cx): Binder {
  const obj = compileExpr(n.object, cx);
  const key: Expr = n.computed ? compileExpr(n.property, cx) : constant((n.property as acorn.Identifier).name);
  return (env, v, vl) => {
    const o = obj(env);
    const ol = st.l;
    const k = key(env);
    setMember(o, ol, k, st.l, v, vl, n.computed && n.property.type !== "Literal");
  };
}

function constant(v: Val): Expr {
  return () => ((st.l = BOT), v);
}

function requireObject(v: Val, vl: Label): void {
  mayThrowOn(vl);
  if (v === null || v === undefined) typeError(`Cannot destructure ${v}`, vl);
}

function objectPattern(n: acorn.ObjectPattern, cx: Cx, declaring: boolean): Binder {
  const parts: Array<{ key: Expr; bind: Binder; staticKey: string | null }> = [];
  let rest: Binder | null = null;
  for (const p of n.properties) {
    if (p.type === "RestElement") {
      rest = compileTarget(p.argument, cx, declaring);
      continue;
    }
    const staticKey = !p.computed && p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
    const key = staticKey !== null ? constant(staticKey) : compileExpr(p.key, cx);
    parts.push({ key, bind: compileTarget(p.value, cx, declaring), staticKey });
  }
  return (env, v, vl) => {
    requireObject(v, vl);
    const taken = new Set<string>();
    // What decided which keys the rest leaves out: the computed keys, contents included.
    let takenL: Label = BOT;
    for (const part of parts) {
      const k = part.key(env);
      const kl = st.l;
      if (rest !== null) {
        taken.add(toKey(k));
        takenL = join2(takenL, withContents(k, kl));
      }
      const x = getMember(v, vl, k, kl);
      part.bind(env, x, st.l);
    }
    if (rest !== null) rest(env, restOf(v, vl, taken, takenL), vl);
  };
}

function restOf(v: Val, vl: Label, taken: Set<string>, takenL: Label): Val {
  // Rule: the rest's keys, and so every value in it, were chosen by the keys taken out.
  const out = newObj(join2(vl, takenL));
  vl = join2(vl, takenL);
  if (typeof v === "object" && v !== null && v.k === OBJ) {
    // A copy as large as the source: charged (and stepped) before it is made, as a spread is.
    charge(128 * v.props.size + 64);
    work(v.props.size >> 4);
    for (const k of enumerableKeys(v)) {
      const slot = v.props.get(k)!;
      if (!taken.has(k)) out.props.set(k, { v: slot.v, l: join2(join2(slot.l, v.label), vl) });
    }
    out.shape = join2(join2(keysLabel(v), v.label), vl);
  }
  return out;
}

function arrayPattern(n: acorn.ArrayPattern, cx: Cx, declaring: boolean): Binder {
  const elems = n.elements.map((e) => (e === null ? null : e.type === "RestElement" ? { rest: compileTarget(e.argument, cx, declaring) } : { bind: compileTarget(e, cx, declaring) }));
  return (env, v, vl) => {
    requireObject(v, vl);
    v = iterableOf(v, vl);
    let items: () => Val[];
    let structure: () => Label;
    if (typeof v === "string") {
      const chars = charsOf(v, 16);
      items = () => chars;
      structure = () => vl;
    } else if (typeof v === "object" && v !== null && v.k === ARR) {
      // Read live at every element, as JavaScript's iterator does: a default evaluated on the
      // way may change the array, and the label of what it changed with it.
      items = () => v.items;
      structure = () => join2(vl, v.label);
    } else return typeError("the value is not iterable; destructure arrays or strings only", vl);
    const labelOf = (i: number): Label => (typeof v === "object" ? join2(structure(), elemLabel(v as Arr, i)) : vl);
    for (let i = 0; i < elems.length; i++) {
      const e = elems[i];
      if (e === null) continue;
      if (e.rest !== undefined) {
        const all = items();
        checkArrayLength(all.length - i);
        charge(16 * Math.max(0, all.length - i) + 32);
        work(Math.max(0, all.length - i) >> 4);
        const restItems = all.slice(i);
        e.rest(env, newArr(restItems, restItems.map((_, j) => labelOf(i + j)), structure()), structure());
        break;
      }
      const xs = items();
      (e.bind as Binder)(env, xs[i], i < xs.length ? labelOf(i) : structure());
    }
  };
}

function withDefault(n: acorn.AssignmentPattern, cx: Cx, declaring: boolean): Binder {
  const inner = compileTarget(n.left, cx, declaring);
  const fallback = compileExpr(n.right, cx);
  const fx = effectsOf(cx, n.right);
  const inert = isInert(fx);
  return (env, v, vl) => {
    // Whether the default runs is decided by the value: it is a branch.
    if (vl === BOT || underPc(vl)) {
      if (v === undefined) return inner(env, fallback(env), st.l);
      return inner(env, v, vl);
    }
    const saved = enterPc(vl);
    let out: Val = v;
    let outL = vl;
    if (v === undefined) {
      out = fallback(env);
      outL = st.mutants.defaultDropsTest ? st.l : join2(st.l, vl);
    }
    if (!inert) exitRegion(fx, env, vl);
    leavePc(saved);
    inner(env, out, outL);
  };
}
