/**
 * Calls, abstractly: tool calls (checked against their policies, their results labelled from
 * their declarations), the reader, the builtins a plan uses, methods of data, and the
 * program's own functions, whose bodies are walked at each call with the arguments given.
 */
import type * as acorn from "acorn";
import { joinAllFacts, joinFacts, meetFacts, NOTHING, via, type Fact } from "./facts.js";
import { evalExpr } from "./expressions.js";
import { elementOf, readMember } from "./reads.js";
import { runFunction } from "./analyze.js";
import { checkSink } from "./sinks.js";
import { contextOf, under, type Analysis, type Flow } from "./state.js";
import { isBound, literal, ofFact, tainted, UNKNOWN, type Abs, type Scope } from "./values.js";

/** The name under which programs reach the quarantined model. */
export const QUERY = "query_ai_assistant";

/** Methods of strings and arrays that give a value whenever they return. */
const GIVES_VALUE = new Set([
  "join", "toLowerCase", "toUpperCase", "trim", "trimStart", "trimEnd", "slice", "substring", "replace", "replaceAll", "split",
  "concat", "padStart", "padEnd", "repeat", "toString", "toFixed", "includes", "indexOf", "lastIndexOf", "startsWith", "endsWith",
  "some", "every", "map", "filter", "findIndex", "findLastIndex", "flat", "flatMap", "charAt", "localeCompare", "normalize",
]);

/** Globals whose result is computed from their arguments alone. */
const FROM_ARGUMENTS = new Set(["String", "Number", "Boolean", "parseInt", "parseFloat", "isNaN", "isFinite", "encodeURIComponent", "decodeURIComponent"]);

function args(a: Analysis, n: acorn.CallExpression, scope: Scope, flow: Flow): Abs[] {
  return n.arguments.map((x) => (x.type === "SpreadElement" ? (evalExpr(a, x.argument, scope, flow), UNKNOWN) : evalExpr(a, x, scope, flow)));
}

function calleeName(n: acorn.CallExpression): string | undefined {
  return n.callee.type === "Identifier" ? n.callee.name : undefined;
}

/** The value of a call, walking whatever it runs. */
export function evalCall(a: Analysis, n: acorn.CallExpression, scope: Scope, flow: Flow): Abs {
  const name = calleeName(n);
  if (name !== undefined && !isBound(scope, name)) {
    const tool = a.tools.get(name);
    if (tool !== undefined) return toolCall(a, n, tool.name, scope, flow);
    if (name === QUERY) return readerCall(a, n, scope, flow);
    const given = args(a, n, scope, flow);
    if (FROM_ARGUMENTS.has(name)) return { ...ofFact(joinAllFacts(given.map((g) => g.fact)), true), data: true };
    return UNKNOWN;
  }
  const callee = n.callee.type === "MemberExpression" ? n.callee : undefined;
  if (callee !== undefined && callee.object.type === "Identifier" && !isBound(scope, callee.object.name) && !callee.computed && callee.property.type === "Identifier") {
    return staticCall(a, n, callee.object.name, callee.property.name, scope, flow);
  }
  if (callee !== undefined && !callee.computed && callee.property.type === "Identifier") {
    const receiver = evalExpr(a, callee.object, scope, flow);
    return methodCall(a, n, receiver, callee.property.name, scope, flow);
  }
  const f = evalExpr(a, n.callee, scope, flow);
  const given = args(a, n, scope, flow);
  if (f.fn !== undefined) return runFunction(a, f.fn, given, under(flow, f.fact), { what: `the call of ${f.fn.name}`, line: n.loc?.start.line ?? 0 });
  return UNKNOWN;
}

function toolCall(a: Analysis, n: acorn.CallExpression, toolName: string, scope: Scope, flow: Flow): Abs {
  const tool = a.tools.get(toolName)!;
  const given = args(a, n, scope, flow);
  const context = contextOf(flow);
  checkSink(a, n, tool, given[0], context, flow.via);
  const line = n.loc?.start.line ?? 0;
  // What a call returns depends on its arguments and on the flow that made it.
  const inputs = joinFacts(joinAllFacts(given.map((g) => g.deep)), context);
  const declared = tool.top === undefined || tool.top === NOTHING ? NOTHING : { ...tool.top, origins: [{ what: `the result of ${toolName}`, line, why: tool.top.origins[0]?.why }] };
  const fact = joinFacts(declared, inputs);
  return { fact, deep: fact, defined: tool.returnsValue, data: true, tool: { parts: tool.parts, path: [] } };
}

/** The answer's fields that the schema requires, when the program wrote the schema out. */
function answerFields(schema: Abs, fact: Fact): Map<string, Abs> | undefined {
  const s = schema.literal?.value as { type?: unknown; properties?: Record<string, unknown>; required?: unknown } | undefined;
  if (s === undefined || s === null || typeof s !== "object" || s.type !== "object" || !Array.isArray(s.required)) return undefined;
  const out = new Map<string, Abs>();
  for (const key of s.required) if (typeof key === "string") out.set(key, { fact, deep: fact, defined: true, data: true });
  return out;
}

