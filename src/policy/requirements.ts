/**
 * What a policy requires of which argument, as data: the rules of rules.ts say it when they
 * are made, and combinators pass it on. The static plan check reads it to predict, from the
 * program text alone, which calls a policy will refuse. A policy written as a plain function
 * says nothing, and the check then claims nothing it cannot see (only its known rules).
 */
import type { Policy } from "./types.js";

/** How a rule refuses: it denies, or it asks a person (and refuses without approval). */
export type RequirementEffect = "deny" | "ask";

/** One thing a rule requires for the call to go ahead. */
export type Requirement =
  /** The argument at `path` must be trusted. */
  | { kind: "trusted"; path: string; effect: RequirementEffect; why?: string }
  /** The argument at `path` must be public. */
  | { kind: "public"; path: string; effect: RequirementEffect; why?: string }
  /** The argument at `path` must not be both private and untrusted. */
  | { kind: "trustedIfPrivate"; path: string; effect: RequirementEffect; why?: string }
  /** Everyone named at `principalsFrom` (and `principals`) must be among the readers of `path`. */
  | { kind: "readableBy"; path: string; principalsFrom: readonly string[]; principals: readonly string[]; effect: RequirementEffect; why?: string }
  /** The call must not sit under a branch or loop decided by untrusted data. */
  | { kind: "trustedContext"; effect: RequirementEffect; why?: string }
  /** Every argument and the context must be trusted (the default policy of a side-effecting tool). */
  | { kind: "everyArgumentTrusted"; effect: RequirementEffect; why?: string }
  /** Private content (at `content`) must not go to a URL (at `url`) that untrusted text chose. */
  | { kind: "privateToUntrustedUrl"; url: string; content: readonly string[]; effect: RequirementEffect; why?: string };

/** What is known of a policy's requirements. */
export interface PolicyRequirements {
  /** The requirements its rules declared. */
  readonly known: readonly Requirement[];
  /** False when some part of the policy is a plain function whose requirements are unknown. */
  readonly complete: boolean;
}

const registry = new WeakMap<Policy, PolicyRequirements>();

const UNKNOWN: PolicyRequirements = Object.freeze({ known: Object.freeze([]), complete: false });

/** Records what `policy` requires and returns it, so a rule can say it where it is made. */
export function declareRequirements<P extends Policy>(policy: P, known: readonly Requirement[], complete = true): P {
  registry.set(policy, Object.freeze({ known: Object.freeze([...known]), complete }));
  return policy;
}

/** What `policy` requires, as far as its rules declared it; a plain function declares nothing. */
export function requirementsOf(policy: Policy | undefined): PolicyRequirements {
  if (policy === undefined) return UNKNOWN;
  return registry.get(policy) ?? UNKNOWN;
}

/** The requirements of every rule, together (for {@link all}). */
export function unionOf(rules: readonly Policy[]): PolicyRequirements {
  const each = rules.map(requirementsOf);
  return { known: each.flatMap((r) => r.known), complete: each.every((r) => r.complete) };
}

/** The same requirements, asking where they denied (for {@link askInstead}). */
export function asAsks(r: PolicyRequirements): PolicyRequirements {
  return { known: r.known.map((q) => (q.effect === "deny" ? { ...q, effect: "ask" as const } : q)), complete: r.complete };
}

/** `policy` declared with the requirements of `like`: for wrappers that decide as `like` does. */
export function sameRequirements<P extends Policy>(policy: P, like: Policy | undefined): P {
  const r = requirementsOf(like);
  return declareRequirements(policy, r.known, r.complete);
}
