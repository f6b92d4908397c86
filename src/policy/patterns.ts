/**
 * Permission rule syntax: `effect tool(target)`, e.g. `allow send_email(*@corp.com)`,
 * `deny delete_file(/etc/**)`, `ask send_*`. Tool and target are picomatch globs; a bare
 * tool or `tool(**)` matches every call of the tool, with or without a target.
 */
import picomatch from "picomatch";
import type { Effect } from "./types.js";

/** One permission rule. */
export interface PermissionRule {
  /** What a matching call gets. */
  effect: Effect;
  /** `tool` or `tool(target)`, both picomatch globs. */
  pattern: string;
  /** Why the rule exists, quoted in reasons. */
  note?: string;
}

/** A rule as data, or as text: `"allow send_email(*@corp.com)"`. */
export type PermissionRuleInput = PermissionRule | string;

/** A parsed rule, ready to match. */
export interface CompiledRule {
  readonly effect: Effect;
  /** The rule as text, e.g. `allow send_email(*@corp.com)`. */
  readonly text: string;
  readonly tool: string;
  /** The target glob, or undefined for a bare tool pattern. */
  readonly target: string | undefined;
  readonly note: string | undefined;
  matchesTool(tool: string): boolean;
  /** True when the rule covers this target; `undefined` is a call without a target. */
  matchesTarget(target: string | undefined): boolean;
}

const EFFECTS: readonly Effect[] = ["allow", "ask", "deny"];
const OPTIONS = { dot: true } as const;

function fail(input: unknown, problem: string): never {
  throw new TypeError(`permission rule ${JSON.stringify(input)}: ${problem}`);
}

function toRule(input: PermissionRuleInput): PermissionRule {
  if (typeof input === "string") {
    const m = /^\s*(\S+)\s+(.+?)\s*$/.exec(input);
    if (m === null) fail(input, 'expected "<allow|ask|deny> <tool>(<target>)"');
    return { effect: m[1].toLowerCase() as Effect, pattern: m[2] };
  }
  if (input === null || typeof input !== "object") fail(input, "expected a string or { effect, pattern }");
  return input;
}

function glob(input: unknown, pattern: string): (s: string) => boolean {
  try {
    return picomatch(pattern, OPTIONS);
  } catch (e) {
    fail(input, `bad glob ${JSON.stringify(pattern)}: ${(e as Error).message}`);
  }
}

function splitPattern(input: unknown, pattern: string): { tool: string; target: string | undefined } {
  const open = pattern.indexOf("(");
  if (open < 0) return { tool: pattern, target: undefined };
  if (!pattern.endsWith(")")) fail(input, `unclosed "(" in ${JSON.stringify(pattern)}`);
  const target = pattern.slice(open + 1, -1).trim();
  if (target.length === 0) fail(input, "empty target; write tool(**) to match every target");
  return { tool: pattern.slice(0, open).trim(), target };
}

/** Parses and compiles one rule. Throws a TypeError naming the problem when it is malformed. */
export function compileRule(input: PermissionRuleInput): CompiledRule {
  const rule = toRule(input);
  if (!EFFECTS.includes(rule.effect)) fail(input, `effect must be allow, ask or deny, got ${JSON.stringify(rule.effect)}`);
  if (typeof rule.pattern !== "string" || rule.pattern.trim() === "") fail(input, "pattern must be a non-empty string");
  const { tool, target } = splitPattern(input, rule.pattern.trim());
  if (tool === "" || /\s/.test(tool)) fail(input, `bad tool pattern ${JSON.stringify(tool)}`);
  const toolMatch = glob(input, tool);
  const anyTarget = target === undefined || target === "**";
  const targetMatch = anyTarget ? undefined : glob(input, target);
  return Object.freeze({
    effect: rule.effect,
    text: `${rule.effect} ${target === undefined ? tool : `${tool}(${target})`}`,
    tool,
    target,
    note: rule.note,
    matchesTool: toolMatch,
    matchesTarget: (t: string | undefined) => targetMatch === undefined || (t !== undefined && targetMatch(t)),
  });
}

/** True when `pattern` names exactly one tool rather than a glob of tools. */
export function isLiteralTool(pattern: string): boolean {
  return !picomatch.scan(pattern).isGlob;
}
