import type * as acorn from "acorn";
import * as walk from "acorn-walk";
import { ProgramError } from "./errors.js";

/** Deepest syntax tree accepted; deeper programs are refused before they can exhaust the stack. */
export const MAX_TREE_DEPTH = 400;

/** Names a program may not use at all, with what to write instead. */
const FORBIDDEN_NAMES = new Map<string, string>(Object.entries({
  ["__proto__" as string]: "objects have no prototype here; use a plain property name",
  prototype: "there are no prototypes; use plain objects and functions",
  constructor: "constructors are not reachable; use plain objects and functions",
  eval: "code cannot be evaluated at run time; write the code directly",
  Function: "functions cannot be built from strings; write an arrow function",
  arguments: "use rest parameters: `(...args) => ...`",
  globalThis: "there is no global object; use variables",
  window: "there is no global object; use variables",
  process: "there is no host process; call the tools you were given",
  require: "modules cannot be loaded; call the tools you were given",
}));

/** Constructors that `new` may call: names, and `Namespace.Name` for the Intl formatters. */
export const NEWABLE = new Set(["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "Date", "Array", "Map", "Set", "Intl.NumberFormat", "Intl.DateTimeFormat"]);

/** What `new` may construct, in words, for error messages. */
export const NEWABLE_TEXT = "Error types, Date, Array, Map, Set and the Intl formatters";

/** The constructor a `new` names (`Date`, `Intl.NumberFormat`), or undefined for any other form. */
export function newCallee(node: acorn.NewExpression): string | undefined {
  const c = node.callee;
  if (c.type === "Identifier") return c.name;
  if (c.type === "MemberExpression" && !c.computed && c.object.type === "Identifier" && c.property.type === "Identifier") return `${c.object.name}.${c.property.name}`;
  return undefined;
}

/** Node types outside the subset, with the reason and what to write instead. */
const UNSUPPORTED = new Map<string, string>(Object.entries({
  ClassDeclaration: "classes are not supported; use plain objects and functions",
  ClassExpression: "classes are not supported; use plain objects and functions",
  ThisExpression: "`this` is not supported; pass the object as an argument",
  Super: "`super` is not supported; use plain objects and functions",
  WithStatement: "`with` is not supported; name the object explicitly",
  ImportExpression: "modules cannot be imported; call the tools you were given",
  ImportDeclaration: "modules cannot be imported; call the tools you were given",
  ExportNamedDeclaration: "nothing can be exported; the plan's last expression is its result",
  ExportDefaultDeclaration: "nothing can be exported; the plan's last expression is its result",
  ExportAllDeclaration: "nothing can be exported; the plan's last expression is its result",
  YieldExpression: "generators are not supported; build an array instead",
  MetaProperty: "`new.target` and `import.meta` are not supported",
  DebuggerStatement: "`debugger` is not supported; remove it",
  PrivateIdentifier: "private fields are not supported; use plain objects",
  PropertyDefinition: "class fields are not supported; use plain objects",
  StaticBlock: "classes are not supported; use plain objects and functions",
}));

/** True for the tag `String.raw`, the one tagged template the language has. */
export function isStringRaw(tag: acorn.Node): boolean {
  const t = tag as acorn.AnyNode;
  return t.type === "MemberExpression" && !t.computed && t.object.type === "Identifier" && t.object.name === "String" && t.property.type === "Identifier" && t.property.name === "raw";
}

function fail(node: acorn.Node, message: string): never {
  const loc = node.loc?.start ?? { line: 1, column: 0 };
  throw new ProgramError("unsupported", message, loc.line, loc.column + 1);
}

function checkName(node: acorn.Node, name: string): void {
  const why = FORBIDDEN_NAMES.get(name);
  if (why !== undefined) fail(node, `\`${name}\` is not supported: ${why}`);
}

function propertyName(node: acorn.AnyNode, computed: boolean): string | undefined {
  if (!computed && node.type === "Identifier") return node.name;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  return undefined;
}

function checkNode(node: acorn.AnyNode, ancestors: acorn.Node[]): void {
  if (ancestors.length > MAX_TREE_DEPTH) fail(node, `the program nests more than ${MAX_TREE_DEPTH} levels deep; split it into smaller functions`);
  const why = UNSUPPORTED.get(node.type);
  if (why !== undefined) fail(node, `${node.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()} is not supported: ${why}`);
  switch (node.type) {
    case "Identifier":
      checkName(node, node.name);
      break;
    case "MemberExpression": {
      const name = propertyName(node.property, node.computed);
      if (name !== undefined) checkName(node.property, name);
      break;
    }
    case "Property": {
      if (node.kind !== "init") fail(node, "getters and setters are not supported; store the value in a plain property");
      const name = propertyName(node.key, node.computed);
      if (name !== undefined) checkName(node.key, name);
      break;
    }
    case "FunctionDeclaration":
    case "FunctionExpression":
    case "ArrowFunctionExpression":
      if (node.generator) fail(node, "generators are not supported; build and return an array instead");
      break;
    case "NewExpression":
      if (!NEWABLE.has(newCallee(node) ?? "")) {
        fail(node, `\`new\` is only supported for ${NEWABLE_TEXT}; use object literals, arrays and functions instead`);
      }
      break;
    case "TaggedTemplateExpression":
      if (!isStringRaw(node.tag)) fail(node, "tagged templates other than String.raw are not supported; call the function on a plain template literal");
      break;
    case "Literal":
      if (typeof node.value === "bigint" || (node as { bigint?: string }).bigint !== undefined) {
        fail(node, "BigInt literals are not supported; use numbers");
      }
      break;
    case "VariableDeclaration":
      if (node.kind !== "var" && node.kind !== "let" && node.kind !== "const") fail(node, `\`${node.kind}\` declarations are not supported; use const or let`);
      break;
    case "BinaryExpression":
      if (node.operator === "instanceof" && node.right.type !== "Identifier") {
        fail(node.right, "`instanceof` needs a builtin name on its right (Error, Array, Object, Date)");
      }
      break;
  }
}

/**
 * Checks a parsed plan against the supported subset. Throws a {@link ProgramError} naming the
 * line, the column, what is not supported and what to write instead.
 */
export function checkProgram(program: acorn.Program): void {
  try {
    walk.fullAncestor(program, (node, _state, ancestors) => checkNode(node as acorn.AnyNode, ancestors));
  } catch (err) {
    if (err instanceof RangeError) throw new ProgramError("unsupported", "the program nests too deeply; split it into smaller functions", 1, 1);
    throw err;
  }
}
