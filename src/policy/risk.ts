/**
 * Risk classes from two questions about a tool: can its action be undone, and does it
 * leave the system? Anything irreversible or outbound needs a person's approval by default.
 */
import type { PermissionRule } from "./patterns.js";

/** The two facts a risk class is made of. */
export interface RiskFacts {
  /** Can the action be undone (a draft, a file moved to trash)? */
  reversible: boolean;
  /** Does the action send anything outside the system (email, payment, web request)? */
  outbound: boolean;
}

/** `contained`: reversible and internal; the rest need approval by default. */
export type RiskClass = "contained" | "irreversible" | "outbound" | "irreversible-outbound";

function checkFacts(facts: unknown, where: string): RiskFacts {
  const f = facts as Partial<RiskFacts> | null;
  if (f === null || typeof f !== "object" || typeof f.reversible !== "boolean" || typeof f.outbound !== "boolean") {
    throw new TypeError(`${where}: expected { reversible: boolean, outbound: boolean }, got ${JSON.stringify(facts)}`);
  }
  return f as RiskFacts;
}

/** The risk class of an action. */
export function riskOf(facts: RiskFacts): RiskClass {
  const { reversible, outbound } = checkFacts(facts, "riskOf");
  if (!reversible && outbound) return "irreversible-outbound";
  if (!reversible) return "irreversible";
  return outbound ? "outbound" : "contained";
}

/** True for every class but `contained`. */
export function needsApproval(risk: RiskClass): boolean {
  return risk !== "contained";
}

/** The risk in words, e.g. `"send_email leaves the system and cannot be undone"`. */
export function riskText(tool: string, risk: RiskClass): string {
  switch (risk) {
    case "contained":
      return `${tool} can be undone and stays inside the system`;
    case "irreversible":
      return `${tool} cannot be undone`;
    case "outbound":
      return `${tool} leaves the system`;
    case "irreversible-outbound":
      return `${tool} leaves the system and cannot be undone`;
  }
}

/**
 * Default rules from risk facts per tool: `ask tool` for irreversible or outbound tools,
 * `allow tool` for contained ones. Pass them as `createPermissions(rules, { defaults })`:
 * they apply only where no explicit rule matches, so an explicit allow still wins.
 */
export function riskDefaults(risks: Record<string, RiskFacts>): PermissionRule[] {
  if (risks === null || typeof risks !== "object") throw new TypeError("riskDefaults: expected { tool: { reversible, outbound } }");
  return Object.entries(risks).map(([tool, facts]) => {
    const risk = riskOf(checkFacts(facts, `riskDefaults(${tool})`));
    const approval = needsApproval(risk) ? "; approval is needed by default" : "";
    return { effect: needsApproval(risk) ? "ask" : "allow", pattern: tool, note: `${riskText(tool, risk)}${approval}` };
  });
}
