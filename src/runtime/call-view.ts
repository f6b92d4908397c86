/**
 * A policy's view of a call, built from the labelled paths the interpreter reported. The
 * parts are grouped by top-level argument in one pass, so the questions policies ask (the label
 * of `to`, of everything) cost nothing more; a nested path is answered from its argument's parts,
 * and an argument asked about many times is indexed as a tree. A call with 800,000 parts is
 * decided in time linear in its parts, never quadratic.
 */
import { Label } from "../labels/index.js";
import type { LabelledPath } from "../interpreter/convert.js";
import type { ToolCall } from "../tools/types.js";
import { lookup } from "../policy/paths.js";

/** Nested questions about one argument answered by scanning before it is indexed as a tree. */
const SCANS_BEFORE_INDEX = 8;

interface Node {
  /** Labels of the parts at exactly this path. */
  own?: Label;
  /** Made only for paths with parts below them: most parts are leaves. */
  children?: Map<string, Node>;
  /** Everything at or under this path, joined; computed on first use. */
  all?: Label;
}

interface Group {
  /** Every part of the argument, joined. */
  label: Label;
  parts: LabelledPath[];
  scans: number;
  tree?: Node;
}

function topOf(path: string): string {
  const cut = path.indexOf(".");
  return cut < 0 ? path : path.slice(0, cut);
}

function indexTree(parts: readonly LabelledPath[]): Node {
  const root: Node = {};
  for (const p of parts) {
    let node = root;
    for (const key of p.path.split(".")) {
      node.children ??= new Map();
      let next = node.children.get(key);
      if (next === undefined) node.children.set(key, (next = {}));
      node = next;
    }
    node.own = node.own === undefined ? p.label : node.own.join(p.label);
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
    if (node.children !== undefined) for (const child of node.children.values()) if (child.all === undefined) stack.push(child);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i];
    let l = node.own ?? Label.trusted();
    if (node.children !== undefined) for (const child of node.children.values()) l = l.join(child.all!);
    node.all = l;
  }
  return top.all!;
}

function fromTree(tree: Node, path: string): Label {
  let node = tree;
  for (const key of path.split(".")) {
    const next = node.children?.get(key);
    if (next === undefined) break;
    node = next;
  }
  return subtreeLabel(node);
}

/** The parts at or under `path`, or under its nearest ancestor that has some. */
function byScan(parts: readonly LabelledPath[], path: string): Label | undefined {
  let probe = path;
  for (;;) {
    let found: Label | undefined;
    for (const p of parts) if (p.path === probe || p.path.startsWith(`${probe}.`)) found = found === undefined ? p.label : found.join(p.label);
    if (found !== undefined) return found;
    const cut = probe.lastIndexOf(".");
    if (cut < 0) return undefined;
    probe = probe.slice(0, cut);
  }
}

/**
 * The call as policies see it: `label(path)` joins every part at or under `path`; a path with
 * no part gives the label of its nearest ancestor that has one, and the empty path (or none)
 * the label of all arguments. `shape(path)` is an object's own part: which keys it has.
 */
export function toolCallView(tool: string, args: Record<string, unknown>, parts: LabelledPath[], context: Label): ToolCall {
  let all = Label.trusted();
  // The root's own part: which arguments the call has.
  let rootShape = Label.trusted();
  const groups = new Map<string, Group>();
  for (const p of parts) {
    all = all.join(p.label);
    if (p.path === "") {
      rootShape = rootShape.join(p.label);
      continue;
    }
    const top = topOf(p.path);
    const group = groups.get(top);
    if (group === undefined) groups.set(top, { label: p.label, parts: [p], scans: 0 });
    else {
      group.label = group.label.join(p.label);
      group.parts.push(p);
    }
  }
  const label = (path?: string): Label => {
    if (path === undefined || path === "") return all;
    const top = topOf(path);
    // An empty first key cannot be told from the root in a dotted path: answer for the root.
    if (top === "") return all;
    const group = groups.get(top);
    if (group === undefined) return all;
    if (!path.includes(".")) return group.label;
    if (group.tree === undefined && ++group.scans > SCANS_BEFORE_INDEX) group.tree = indexTree(group.parts);
    return group.tree !== undefined ? fromTree(group.tree, path) : byScan(group.parts, path) ?? group.label;
  };
  const shape = (path?: string): Label => {
    if (path === undefined || path === "") return rootShape;
    const at = lookup(args, path);
    if (!at.found || at.value === null || typeof at.value !== "object" || Array.isArray(at.value)) return label(path);
    // An object's own part is its shape; a view made without one answers for everything under it.
    return ownLabel(groups.get(topOf(path))?.parts ?? [], path) ?? label(path);
  };
  return { tool, args, label, context, shape, parts: parts.filter((p) => p.path !== "").map((p) => ({ path: p.path, label: p.label })) };
}

/** The join of the parts at exactly `path`, if there are any. */
function ownLabel(parts: readonly LabelledPath[], path: string): Label | undefined {
  let found: Label | undefined;
  for (const p of parts) if (p.path === path) found = found === undefined ? p.label : found.join(p.label);
  return found;
}
