/**
 * One pass over the whole program before the analysis: which names are ever assigned again
 * (their values are not tracked), and whether the program writes into objects in ways that
 * could change a part or field the analysis would rely on. A write can replace a part's label
 * with a weaker one, so facts about parts and fields hold only when no such write can reach
 * them.
 */
import type * as acorn from "acorn";
import * as walk from "acorn-walk";
import { patternNames } from "../language/index.js";

/** What the pre-pass found. */
export interface Prescan {
  /** Names assigned after their declaration anywhere in the program. */
  readonly reassigned: ReadonlySet<string>;
  /** Names bound to a fresh object or array literal that the program writes into: their fields are not tracked. */
  readonly writtenLiterals: ReadonlySet<string>;
  /**
   * Some write the pass cannot place in a literal of its own name (through another name, a
   * parameter, a nested path): it could reach any object, a tool result or a literal bound to
   * another name, so neither declared parts nor the fields of any object are tracked.
   */
  readonly unsafeWrites: boolean;
}

const MUTATORS = new Set(["push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"]);

/** The variable at the root of a member chain, and how many property steps lead to the written object. */
function rootOf(node: acorn.Node): { name: string; depth: number } | undefined {
  let n = node as acorn.AnyNode;
  let depth = 0;
  while (n.type === "MemberExpression" || n.type === "ChainExpression") {
    if (n.type === "ChainExpression") n = n.expression as acorn.AnyNode;
    else (n = n.object as acorn.AnyNode), depth++;
  }
  return n.type === "Identifier" ? { name: n.name, depth } : undefined;
}

export function prescan(program: acorn.Program): Prescan {
  const reassigned = new Set<string>();
  const literalNames = new Set<string>();
  const otherNames = new Set<string>();
  const writes: Array<{ name: string; depth: number } | undefined> = [];
  const assignTarget = (target: acorn.Node) => {
    const t = target as acorn.AnyNode;
    if (t.type === "MemberExpression") return void writes.push(rootOf(t.object));
    for (const name of patternNames(t as acorn.Pattern)) reassigned.add(name);
    // A destructuring assignment may write into objects too: `({ a: obj.x } = src)`.
    walk.full(t, (inner) => {
      if ((inner as acorn.AnyNode).type === "MemberExpression") writes.push(undefined);
    });
  };
  walk.full(program, (node) => {
    const n = node as acorn.AnyNode;
    switch (n.type) {
      case "VariableDeclarator":
        for (const name of patternNames(n.id)) {
          const fresh = n.id.type === "Identifier" && (n.init?.type === "ObjectExpression" || n.init?.type === "ArrayExpression");
          (fresh ? literalNames : otherNames).add(name);
        }
        break;
      case "AssignmentExpression":
        assignTarget(n.left);
        break;
      case "UpdateExpression":
        assignTarget(n.argument);
        break;
      case "ForInStatement":
      case "ForOfStatement":
        if (n.left.type !== "VariableDeclaration") assignTarget(n.left);
        break;
      case "UnaryExpression":
        if (n.operator === "delete" && n.argument.type === "MemberExpression") writes.push(rootOf(n.argument.object));
        break;
      case "CallExpression": {
        const callee = n.callee.type === "ChainExpression" ? n.callee.expression : n.callee;
        if (callee.type !== "MemberExpression") break;
        const method = !callee.computed && callee.property.type === "Identifier" ? callee.property.name : undefined;
        if (method !== undefined && MUTATORS.has(method)) writes.push(rootOf(callee.object));
        const isAssign = method === "assign" && callee.object.type === "Identifier" && callee.object.name === "Object";
        if (isAssign && n.arguments[0] !== undefined) writes.push(rootOf(n.arguments[0]));
        break;
      }
    }
  });
  // A write is harmless to the tracked facts only when it goes straight into a literal the
  // program made and never rebinds: nothing else can be that object.
  const fresh = (name: string) => literalNames.has(name) && !otherNames.has(name) && !reassigned.has(name);
  const writtenLiterals = new Set<string>();
  let unsafeWrites = false;
  for (const w of writes) {
    if (w !== undefined && w.depth === 0 && fresh(w.name)) writtenLiterals.add(w.name);
    else unsafeWrites = true;
  }
  return { reassigned, writtenLiterals, unsafeWrites };
}
