/**
 * Findings in words, for the planner: the call, what its policy requires, where the flagged
 * value or decision comes from, and what to write instead. Every word comes from the program
 * text, the tools' declarations and the policies' own descriptions, never from tool data, so
 * the feedback is trusted by construction.
 */
import type { Requirement } from "../policy/index.js";
import type { Origin } from "./facts.js";
import type { RawFinding } from "./state.js";

/** A sink call the check predicts to be refused whatever the data. */
export interface PlanFinding {
  tool: string;
  /** Where the call is, 1-based. */
  line: number;
  column: number;
  /** `"deny"`: refused; `"ask"`: a person is asked, and without approval it is refused. */
  decision: "deny" | "ask";
  /** The argument the policy refuses, or undefined when the control flow is the problem. */
  argument?: string;
  /** Which rule: a {@link Requirement} kind. */
  requirement: Requirement["kind"];
  /** What the policy requires, in words. */
  rule: string;
  /** Where the value or the decision comes from, in words. */
  origin: string;
  /** What to write instead. */
  advice: string;
  /** The calls of the program's own functions and callbacks that lead to it, outermost first. */
  via: string[];
  /** All of it in one paragraph. */
  message: string;
}

function originText(o: Origin): string {
  const where = o.line > 0 ? `line ${o.line}` : "";
  const details = [where, o.why].filter((x) => x !== undefined && x !== "").join(", ");
  return details === "" ? o.what : `${o.what} (${details})`;
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function because(q: Requirement): string {
  return q.why ? ` (${q.why})` : "";
}

function ruleText(f: RawFinding): string {
  const q = f.requirement;
  switch (q.kind) {
    case "trusted":
      return `\`${q.path}\` must be trusted${because(q)}`;
    case "public":
      return `\`${q.path}\` must be public${because(q)}`;
    case "trustedIfPrivate":
      return `\`${q.path}\` must not be both private and shaped by untrusted data${because(q)}`;
    case "readableBy":
      return `everyone the call reaches must be allowed to read \`${q.path}\`${because(q)}`;
    case "trustedContext":
      return `whether the call is made must not depend on untrusted data${because(q)}`;
    case "everyArgumentTrusted":
      return `every argument and the decision to make the call must be trusted${because(q)}`;
    case "privateToUntrustedUrl":
      return `private content must not go to a URL that untrusted data chose${because(q)}`;
  }
}

function whence(f: RawFinding): string {
  const origins = f.fact.origins.map(originText);
  const from = origins.length === 0 ? "" : `it depends on ${list(origins)}`;
  const what = f.argument === undefined ? "the call sits under a branch, loop or callback decided by data" : `\`${f.argument}\``;
  if (f.requirement.kind === "readableBy" && f.missing !== undefined) {
    const readers = f.fact.within === undefined ? "" : ` (readable only by ${list([...f.fact.within]) || "no one"})`;
    return `${what} is private${readers} and ${list(f.missing)} may not read it${from === "" ? "" : `; ${from}`}`;
  }
  const kind = f.fact.untrusted && f.fact.private ? "private and untrusted" : f.fact.untrusted ? "untrusted" : "private";
  if (f.argument === undefined) return `${what}: ${kind}${from === "" ? "" : `; ${from}`}`;
  return `${what} is ${kind}${from === "" ? "" : `: ${from}`}`;
}

function adviceText(f: RawFinding, trustedTools: readonly string[]): string {
  switch (f.requirement.kind) {
    case "trusted":
    case "everyArgumentTrusted": {
      const lookups = trustedTools.length === 0 ? "" : `, or one that ${list(trustedTools)} returns`;
      if (f.argument === undefined) return "make the call whatever the data says if the user asked for it either way, or return what you found so the user can decide";
      return `use a value the user wrote in the request${lookups}; if only the data names it, return it so the user can confirm it`;
    }
    case "trustedContext":
      return "make the call whatever the data says if the user asked for it either way (no `if`, loop or callback over the data around it), or return what you found so the user can decide";
    case "trustedIfPrivate":
      return "send text the user wrote, or return the result to the user instead of sending it";
    case "readableBy":
      return f.effect === "ask" ? "a person will be asked to approve; if the user asked for exactly this, keep the call" : "send only what every recipient may read";
    case "public":
      return "keep private data out of this argument";
    case "privateToUntrustedUrl":
      return "send private data only to an address the user wrote";
  }
}

const VERDICT = { deny: "will be denied", ask: "will ask the person for approval, and stop the program without it" } as const;

/** A finding in words. `trustedTools` names tools whose results are declared trusted, for the advice. */
export function describeFinding(f: RawFinding, trustedTools: readonly string[]): PlanFinding {
  const line = f.node.loc?.start.line ?? 0;
  const column = (f.node.loc?.start.column ?? 0) + 1;
  const rule = ruleText(f);
  const origin = whence(f);
  const advice = adviceText(f, trustedTools);
  const via = f.via.map((v) => `${v.what} (line ${v.line})`);
  const path = via.length === 0 ? "" : `, when reached through ${list(via)}`;
  const message = `Line ${line}, column ${column}: ${f.tool}(...)${path} ${VERDICT[f.effect]}: ${rule}, but ${origin}. Instead: ${advice}.`;
  return {
    tool: f.tool,
    line,
    column,
    decision: f.effect,
    ...(f.argument === undefined ? {} : { argument: f.argument }),
    requirement: f.requirement.kind,
    rule,
    origin,
    advice,
    via,
    message,
  };
}

/** The planner's turn after a check that found calls to be refused. */
export function planFeedback(findings: readonly PlanFinding[]): string {
  const lines = findings.map((f) => `- ${f.message}`);
  return [
    "Before running your program, sluice checked it against the tools' declarations and security policies (no tool has run yet). Whatever the data turns out to be:",
    ...lines,
    "If you can do what the user asked another way, answer with the complete corrected program. If the request needs exactly these calls, answer with the same program: a call that asks is put to the person.",
  ].join("\n");
}
