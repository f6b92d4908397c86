/**
 * Reading a part of an abstract value: a field the program wrote, an element, or a place inside
 * a declared tool result, whose declared parts add their labels. Every read carries the label of
 * the value read from, as the interpreter's reads do.
 */
import { joinFacts, NOTHING, type Fact } from "./facts.js";
import type { Analysis } from "./state.js";
import { ofFact, tainted, meetAll, type Abs } from "./values.js";

function matches(pattern: readonly string[], path: readonly string[]): boolean {
  return pattern.length === path.length && pattern.every((s, i) => s === "*" || s === path[i]);
}

/** The place `segment` below a tool-result place; `"*"` is a position the program did not write. */
function toolChild(a: Analysis, v: Abs, segment: string): Abs {
  const tool = v.tool!;
  const path = [...tool.path, segment];
  let part: Fact = NOTHING;
  // A write could have replaced a part with a weaker one, so parts count only without writes.
  if (!a.pre.unsafeWrites) for (const p of tool.parts) if (matches(p.pattern, path)) part = joinFacts(part, p.fact);
  const fact = joinFacts(v.fact, part);
  return { fact, deep: fact, defined: false, data: true, tool: { parts: tool.parts, path } };
}

/** What reading any element of `v` gives. */
export function elementOf(a: Analysis, v: Abs): Abs {
  const obj = v.whenObject ?? v;
  if (obj.elem !== undefined) return tainted(obj.elem, v.fact);
  if (obj.items !== undefined && obj.items.length > 0) return tainted(meetAll(obj.items), v.fact);
  if (obj.tool !== undefined) return tainted(toolChild(a, obj, "*"), v.fact);
  return { ...ofFact(v.fact), data: obj.data };
}

/**
 * Reads `key` of `v` (undefined: a key the program computes), through a key labelled `keyFact`.
 * An optional read (`v?.key`) may give undefined with the label of `v` only.
 */
export function readMember(a: Analysis, v: Abs, key: string | undefined, keyFact: Fact, optional: boolean): Abs {
  const base = joinFacts(v.fact, keyFact);
  if (optional) return ofFact(base);
  const obj = v.whenObject ?? v;
  if (key !== undefined && obj.props !== undefined && obj.props.has(key)) return tainted(obj.props.get(key)!, base);
  const index = key !== undefined && /^\d+$/.test(key) ? Number(key) : undefined;
  if (index !== undefined && obj.items !== undefined && index < obj.items.length) return tainted(obj.items[index], base);
  // An array's length is no element of it, whatever `*` patterns its tool declares.
  if (key === "length") return { ...ofFact(base), data: true };
  if (obj.tool !== undefined) return tainted(toolChild(a, obj, key ?? "*"), base);
  if ((key === undefined || index !== undefined) && (obj.elem !== undefined || obj.items !== undefined)) return tainted(elementOf(a, obj), base);
  return { ...ofFact(base), data: obj.data };
}
