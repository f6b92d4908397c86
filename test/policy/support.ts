/**
 * Builds ToolCall objects the way the runtime will present them, from a tree of plain values
 * where any node may be wrapped in labeled(value, label). A node's label is its own joined
 * with every container's on the way to it; unlabelled parts are the program's literals.
 */
import { Label, isLabeled, joinAll, labeled } from "../../src/labels/index.js";
import type { ToolCall } from "../../src/tools/types.js";

type Part = { path: string; label: Label };

function child(path: string, key: string | number): string {
  return path === "" ? String(key) : `${path}.${key}`;
}

function walk(node: unknown, path: string, inherited: Label, parts: Part[]): unknown {
  if (isLabeled(node)) return walk(node.value, path, inherited.join(node.label), parts);
  if (Array.isArray(node) && node.length > 0) return node.map((v, i) => walk(v, child(path, i), inherited, parts));
  if (node !== null && typeof node === "object" && Object.keys(node).length > 0) {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, child(path, k), inherited, parts)]));
  }
  if (path !== "") parts.push({ path, label: inherited });
  return node;
}

function exists(args: unknown, path: string): boolean {
  let v: unknown = args;
  for (const key of path.split(".")) {
    if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, key)) return false;
    v = (v as Record<string, unknown>)[key];
  }
  return true;
}

/** A ToolCall for `tool` with the given argument tree and control-flow label. */
export function makeCall(tool: string, tree: Record<string, unknown>, options: { context?: Label } = {}): ToolCall {
  const parts: Part[] = [];
  const args = walk(tree, "", Label.trusted(), parts) as Record<string, unknown>;
  const label = (path?: string): Label => {
    if (path === undefined) return joinAll(parts.map((p) => p.label));
    const keys = path.split(".");
    while (keys.length > 0 && !exists(args, keys.join("."))) keys.pop();
    const at = keys.join(".");
    const inside = parts.filter((p) => at === "" || p.path === at || p.path.startsWith(at + "."));
    return joinAll(inside.map((p) => p.label));
  };
  return { tool, args, label, context: options.context ?? Label.trusted(), parts };
}

/** Untrusted text from email #n of `sender`, as the inbox tool would label it. */
export function fromEmail(sender: string, n = 3): Label {
  return Label.untrusted(`get_email#${n}:email:${sender}`);
}

/** A trusted value only `readers` may read, from `source`. */
export function privateTo(readers: string[], source = "file:notes.txt"): Label {
  return Label.of({ readers, trusted: true, sources: [source] });
}

/** An untrusted value only `readers` may read, from `source`. */
export function privateUntrusted(readers: string[], source: string): Label {
  return Label.of({ readers, trusted: false, sources: [source] });
}

export { Label, labeled };
