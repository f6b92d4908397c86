import type * as acorn from "acorn";

/** Names a binding pattern declares: `a`, `{a, b: [c]}`, `...rest`, with defaults. */
export function patternNames(node: acorn.Pattern, out: string[] = []): string[] {
  switch (node.type) {
    case "Identifier":
      out.push(node.name);
      break;
    case "ObjectPattern":
      for (const p of node.properties) patternNames(p.type === "RestElement" ? p.argument : p.value, out);
      break;
    case "ArrayPattern":
      for (const e of node.elements) if (e) patternNames(e, out);
      break;
    case "RestElement":
      patternNames(node.argument, out);
      break;
    case "AssignmentPattern":
      patternNames(node.left, out);
      break;
    default:
      break;
  }
  return out;
}
