/**
 * Expressions other than calls and assignments. Every handler leaves the label of its result
 * in `st.l`; the rule for each is named where it is applied.
 */
import type * as acorn from "acorn";
import { RE2JS } from "re2js";
import type { Label } from "../../labels/index.js";
import { deleteMember, getMember, hasMember } from "../members.js";
import { binary, instanceOf, unary } from "../operators.js";
import { cutsOf, enterPc, exitRegion, join2, keysLabel, leavePc, mayThrowOn, spreadOverwrites, underPc, withContents } from "../rules.js";
import { charge, charsOf, checkArrayLength, checkString, st } from "../state.js";
import { ARR, BOT, OBJ, RE, type Cut, type Obj, type Val, enumerableKeys, isRef, newArr, newObj, toKey, toStr, truthy, typeOf, elemLabel } from "../values.js";
import { type Cx, type Expr, compileExpr, effectsOf, exprHandlers, isInert, unsupported } from "./context.js";
import { compileFunction } from "./functions.js";
import { TDZ, throwReference } from "./patterns.js";
import { hop, resolve } from "./scope.js";
import { spreadKeys, staticKeyOf } from "./spread-keys.js";
import { throwError } from "../errors.js";
import { iterableOf } from "../builtins/collections.js";

const constant = (v: Val): Expr => () => ((st.l = BOT), v);

exprHandlers.Literal = (node: acorn.Literal) => {
  const regex = (node as { regex?: { pattern: string; flags: string } }).regex;
  if (regex) {
    const { pattern, flags } = regex;
    const re = compileRegExp(pattern, flags, node);
    return () => ((st.l = BOT), { k: RE, source: pattern, flags, re, label: BOT, lastIndex: 0 });
  }
  return constant(node.value as Val);
};

/** Compiles a regular expression to RE2 (linear time); what RE2 cannot run is a program error. */
export function compileRegExp(pattern: string, flags: string, node?: acorn.Node): RE2JS {
  let f = 0;
  if (flags.includes("i")) f |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("m")) f |= RE2JS.MULTILINE;
  if (flags.includes("s")) f |= RE2JS.DOTALL;
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern), f);
  } catch (err) {
    const why = `regular expression /${pattern}/ is not supported (${(err as Error).message}); backreferences and lookaround cannot run in linear time, rewrite without them`;
    if (node) unsupported(node, why);
    return throwError("SyntaxError", why, BOT);
  }
}

exprHandlers.Identifier = (node: acorn.Identifier, cx) => {
  const r = resolve(cx.scope, node.name);
  if (r === null) {
    const g = cx.globals.values.get(node.name);
    if (g !== undefined || node.name === "undefined") return constant(g);
    const name = node.name;
    return () => throwError("ReferenceError", `${name} is not defined; declare it with const or let, or call one of the tools you were given`, BOT);
  }
  const { hops, binding } = r;
  const i = binding.index;
  const name = node.name;
  const tdz = binding.kind === "let" || binding.kind === "const";
  if (hops === 0) {
    return (env) => {
      const v = env.v[i];
      if (tdz && v === TDZ) throwReference(name);
      st.l = env.l[i];
      return v;
    };
  }
  if (hops === 1) {
    return (env) => {
      const e = env.p!;
      const v = e.v[i];
      if (tdz && v === TDZ) throwReference(name);
      st.l = e.l[i];
      return v;
    };
  }
  return (env) => {
    const e = hop(env, hops);
    const v = e.v[i];
    if (tdz && v === TDZ) throwReference(name);
    st.l = e.l[i];
    return v;
  };
};

exprHandlers.TemplateLiteral = (node: acorn.TemplateLiteral, cx) => template(node.quasis.map((q) => q.value.cooked ?? q.value.raw), node.expressions, cx);

/** `String.raw\`...\``, the one tagged template (language/check.ts refuses the others): the raw text. */
exprHandlers.TaggedTemplateExpression = (node: acorn.TaggedTemplateExpression, cx) => {
  if (resolve(cx.scope, "String") !== null) unsupported(node, "tagged templates other than String.raw are not supported; call the function on a plain template literal");
  return template(node.quasi.quasis.map((q) => q.value.raw), node.quasi.expressions, cx);
};

function template(quasis: string[], expressions: acorn.Node[], cx: Cx): Expr {
  const exprs = expressions.map((e) => compileExpr(e, cx));
  return (env) => {
    let s = quasis[0];
    let l: Label = BOT;
    for (let i = 0; i < exprs.length; i++) {
      const v = exprs[i](env);
      // Rule: a string built from values carries their labels, contents of objects included.
      l = st.mutants.templateDropsLabels ? l : join2(l, withContents(v, st.l));
      s += toStr(v) + quasis[i + 1];
    }
    if (s.length > 64) (charge(2 * s.length), checkString(s));
    st.l = l;
    return s;
  };
};

