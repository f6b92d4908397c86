/**
 * Statements, abstractly, and the walk of a whole program. Branches and loops run their bodies
 * under the decision that chose them; a region that may return (or break) raises the control
 * flow of what follows it in its function (or loop), as the interpreter's jumps do. Only
 * structure decides here: a guard whose failing side throws adds nothing, since whether it
 * taints what follows is not the same in every version of the interpreter.
 */
import type * as acorn from "acorn";
import { DEFAULT_LIMITS } from "../interpreter/state.js";
import { joinFacts, NOTHING, type Fact } from "./facts.js";
import { evalExpr } from "./expressions.js";
import { elementOf, readMember } from "./reads.js";
import { contextOf, under, type Analysis, type Flow, type FnFrame, type LoopFrame, type ViaStep } from "./state.js";
import { childScope, literal, meetAbs, meetAll, ofFact, tainted, UNKNOWN, type Abs, type FnValue, type Scope } from "./values.js";

const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);
const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** Whether a region may leave by a return, or by a break or continue that ends outside it. */
export function jumpsOut(region: acorn.Node): { returns: boolean; breaks: boolean } {
  const out = { returns: false, breaks: false };
  const labels = new Set<string>();
  const visit = (node: unknown, loops: number, switches: number): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((x) => visit(x, loops, switches));
    const n = node as acorn.AnyNode;
    if (typeof n.type !== "string") return;
    if (FUNCTIONS.has(n.type)) return;
    if (n.type === "LabeledStatement") labels.add(n.label.name);
    if (n.type === "ReturnStatement") out.returns = true;
    if (n.type === "BreakStatement" || n.type === "ContinueStatement") {
      if (n.label !== null && n.label !== undefined) {
        if (!labels.has(n.label.name)) out.breaks = true;
      } else if (n.type === "BreakStatement" ? loops + switches === 0 : loops === 0) out.breaks = true;
    }
    const inLoop = LOOPS.has(n.type) ? 1 : 0;
    const inSwitch = n.type === "SwitchStatement" ? 1 : 0;
    for (const [k, v] of Object.entries(n)) if (k !== "loc" && k !== "type") visit(v, loops + inLoop, switches + inSwitch);
  };
  visit(region, 0, 0);
  return out;
}

/** After a region decided by `decision`: its possible jumps raise what follows until their target ends. */
function afterRegion(region: acorn.Node | acorn.Node[], decision: Fact, flow: Flow): void {
  if (decision === NOTHING) return;
  const nodes = Array.isArray(region) ? region : [region];
  const j = nodes.map(jumpsOut).reduce((x, y) => ({ returns: x.returns || y.returns, breaks: x.breaks || y.breaks }), { returns: false, breaks: false });
  if (j.returns && flow.fn !== undefined) flow.fn.ret = joinFacts(flow.fn.ret, decision);
  const loop = flow.loops.at(-1);
  if (j.breaks && loop !== undefined) loop.brk = joinFacts(loop.brk, decision);
}

/** True unless `value` is certainly a primitive the program wrote (which no write can change). */
function holdsObject(value: Abs): boolean {
  return value.literal === undefined || (value.literal.value !== null && typeof value.literal.value === "object");
}

/**
 * What stays certain of an object some write may have changed: its own label, and the
 * function it is (functions are not written into); not its fields, elements or parts.
 */
function withoutContents(value: Abs): Abs {
  return { fact: value.fact, deep: value.fact, defined: value.defined, data: value.data, ...(value.fn === undefined ? {} : { fn: value.fn }) };
}

/** Binds the names of a pattern to the parts of `value`. */
function bind(a: Analysis, pattern: acorn.Pattern, value: Abs, scope: Scope, flow: Flow): void {
  switch (pattern.type) {
    case "Identifier": {
      const name = pattern.name;
      let v = value;
      if (a.pre.reassigned.has(name)) v = UNKNOWN;
      else if (a.pre.writtenLiterals.has(name) || (a.pre.unsafeWrites && holdsObject(value))) v = withoutContents(value);
      scope.names.set(name, v);
      return;
    }
    case "ObjectPattern":
      for (const p of pattern.properties) {
        if (p.type === "RestElement") bind(a, p.argument, ofFact(value.fact), scope, flow);
        else {
          const key = !p.computed && p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : undefined;
          bind(a, p.value, readMember(a, value, key, NOTHING, false), scope, flow);
        }
      }
      return;
    case "ArrayPattern":
      pattern.elements.forEach((e, i) => {
        if (e === null) return;
        if (e.type === "RestElement") bind(a, e.argument, ofFact(value.fact), scope, flow);
        else bind(a, e, readMember(a, value, String(i), NOTHING, false), scope, flow);
      });
      return;
    case "AssignmentPattern":
      bind(a, pattern.left, meetAbs(value, evalExpr(a, pattern.right, scope, flow)), scope, flow);
      return;
    default:
      return;
  }
}

function hoist(a: Analysis, body: readonly acorn.Node[], scope: Scope): void {
  for (const s of body) {
    const n = s as acorn.AnyNode;
    if (n.type === "FunctionDeclaration" && n.id) {
      const v: Abs = { ...UNKNOWN, defined: true, fn: { node: n, scope, name: n.id.name } };
      scope.names.set(n.id.name, a.pre.reassigned.has(n.id.name) ? UNKNOWN : v);
    }
  }
}

function block(a: Analysis, body: readonly acorn.Node[], scope: Scope, flow: Flow): void {
  hoist(a, body, scope);
  for (const s of body) statement(a, s, scope, flow);
}

function loopFlow(flow: Flow, decision: Fact): { flow: Flow; frame: LoopFrame } {
  const frame: LoopFrame = { brk: NOTHING };
  return { flow: { ...under(flow, decision), loops: [...flow.loops, frame] }, frame };
}

