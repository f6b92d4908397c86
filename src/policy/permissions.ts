/**
 * The permission engine: allow, ask or deny rules over globs of a tool and its target.
 * Where several rules match, the strictest wins whatever their order; where none matches,
 * the default layer (e.g. {@link riskDefaults}) decides, and without one the call is denied.
 */
import { thrownText } from "../interpreter/convert.js";
import type { Decision, ToolCall } from "../tools/types.js";
import { combineDecisions, decisionOf, stricter } from "./decisions.js";
import { clip, listText } from "./describe.js";
import { compileRule, isLiteralTool, type CompiledRule, type PermissionRuleInput } from "./patterns.js";
import type { Effect } from "./types.js";

/** Gives the target(s) of a call from its arguments: a string, or an array whose every item must be allowed. */
export type TargetExtractor = (args: Record<string, unknown>) => unknown;

/** Options of {@link createPermissions}. */
export interface PermissionOptions {
  /** Per-tool target extractors, e.g. `{ send_email: (args) => args.to }`. */
  targets?: Record<string, TargetExtractor>;
  /** Rules consulted only for targets no explicit rule matches, e.g. from {@link riskDefaults}. */
  defaults?: readonly PermissionRuleInput[];
}

/** A permission engine made by {@link createPermissions}. */
export interface Permissions {
  /** Decides a call; the reason names the rule(s) that decided it. */
  decide(call: Pick<ToolCall, "tool" | "args">): Decision;
  /** The explicit rules, compiled. */
  readonly rules: readonly CompiledRule[];
  /** The default rules, compiled. */
  readonly defaults: readonly CompiledRule[];
}

const VERB: Record<Effect, string> = { allow: "is allowed by", ask: "needs approval under", deny: "is denied by" };

function compileAll(rules: readonly PermissionRuleInput[] | undefined, where: string): CompiledRule[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) throw new TypeError(`createPermissions: ${where} must be an array of rules`);
  return rules.map(compileRule);
}

function checkTargets(rules: readonly CompiledRule[], targets: Record<string, TargetExtractor>): void {
  for (const rule of rules) {
    if (rule.target === undefined || rule.target === "**" || !isLiteralTool(rule.tool)) continue;
    if (typeof targets[rule.tool] !== "function") {
      throw new TypeError(
        `permission rule "${rule.text}" names a target, but there is no target extractor for ${rule.tool} (options.targets.${rule.tool})`,
      );
    }
  }
}

function flatTargets(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(flatTargets);
  if (typeof value === "string") return [value];
  if (typeof value === "number" || typeof value === "boolean") return [String(value)];
  return [JSON.stringify(value)];
}

function extract(extractor: TargetExtractor | undefined, args: Record<string, unknown>): string[] {
  return extractor === undefined ? [] : flatTargets(extractor(args));
}

function show(tool: string, target: string | undefined): string {
  return target === undefined ? tool : `${tool}(${clip(target)})`;
}

interface Match {
  effect: Effect;
  /** The matching rules of that effect, described, sorted: the same whatever the rule order. */
  rules: string;
}

function byLayer(rules: readonly CompiledRule[], tool: string, target: string | undefined): Match | undefined {
  const matched = rules.filter((r) => r.matchesTool(tool) && r.matchesTarget(target));
  if (matched.length === 0) return undefined;
  const effect = matched.reduce<Effect>((e, r) => stricter(e, r.effect), "allow");
  const winners = [...new Set(matched.filter((r) => r.effect === effect).map(describeRule))].sort();
  return { effect, rules: `${winners.length > 1 ? "rules" : "rule"} ${listText(winners)}` };
}

function describeRule(rule: CompiledRule): string {
  return rule.note === undefined ? `"${rule.text}"` : `"${rule.text}" (${rule.note})`;
}

/**
 * Makes a permission engine. Rules are `{ effect, pattern }` or text such as
 * `"allow send_email(*@corp.com)"`. Throws a TypeError naming the rule when one is malformed,
 * or names a target of a tool that has no target extractor.
 */
export function createPermissions(rules: readonly PermissionRuleInput[], options: PermissionOptions = {}): Permissions {
  const explicit = compileAll(rules, "rules");
  const defaults = compileAll(options.defaults, "options.defaults");
  const targets = options.targets ?? {};
  checkTargets([...explicit, ...defaults], targets);

  function decideTarget(tool: string, target: string | undefined): Decision {
    const call = show(tool, target);
    const rule = byLayer(explicit, tool, target);
    if (rule !== undefined) return decisionOf(rule.effect, `${call} ${VERB[rule.effect]} ${rule.rules}`);
    const fallback = byLayer(defaults, tool, target);
    if (fallback !== undefined) {
      return decisionOf(fallback.effect, `no explicit permission rule matches ${call}, so it ${VERB[fallback.effect]} default ${fallback.rules}`);
    }
    return decisionOf("deny", `no permission rule matches ${call}, and calls no rule allows are denied`);
  }

  function decide(call: Pick<ToolCall, "tool" | "args">): Decision {
    if (call === null || typeof call !== "object" || typeof call.tool !== "string") {
      return decisionOf("deny", "permission check: the call has no tool name");
    }
    let found: string[];
    try {
      found = extract(targets[call.tool], call.args ?? {});
    } catch (e) {
      return decisionOf("deny", `could not work out the target of ${call.tool}: ${thrownText(e)}`);
    }
    const list = found.length > 0 ? [...new Set(found)] : [undefined];
    return combineDecisions(...list.map((t) => decideTarget(call.tool, t)));
  }

  return Object.freeze({ decide, rules: explicit, defaults });
}