exprHandlers.ArrayExpression = (node: acorn.ArrayExpression, cx) => {
  type Part = { spread: Expr; value?: undefined } | { value: Expr; spread?: undefined } | null;
  const parts: Part[] = node.elements.map((e) => (e === null ? null : e.type === "SpreadElement" ? { spread: compileExpr(e.argument, cx) } : { value: compileExpr(e, cx) }));
  return (env) => {
    const items: Val[] = [];
    const lbls: Label[] = [];
    let structure: Label = BOT;
    let labelled = false;
    let cuts: Cut[] | null = null;
    for (const p of parts) {
      if (p === null) (items.push(undefined), lbls.push(BOT));
      else if (p.value !== undefined) {
        items.push(p.value(env));
        lbls.push(st.l);
        if (st.l !== BOT) labelled = true;
      } else {
        const v = (p.spread as Expr)(env);
        const vl = st.l;
        // Rule: how many elements a spread adds depends on the spread value.
        const before = structure;
        const at = items.length;
        structure = join2(structure, spreadInto(v, vl, items, lbls));
        // Rule (positions, rules.ts positionLabel): what came before this part stays where it
        // is, decided by `before`; what it added, by `structure` so far.
        if (structure !== before) {
          cuts ??= [];
          if (cuts.at(-1)?.n !== at) cuts.push({ n: at, l: before });
          cuts.push({ n: items.length, l: structure });
        }
        labelled = true;
      }
    }
    checkArrayLength(items.length);
    charge(16 * items.length + 32);
    st.l = BOT;
    const a = newArr(items, labelled ? lbls : null, structure);
    if (cuts !== null) {
      const kept = cutsOf(cuts, structure);
      if (kept !== undefined) a.cuts = kept;
    }
    if (st.pc !== BOT) a.born = st.pc;
    return a;
  };
};

/** Appends the elements of an array or string; returns the label of how many there were. */
export function spreadInto(v: Val, vl: Label, items: Val[], lbls: Label[]): Label {
  // Whether the value can be spread (and so whether this throws) is decided by its label.
  mayThrowOn(vl);
  v = iterableOf(v, vl);
  if (typeof v === "string") {
    // Checked and charged before the elements are made.
    checkArrayLength(items.length + v.length);
    charge(16 * v.length);
    for (const ch of v) (items.push(ch), lbls.push(vl));
    return vl;
  }
  if (isRef(v) && v.k === ARR) {
    checkArrayLength(items.length + v.items.length);
    charge(16 * v.items.length);
    const base = join2(vl, v.label);
    for (let i = 0; i < v.items.length; i++) (items.push(v.items[i]), lbls.push(join2(base, elemLabel(v, i))));
    return base;
  }
  return throwError("TypeError", `${typeOf(v)} is not iterable; spread arrays or strings only`, vl);
}

exprHandlers.ObjectExpression = (node: acorn.ObjectExpression, cx) => {
  type Part = { spread: Expr; keys: ReadonlySet<string> | null } | { key: Expr; value: Expr };
  const parts: Part[] = node.properties.map((p): Part => {
    if (p.type === "SpreadElement") return { spread: compileExpr(p.argument, cx), keys: spreadKeys(p.argument, cx) };
    const staticKey = staticKeyOf(p);
    const key: Expr = staticKey !== null ? constant(staticKey) : compileExpr(p.key, cx);
    const fnNode = p.value.type === "FunctionExpression" || p.value.type === "ArrowFunctionExpression" ? p.value : null;
    const value: Expr = fnNode !== null ? makeFunction(fnNode, cx, staticKey ?? "") : compileExpr(p.value, cx);
    return { key, value };
  });
  return (env) => {
    const o = newObj();
    for (const p of parts) {
      if ("spread" in p) {
        const v = p.spread(env);
        copyInto(o, v, st.l, p.keys);
        continue;
      }
      const k = p.key(env);
      // A computed key converted from an object is decided by its contents.
      const kl = isRef(k) ? withContents(k, st.l) : st.l;
      const v = p.value(env);
      initSlot(o, toKey(k), v, st.l, kl);
    }
    charge(48 * o.props.size + 64);
    if (st.pc !== BOT) o.born = st.pc;
    st.l = BOT;
    return o;
  };
};

/**
 * Sets a part of a new object. The pc is not joined in: the object is fresh, and whatever
 * holds a reference to it carries the pc of the moment it was stored.
 */