function statement(a: Analysis, node: acorn.Node, scope: Scope, flow: Flow): void {
  const n = node as acorn.AnyNode;
  switch (n.type) {
    case "ExpressionStatement":
      evalExpr(a, n.expression, scope, flow);
      return;
    case "VariableDeclaration":
      for (const d of n.declarations) {
        const v = d.init ? evalExpr(a, d.init, scope, flow) : literal(undefined);
        // A variable stores its value with the label of the flow that stored it.
        bind(a, d.id, tainted(v, contextOf(flow)), scope, flow);
      }
      return;
    case "BlockStatement":
      block(a, n.body, childScope(scope), flow);
      return;
    case "IfStatement": {
      const t = evalExpr(a, n.test, scope, flow);
      const inner = under(flow, t.fact);
      statement(a, n.consequent, childScope(scope), inner);
      if (n.alternate) statement(a, n.alternate, childScope(scope), inner);
      afterRegion(n.alternate ? [n.consequent, n.alternate] : n.consequent, t.fact, flow);
      return;
    }
    case "ForOfStatement":
    case "ForInStatement": {
      const it = evalExpr(a, n.right, scope, flow);
      const { flow: body } = loopFlow(flow, it.fact);
      const s = childScope(scope);
      const value = n.type === "ForOfStatement" ? elementOf(a, it) : { ...ofFact(it.fact, true), data: true };
      if (n.left.type === "VariableDeclaration") bind(a, n.left.declarations[0].id, value, s, body);
      statement(a, n.body, s, body);
      return;
    }
    case "WhileStatement": {
      const t = evalExpr(a, n.test, scope, flow);
      statement(a, n.body, childScope(scope), loopFlow(flow, t.fact).flow);
      return;
    }
    case "DoWhileStatement":
      statement(a, n.body, childScope(scope), loopFlow(flow, NOTHING).flow);
      evalExpr(a, n.test, scope, flow);
      return;
    case "ForStatement": {
      const s = childScope(scope);
      if (n.init) n.init.type === "VariableDeclaration" ? statement(a, n.init, s, flow) : evalExpr(a, n.init, s, flow);
      const t = n.test ? evalExpr(a, n.test, s, flow) : undefined;
      const { flow: body } = loopFlow(flow, t?.fact ?? NOTHING);
      statement(a, n.body, childScope(s), body);
      if (n.update) evalExpr(a, n.update, s, body);
      return;
    }
    case "SwitchStatement": {
      const d = evalExpr(a, n.discriminant, scope, flow);
      const { flow: body } = loopFlow(flow, d.fact);
      const s = childScope(scope);
      for (const c of n.cases) if (c.test) evalExpr(a, c.test, s, flow);
      for (const c of n.cases) block(a, c.consequent, s, body);
      afterRegion(n.cases.flatMap((c) => c.consequent), d.fact, { ...flow, loops: flow.loops });
      return;
    }
    case "TryStatement": {
      block(a, n.block.body, childScope(scope), flow);
      if (n.handler) {
        const s = childScope(scope);
        if (n.handler.param) bind(a, n.handler.param, UNKNOWN, s, flow);
        block(a, n.handler.body.body, s, flow);
      }
      if (n.finalizer) block(a, n.finalizer.body, childScope(scope), flow);
      return;
    }
    case "ReturnStatement": {
      const v = n.argument ? evalExpr(a, n.argument, scope, flow) : literal(undefined);
      // What a function returns carries the flow of its return.
      flow.fn?.returns.push(tainted(v, contextOf(flow)));
      return;
    }
    case "ThrowStatement":
      evalExpr(a, n.argument, scope, flow);
      return;
    case "LabeledStatement":
      statement(a, n.body, scope, flow);
      return;
    case "FunctionDeclaration":
      return;
    default:
      return;
  }
}

/** True when the last statement of a body leaves it, so it never ends by falling through. */
function endsWithJump(body: readonly acorn.Node[]): boolean {
  const last = body.at(-1) as acorn.AnyNode | undefined;
  return last !== undefined && (last.type === "ReturnStatement" || last.type === "ThrowStatement");
}

/**
 * Walks a function of the program for one call: its parameters bound to the arguments, under
 * the flow of the call. Returns what every return gives; a call already being walked (recursion),
 * nested deeper than the interpreter runs calls, or past the walk budget is not followed (the
 * walk recurses on the host's stack, and a must-analysis may always stop short).
 */
export function runFunction(a: Analysis, fn: FnValue, args: readonly Abs[], flow: Flow, step: ViaStep): Abs {
  if (a.stack.length >= DEFAULT_LIMITS.callDepth || a.budget <= 0 || a.stack.some((f) => f.node === fn.node)) return UNKNOWN;
  a.budget--;
  a.stack.push(fn);
  try {
    const scope = childScope(fn.scope);
    const frame: FnFrame = { returns: [], ret: NOTHING };
    const inner: Flow = { pc: contextOf(flow), fn: frame, loops: [], via: [...flow.via, step] };
    fn.node.params.forEach((p, i) => bind(a, p, args[i] ?? literal(undefined), scope, inner));
    if (fn.node.body.type !== "BlockStatement") return evalExpr(a, fn.node.body, scope, inner);
    block(a, fn.node.body.body, scope, inner);
    const results = endsWithJump(fn.node.body.body) ? frame.returns : [...frame.returns, literal(undefined)];
    return meetAll(results);
  } finally {
    a.stack.pop();
  }
}

/** Walks a whole program from the top. */
export function analyzeProgram(a: Analysis, program: acorn.Program): void {
  const flow: Flow = { pc: NOTHING, fn: undefined, loops: [], via: [] };
  block(a, program.body, childScope(undefined), flow);
}
