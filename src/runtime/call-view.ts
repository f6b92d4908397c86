/**
 * A policy's view of a call, built from the labelled paths the interpreter reported. The
 * paths are indexed once, so `call.label(path)` costs the depth of the path, not the number of
 * parts: a call with 800,000 parts is decided as fast as one with eight.
 */
import { Label } from "../labels/index.js";
import type { LabelledPath } from "../interpreter/convert.js";
import type { ToolCall } from "../tools/types.js";

interface Node {
  /** Labels of the parts at exactly this path. */
  own: Label;
  children: Map<string, Node>;
  /** Everything at or under this path, joined; computed on first use. */
  all?: Label;
}

function newNode(): Node {
  return { own: Label.trusted(), children: new Map() };
}

function index(parts: readonly LabelledPath[]): Node {
  const root = newNode();
  for (const p of parts) {
    let node = root;
    if (p.path !== "") {
      for (const key of p.path.split(".")) {
        let next = node.children.get(key);
        if (next === undefined) node.children.set(key, (next = newNode()));
        node = next;
      }
    }
    node.own = node.own.join(p.label);
  }
  return root;
}

/** The join of a subtree, without recursion: paths can be deep. */
function subtreeLabel(top: Node): Label {
  if (top.all !== undefined) return top.all;
  const order: Node[] = [];
  const stack = [top];
  while (stack.length > 0) {
    const node = stack.pop()!;
    order.push(node);
    for (const child of node.children.values()) if (child.all === undefined) stack.push(child);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i];
    let l = node.own;
    for (const child of node.children.values()) l = l.join(child.all!);
    node.all = l;
  }
  return top.all!;
}

/**
 * The call as policies see it: `label(path)` joins every part at or under `path`; a path with
 * no part gives the label of its nearest ancestor that has one, and the empty path (or none)
 * the label of all arguments.
 */
export function toolCallView(tool: string, args: Record<string, unknown>, parts: LabelledPath[], context: Label): ToolCall {
  const root = index(parts);
  const label = (path?: string): Label => {
    if (path === undefined || path === "") return subtreeLabel(root);
    let node = root;
    for (const key of path.split(".")) {
      const next = node.children.get(key);
      if (next === undefined) break;
      node = next;
    }
    return subtreeLabel(node);
  };
  return { tool, args, label, context, parts: parts.filter((p) => p.path !== "").map((p) => ({ path: p.path, label: p.label })) };
}