function initSlot(o: Obj, key: string, v: Val, vl: Label, kl: Label): void {
  const l = join2(vl, kl);
  const slot = o.props.get(key);
  if (slot === undefined) o.props.set(key, { v, l });
  else (slot.v = v), (slot.l = l);
  if (kl !== BOT) {
    // Which key exists depends on the key's label.
    o.label = join2(o.label, kl);
    o.shape = join2(o.shape, kl);
  }
}

function makeFunction(node: acorn.FunctionExpression | acorn.ArrowFunctionExpression, cx: Cx, name: string): Expr {
  const make = compileFunction(node, cx, node.type === "FunctionExpression" && node.id ? node.id.name : name);
  return (env) => ((st.l = BOT), make(env));
}

/**
 * `{...v}`: copies own properties with their labels. Which keys arrive depends on what decides
 * the source's keys: so does which keys already there keep their value (those `keys` allows,
 * {@link spreadOverwrites}), and which keys exist.
 */
function copyInto(o: Obj, v: Val, vl: Label, keys: ReadonlySet<string> | null): void {
  const keysL = !isRef(v) ? vl : v.k === OBJ ? join2(join2(vl, v.label), keysLabel(v)) : join2(vl, v.label);
  spreadOverwrites(o, keysL, keys);
  if (!isRef(v)) {
    if (typeof v === "string") charsOf(v, 64).forEach((ch, i) => initSlot(o, String(i), ch, vl, BOT));
  } else if (v.k === OBJ) {
    const base = join2(vl, v.label);
    for (const k of enumerableKeys(v)) {
      const slot = v.props.get(k)!;
      initSlot(o, k, slot.v, join2(base, slot.l), BOT);
    }
  } else if (v.k === ARR) {
    const base = join2(vl, v.label);
    v.items.forEach((x, i) => initSlot(o, String(i), x, join2(base, elemLabel(v, i)), BOT));
  }
  o.shape = join2(o.shape, keysL);
}

exprHandlers.FunctionExpression = (node: acorn.FunctionExpression, cx) => makeFunction(node, cx, node.id?.name ?? "");
exprHandlers.ArrowFunctionExpression = (node: acorn.ArrowFunctionExpression, cx) => makeFunction(node, cx, "");

exprHandlers.UnaryExpression = (node: acorn.UnaryExpression, cx) => {
  const op = node.operator;
  if (op === "typeof" && node.argument.type === "Identifier" && resolve(cx.scope, node.argument.name) === null && !cx.globals.values.has(node.argument.name)) {
    return constant("undefined");
  }
  if (op === "delete") {
    if (node.argument.type !== "MemberExpression") unsupported(node, "`delete` works on properties only: `delete obj.key`");
    const m = node.argument;
    const obj = compileExpr(m.object, cx);
    const key: Expr = m.computed ? compileExpr(m.property, cx) : constant((m.property as acorn.Identifier).name);
    return (env) => {
      const o = obj(env);
      const ol = st.l;
      const k = key(env);
      const r = deleteMember(o, ol, k, st.l);
      st.l = join2(ol, st.l);
      return r;
    };
  }
  const arg = compileExpr(node.argument, cx);
  if (op === "typeof") return (env) => unary(op, arg(env));
  return (env) => {
    const v = arg(env);
    // Rule: the result of an operator carries its operand's label (and contents, when converted).
    if (isRef(v) && op !== "!" && op !== "void") st.l = withContents(v, st.l);
    return unary(op, v);
  };
};

