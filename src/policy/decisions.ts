import { allow, ask, deny, type Decision } from "../tools/types.js";
import type { Effect } from "./types.js";

const RANK: Record<Effect, number> = { allow: 0, ask: 1, deny: 2 };

/** How strict an effect is: allow 0, ask 1, deny 2. */
export function strictness(effect: Effect): number {
  return RANK[effect];
}

/** The stricter of two effects. */
export function stricter(a: Effect, b: Effect): Effect {
  return RANK[a] >= RANK[b] ? a : b;
}

/** True when `x` is a well-formed {@link Decision}. */
export function isDecision(x: unknown): x is Decision {
  if (x === null || typeof x !== "object") return false;
  const d = x as { kind?: unknown; reason?: unknown };
  if (d.kind === "allow") return d.reason === undefined || typeof d.reason === "string";
  return (d.kind === "deny" || d.kind === "ask") && typeof d.reason === "string";
}

/** A decision of the given effect. */
export function decisionOf(effect: Effect, reason: string | undefined): Decision {
  if (effect === "allow") return allow(reason);
  const text = reason ?? "no reason given";
  return effect === "deny" ? deny(text) : ask(text);
}

/** Reasons joined by {@link combineDecisions}; the rest are counted. */
const MAX_REASONS = 8;

/**
 * The strictest of several decisions (deny over ask over allow), with the reasons of every
 * decision of that strictness joined by `"; "`, without repeats. No decisions means allow:
 * nothing objected.
 */
export function combineDecisions(...decisions: Decision[]): Decision {
  let effect: Effect = "allow";
  for (const d of decisions) effect = stricter(effect, d.kind);
  const reasons = new Set<string>();
  for (const d of decisions) {
    if (d.kind === effect && d.reason !== undefined && d.reason !== "") reasons.add(d.reason);
  }
  // A call with 800,000 targets gets as many reasons; a person reads the first few.
  const listed = [...reasons].slice(0, MAX_REASONS);
  if (reasons.size > MAX_REASONS) listed.push(`and ${reasons.size - MAX_REASONS} more reasons like these`);
  return decisionOf(effect, listed.length > 0 ? listed.join("; ") : undefined);
}