function readerCall(a: Analysis, n: acorn.CallExpression, scope: Scope, flow: Flow): Abs {
  const [prompt, schema] = args(a, n, scope, flow);
  // The answer is as untrusted and as private as everything the reader was shown.
  const inputs = joinAllFacts([prompt?.deep ?? NOTHING, schema?.deep ?? NOTHING, contextOf(flow)]);
  const fact = via(inputs, { what: `the answer of ${QUERY}`, line: n.loc?.start.line ?? 0 });
  const props = schema === undefined ? undefined : answerFields(schema, fact);
  return { fact, deep: fact, defined: true, data: true, ...(props === undefined ? {} : { props, open: true }) };
}

function staticCall(a: Analysis, n: acorn.CallExpression, object: string, method: string, scope: Scope, flow: Flow): Abs {
  const given = args(a, n, scope, flow);
  const first = given[0] ?? UNKNOWN;
  const all = joinAllFacts(given.map((g) => g.fact));
  switch (`${object}.${method}`) {
    case "JSON.stringify":
      return { ...ofFact(first.deep, first.defined && first.data === true), data: true };
    case "JSON.parse":
      return { ...ofFact(first.fact), data: true };
    case "Object.keys":
    case "Object.values":
    case "Object.entries":
    case "Array.from":
      return { fact: first.fact, deep: first.fact, defined: true, data: first.data };
    case "Array.isArray":
    case "Number.isInteger":
    case "Number.isFinite":
    case "Number.isNaN":
      return { ...ofFact(first.fact, true), data: true };
    case "Promise.all":
      return first.items !== undefined ? { fact: first.fact, deep: first.deep, defined: true, items: first.items } : { ...ofFact(first.fact, true) };
  }
  if (object === "Math") return { ...ofFact(all, true), data: true };
  return UNKNOWN;
}

/** Walks a callback given to an array method: once per element, under the array's label. */
function callback(a: Analysis, n: acorn.CallExpression, cb: Abs, params: Abs[], receiver: Abs, flow: Flow, method: string): Abs | undefined {
  if (cb.fn === undefined) return undefined;
  const inner = under(under(flow, receiver.fact), cb.fact);
  return runFunction(a, cb.fn, params, inner, { what: `the callback of ${method}`, line: n.loc?.start.line ?? 0 });
}

function methodCall(a: Analysis, n: acorn.CallExpression, receiver: Abs, method: string, scope: Scope, flow: Flow): Abs {
  const own = receiver.props?.get(method);
  if (own !== undefined || receiver.data !== true) {
    // A function the program stored, or something that might be: only its own label is certain.
    const given = args(a, n, scope, flow);
    const f = own ?? readMember(a, receiver, method, NOTHING, false);
    if (f.fn !== undefined) return runFunction(a, f.fn, given, under(flow, f.fact), { what: `the call of ${method}`, line: n.loc?.start.line ?? 0 });
    return ofFact(receiver.fact);
  }
  const given = args(a, n, scope, flow);
  const el = elementOf(a, receiver);
  const index: Abs = { ...ofFact(receiver.fact, true), data: true };
  const cb = (params: Abs[]) => callback(a, n, given[0] ?? UNKNOWN, params, receiver, flow, method);
  switch (method) {
    case "forEach":
      cb([el, index, receiver]);
      return literal(undefined);
    case "map": {
      const r = cb([el, index, receiver]);
      return { fact: receiver.fact, deep: receiver.fact, defined: true, data: r?.data === true, ...(r === undefined ? {} : { elem: r }) };
    }
    case "filter": {
      const r = cb([el, index, receiver]);
      // Which elements remain depends on every answer: an element read from it carries them.
      return { fact: receiver.fact, deep: receiver.fact, defined: true, data: true, elem: tainted(el, r?.fact ?? NOTHING) };
    }
    case "find":
    case "findLast": {
      const r = cb([el, index, receiver]);
      return { ...ofFact(receiver.fact), data: true, whenObject: tainted(el, r?.fact ?? NOTHING) };
    }
    case "sort":
    case "reverse":
      cb([el, el]);
      return receiver;
    case "slice":
    case "toSorted":
    case "toReversed":
      cb([el, el]);
      return { fact: joinFacts(receiver.fact, joinAllFacts(given.map((g) => g.fact))), deep: receiver.fact, defined: true, data: true, elem: el };
    case "reduce":
    case "reduceRight": {
      const init = given[1];
      const r = cb([init ?? el, el, index, receiver]);
      const folded = init === undefined || r === undefined ? NOTHING : meetFacts(init.fact, r.fact);
      return { ...ofFact(joinFacts(receiver.fact, folded)), data: true };
    }
    case "at":
      return tainted(el, joinAllFacts(given.map((g) => g.fact)));
  }
  if (["some", "every", "findIndex", "findLastIndex", "flatMap"].includes(method)) cb([el, index, receiver]);
  // A builtin of strings and arrays: its result joins the receiver and the arguments.
  const fact = joinFacts(receiver.fact, joinAllFacts(given.map((g) => g.fact)));
  return { ...ofFact(fact, GIVES_VALUE.has(method)), data: true };
}