exprHandlers.BinaryExpression = (node: acorn.BinaryExpression, cx) => {
  const op = node.operator;
  const left = compileExpr(node.left as acorn.Expression, cx);
  if (op === "instanceof") {
    const name = (node.right as acorn.Identifier).name;
    return (env) => instanceOf(left(env), name);
  }
  const right = compileExpr(node.right, cx);
  if (op === "in") {
    return (env) => {
      const k = left(env);
      const kl = st.l;
      const o = right(env);
      return hasMember(k, kl, o, st.l);
    };
  }
  const converts = op !== "===" && op !== "!==";
  const fast = numberFastPath(op);
  /** Any operands but two numbers: converted (contents joined when an object is), then the operator. */
  const general = (a: Val, la: Label, b: Val, lb: Label): Val => {
    if (converts) {
      if (isRef(a)) la = withContents(a, la);
      if (isRef(b)) lb = withContents(b, lb);
    }
    const r = binary(op, a, b);
    // Rule: a binary operation joins its operands' labels.
    st.l = st.mutants.binaryDropsRight ? la : join2(la, lb);
    return r;
  };
  const l = operandOf(node.left, cx);
  const r = operandOf(node.right, cx);
  if (fast !== null && l.local !== undefined && r.value !== undefined) {
    // Fast path: a variable and a number literal (`i < n`, `x % 3`): no closure to call for
    // either, and the literal adds no label.
    const { hops, index, tdz, name } = l.local;
    const k = r.value;
    return (env) => {
      const e = hops === 0 ? env : hop(env, hops);
      const a = e.v[index];
      if (tdz && a === TDZ) throwReference(name);
      const la = e.l[index];
      if (typeof a === "number") return (st.l = la), fast(a, k);
      return general(a, la, k, BOT);
    };
  }
  if (fast !== null && r.value !== undefined) {
    const k = r.value;
    return (env) => {
      const a = left(env);
      if (typeof a === "number") return fast(a, k);
      return general(a, st.l, k, BOT);
    };
  }
  if (fast !== null && l.local !== undefined) {
    const { hops, index, tdz, name } = l.local;
    return (env) => {
      const e = hops === 0 ? env : hop(env, hops);
      const a = e.v[index];
      if (tdz && a === TDZ) throwReference(name);
      const la = e.l[index];
      const b = right(env);
      if (typeof a === "number" && typeof b === "number") {
        st.l = st.mutants.binaryDropsRight ? la : join2(la, st.l);
        return fast(a, b);
      }
      return general(a, la, b, st.l);
    };
  }
  const rightIsLiteral = node.right.type === "Literal";
  return (env) => {
    const a = left(env);
    const la = st.l;
    const b = right(env);
    // Fast path: two numbers; a literal on the right adds no label.
    if (fast !== null && typeof a === "number" && typeof b === "number") {
      if (!rightIsLiteral && !st.mutants.binaryDropsRight) st.l = join2(la, st.l);
      else st.l = la;
      return fast(a, b);
    }
    return general(a, la, b, st.l);
  };
};

/**
 * What an operand is, known at compile time: a variable of the program (read in place, its
 * label from its slot), a number literal (label bottom), or anything else.
 */
function operandOf(node: acorn.Node, cx: Cx): { local?: { hops: number; index: number; tdz: boolean; name: string }; value?: number } {
  if (node.type === "Literal" && typeof (node as acorn.Literal).value === "number") return { value: (node as acorn.Literal).value as number };
  if (node.type !== "Identifier") return {};
  const name = (node as acorn.Identifier).name;
  const r = resolve(cx.scope, name);
  if (r === null) return {};
  return { local: { hops: r.hops, index: r.binding.index, tdz: r.binding.kind === "let" || r.binding.kind === "const", name } };
}

/** The operator on two numbers, chosen once at compile time. */
function numberFastPath(op: string): ((a: number, b: number) => Val) | null {
  switch (op) {
    case "+": return (a, b) => a + b;
    case "-": return (a, b) => a - b;
    case "*": return (a, b) => a * b;
    case "/": return (a, b) => a / b;
    case "%": return (a, b) => a % b;
    case "<": return (a, b) => a < b;
    case ">": return (a, b) => a > b;
    case "<=": return (a, b) => a <= b;
    case ">=": return (a, b) => a >= b;
    case "===": case "==": return (a, b) => a === b;
    case "!==": case "!=": return (a, b) => a !== b;
    case "|": return (a, b) => a | b;
    case "&": return (a, b) => a & b;
    case "^": return (a, b) => a ^ b;
    case "<<": return (a, b) => a << b;
    case ">>": return (a, b) => a >> b;
    case ">>>": return (a, b) => a >>> b;
    case "**": return (a, b) => a ** b;
    default: return null;
  }
}

exprHandlers.LogicalExpression = (node: acorn.LogicalExpression, cx) => {
  const op = node.operator;
  const left = compileExpr(node.left, cx);
  const right = compileExpr(node.right, cx);
  const fx = effectsOf(cx, node.right);
  const inert = isInert(fx);
  return (env) => {
    const a = left(env);
    const la = st.l;
    const takeLeft = op === "&&" ? !truthy(a) : op === "||" ? truthy(a) : a !== null && a !== undefined;
    if (takeLeft) {
      if (!inert && la !== BOT && !underPc(la)) exitRegion(fx, env, la);
      st.l = la;
      return a;
    }
    // Rule: the right operand is evaluated (or not) because of the left: it runs under the left's label.
    if (la === BOT || underPc(la)) {
      const b = right(env);
      st.l = join2(st.l, la);
      return b;
    }
    const saved = enterPc(la);
    try {
      const b = right(env);
      st.l = st.mutants.logicalDropsLeft ? st.l : join2(st.l, la);
      return b;
    } finally {
      const l = st.l;
      if (!inert) exitRegion(fx, env, la);
      leavePc(saved);
      st.l = l;
    }
  };
};

