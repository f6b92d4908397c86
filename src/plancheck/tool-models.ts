/**
 * Tools as the check models them, from their declarations alone: the declared label of the
 * result and of its parts, and what the policy requires. Templates (`{from}`) are values only
 * the run knows, so a reader list that holds one says only that the value is private.
 */
import { defaultToolPolicy, requirementsOf } from "../policy/index.js";
import { hasTemplate, patternSegments, type LabelTemplate } from "../tools/output.js";
import { labelIsDeclared, type Tool } from "../tools/types.js";
import { declaredFact, NOTHING, type Fact, type Origin } from "./facts.js";
import type { ToolModel } from "./state.js";
import type { PartFact } from "./values.js";

function readersOf(t: LabelTemplate): "public" | "unknown-private" | readonly string[] {
  if (t.readers === undefined || t.readers === "public") return "public";
  return t.readers.some(hasTemplate) ? "unknown-private" : t.readers;
}

function why(t: LabelTemplate, whole: boolean): string | undefined {
  const parts: string[] = [];
  if (t.trusted !== true && (whole || t.trusted === false)) parts.push("declared untrusted");
  if (readersOf(t) !== "public") parts.push("declared private");
  return parts.length === 0 ? undefined : parts.join(" and ");
}

function partFact(tool: string, pattern: string, t: LabelTemplate): Fact {
  const origin: Origin = { what: `\`${pattern}\` of the result of ${tool}`, line: 0, why: why(t, false) };
  return declaredFact({ trusted: t.trusted !== false, readers: readersOf(t) }, origin);
}

/**
 * What is certain of the whole result's label: everything the declaration says when it alone
 * labels the result; with a label function of the tool's own, only what it states outright.
 */
function topFact(tool: Tool<any, any>): Fact | undefined {
  const output = tool.output;
  if (output === undefined) return undefined;
  const exact = labelIsDeclared(tool);
  const trusted = exact ? output.trusted === true : output.trusted !== false;
  const stated: LabelTemplate = { trusted, readers: output.readers };
  return declaredFact({ trusted, readers: readersOf(output) }, { what: `the result of ${tool.name}`, line: 0, why: why(stated, exact) });
}

/** The check's model of one tool. */
export function toolModel(tool: Tool<any, any>): ToolModel {
  const output = tool.output;
  const top = topFact(tool);
  const parts: PartFact[] = Object.entries(output?.parts ?? {})
    .map(([p, t]) => ({ pattern: patternSegments(p), fact: partFact(tool.name, p, t) }))
    .filter((p) => p.fact !== NOTHING);
  const policy = tool.policy ?? defaultToolPolicy({ sideEffect: tool.sideEffect });
  return { name: tool.name, sideEffect: tool.sideEffect, top, parts, requirements: requirementsOf(policy).known, returnsValue: tool.returns !== undefined };
}