exprHandlers.ConditionalExpression = (node: acorn.ConditionalExpression, cx) => {
  const test = compileExpr(node.test, cx);
  const cons = compileExpr(node.consequent, cx);
  const alt = compileExpr(node.alternate, cx);
  const fx = effectsOf(cx, node.consequent, node.alternate);
  const inert = isInert(fx);
  return (env) => {
    const c = test(env);
    const cl = st.l;
    if (cl === BOT || underPc(cl)) {
      const v = truthy(c) ? cons(env) : alt(env);
      st.l = join2(st.l, cl);
      return v;
    }
    const saved = enterPc(cl);
    try {
      const v = truthy(c) ? cons(env) : alt(env);
      st.l = st.mutants.conditionalDropsTest ? st.l : join2(st.l, cl);
      return v;
    } finally {
      const l = st.l;
      if (!inert) exitRegion(fx, env, cl);
      leavePc(saved);
      st.l = l;
    }
  };
};

exprHandlers.SequenceExpression = (node: acorn.SequenceExpression, cx) => {
  const parts = node.expressions.map((e) => compileExpr(e, cx));
  return (env) => {
    let v: Val;
    for (const p of parts) v = p(env);
    return v;
  };
};

exprHandlers.AwaitExpression = (node: acorn.AwaitExpression, cx) => compileExpr(node.argument, cx);
exprHandlers.ParenthesizedExpression = (node: { expression: acorn.Expression }, cx) => compileExpr(node.expression, cx);

/** Reads used by members and calls: `obj.key` or `obj[key]`, optional or not. */
export function compileMemberRead(node: acorn.MemberExpression, cx: Cx): Expr {
  const obj = compileExpr(node.object, cx);
  const optional = node.optional;
  if (!node.computed) {
    const name = (node.property as acorn.Identifier).name;
    return (env) => {
      const o = obj(env);
      if (o === SHORT) return SHORT;
      if (optional) {
        optionalLink(st.l);
        if (o === null || o === undefined) return shortCircuit(st.l);
      }
      return getMember(o, st.l, name, BOT);
    };
  }
  const key = compileExpr(node.property, cx);
  return (env) => {
    const o = obj(env);
    if (o === SHORT) return SHORT;
    const ol = st.l;
    if (optional) {
      optionalLink(ol);
      if (o === null || o === undefined) return shortCircuit(ol);
    }
    const k = key(env);
    return getMember(o, ol, k, st.l);
  };
}

/** Marks an optional chain that stopped at a nullish value; the chain evaluates to undefined. */
export const SHORT: Val = Symbol("short circuit") as unknown as Val;

/** Stops an optional chain; the chain's value is undefined, labelled with what decided it. */
export function shortCircuit(l: Label): Val {
  st.l = l;
  return SHORT;
}

/**
 * An optional link (`x?.` or `f?.()`) found its value labelled `l`: whether the rest of the
 * chain runs (computed keys, arguments, calls) was decided by `l`, so it runs under it. The
 * chain raises the pc until it ends, then upgrades what it may write ({@link exprHandlers.ChainExpression}).
 */
export function optionalLink(l: Label): void {
  if (l === BOT || underPc(l)) return;
  st.chainL = join2(st.chainL, l);
  enterPc(l);
}

exprHandlers.MemberExpression = (node: acorn.MemberExpression, cx) => compileMemberRead(node, cx);

exprHandlers.ChainExpression = (node: acorn.ChainExpression, cx) => {
  const inner = compileExpr(node.expression, cx);
  const fx = effectsOf(cx, node.expression);
  const inert = isInert(fx);
  return (env) => {
    const outerChain = st.chainL;
    const outerSpc = st.spc;
    st.chainL = BOT;
    let v: Val;
    let l: Label;
    try {
      v = inner(env);
      if (v === SHORT) v = undefined;
      // Rule: the chain's value was decided by every optional link it passed or stopped at.
      l = join2(st.l, st.chainL);
    } finally {
      const decided = st.chainL;
      st.chainL = outerChain;
      if (decided !== BOT) {
        const rl = st.l;
        leavePc(outerSpc);
        // Rule: what the rest of the chain may write is a branch not taken when it stopped.
        if (!inert && !underPc(decided)) exitRegion(fx, env, decided);
        st.l = rl;
      }
    }
    st.l = l;
    return v;
  };
};

export { TDZ };
