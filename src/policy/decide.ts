/**
 * The final decision before a call: the strictest of the tool's label policy and the
 * permission engine, with a reason a person can act on (the tool, its arguments and where
 * each flagged argument came from), plus the approval request and the record entry made
 * from it.
 */
import type { Label } from "../labels/index.js";
import { thrownText } from "../interpreter/convert.js";
import { allow, ask, deny, type Decision, type ToolCall } from "../tools/types.js";
import { combineDecisions, isDecision } from "./decisions.js";
import { argumentNames, argumentPaths, explainCall, isFlagged, untrustedText, contextText, shapeText, type ArgumentProvenance } from "./explain.js";
import { lookup, preview, showPath, shownLines } from "./paths.js";
import { escapeInvisible } from "./describe.js";
import type { Permissions } from "./permissions.js";
import { declareRequirements } from "./requirements.js";
import type { Policy } from "./types.js";

/** A read-only tool without a policy of its own: allowed. */
const READ_ONLY_DEFAULT: Policy = declareRequirements(() => allow(), []);

/** A side-effecting tool without a policy of its own: every argument and the context trusted. */
const SIDE_EFFECT_DEFAULT: Policy = declareRequirements(
  (call) => {
    const untrusted = argumentPaths(call).filter((path) => !call.label(path).trusted);
    const problems = untrusted.slice(0, MAX_LISTED).map((path) => untrustedText(call, path, call.label(path)));
    if (untrusted.length > MAX_LISTED) problems.push(`${untrusted.length - MAX_LISTED} more arguments are untrusted`);
    const shape = call.shape?.();
    if (shape !== undefined && !shape.trusted) problems.push(shapeText(shape));
    if (!call.context.trusted) problems.push(contextText(call.context));
    if (problems.length === 0) return allow();
    return deny(`${call.tool} has no policy of its own and changes the world, so every argument and the context must be trusted, but ${problems.join("; ")}`);
  },
  [{ kind: "everyArgumentTrusted", effect: "deny", why: "the tool has no policy of its own and changes the world" }],
);

/**
 * The policy of a tool that has none: read-only tools are allowed; side-effecting tools only
 * when every argument and the context are trusted, else denied. One function each, made once:
 * {@link decideCall} asks for it at every call of such a tool.
 */
export function defaultToolPolicy(options: { sideEffect: boolean }): Policy {
  return options.sideEffect ? SIDE_EFFECT_DEFAULT : READ_ONLY_DEFAULT;
}

/** Runs a policy without letting it crash the run: a throw or a malformed answer denies. */
export function runPolicy(policy: Policy, call: ToolCall): Decision {
  let decision: unknown;
  try {
    decision = policy(call);
  } catch (e) {
    return deny(`the policy of ${call.tool} failed: ${thrownText(e)}`);
  }
  return isDecision(decision) ? decision : deny(`the policy of ${call.tool} returned ${preview(decision)}, not a decision`);
}

/** What {@link decideCall} needs to know about the tool. */
export interface DecideOptions {
  /** The tool's own policy; without one, {@link defaultToolPolicy} applies. */
  policy?: Policy;
  /** Whether the tool changes the world; used by the default policy. */
  sideEffect?: boolean;
  /** The permission engine, when the host configured one. */
  permissions?: Permissions;
}

/** The strictest of the tool's policy and the permission engine, explained. */
export function decideCall(call: ToolCall, options: DecideOptions = {}): Decision {
  const policy = options.policy ?? defaultToolPolicy({ sideEffect: options.sideEffect === true });
  const decisions = [runPolicy(policy, call)];
  if (options.permissions !== undefined) decisions.push(options.permissions.decide(call));
  return explainDecision(call, combineDecisions(...decisions));
}

/** Arguments named one by one in a reason; the rest are counted. */
const MAX_LISTED = 8;

/** Longest reason of a policy quoted in an explanation; the explanation adds provenance to it. */
const MAX_REASON = 2000;

/** `send_email(to: "eve@x.com", body: "hi")`, with at most a few arguments shown. */
export function callText(call: Pick<ToolCall, "tool" | "args">): string {
  const names = argumentNames(call);
  const args = names.slice(0, MAX_LISTED).map((k) => `${showPath(k)}: ${preview(call.args[k])}`);
  if (names.length > MAX_LISTED) args.push(`and ${names.length - MAX_LISTED} more`);
  return `${call.tool}(${args.join(", ")})`;
}

/** A policy's reason, cut to {@link MAX_REASON} characters with a count of what was cut. */
function quotedReason(reason: string): string {
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}… (${reason.length - MAX_REASON} more characters)` : reason;
}

/**
 * The decision with a reason a person can act on: the call with its arguments, the reason,
 * and the provenance of every flagged argument (and the context) the reason does not already
 * explain. Allow decisions are returned unchanged. Apply once: it does not detect its own output.
 */
export function explainDecision(call: ToolCall, decision: Decision): Decision {
  if (decision.kind === "allow") return decision;
  const explained = explainCall(call);
  const reason = quotedReason(decision.reason);
  // Every flagged argument and a flagged context, whatever the reason says: the reason quotes
  // data, so what it seems to explain already is no guide to what sluice must still say.
  const extra = explained.arguments.filter((a) => isFlagged(a.label)).map((a) => a.explanation);
  if (explained.contextFlagged) extra.push(explained.context);
  const verb = decision.kind === "deny" ? "was denied" : "needs approval";
  const tail = extra.length > 0 ? `. Provenance: ${extra.join("; ")}` : "";
  return { kind: decision.kind, reason: `${callText(call)} ${verb}: ${reason}${tail}` };
}

/** What the host's approve callback receives; matches the runtime's `ApprovalRequest`. */
export interface ApprovalPrompt {
  tool: string;
  args: Record<string, unknown>;
  /** The explained reason: the call, why it asks, where flagged arguments came from. */
  reason: string;
  /** Every argument with its label in words. */
  provenance: ArgumentProvenance[];
  /** The control flow the call sits under, in words. */
  context: string;
}

/** The approval request for an ask decision, whether or not {@link explainDecision} was applied already. */
export function approvalRequest(call: ToolCall, decision: Decision): ApprovalPrompt {
  const explained = explainCall(call);
  const why = decision.reason ?? "no reason given";
  const reason = why.startsWith(callText(call)) ? why : explainDecision(call, ask(why)).reason!;
  return { tool: call.tool, args: call.args, reason, provenance: [...explained.arguments], context: explained.context };
}

/** An approval request as text for a terminal: tool, every argument with its provenance, the reason. */
export function formatApproval(request: ApprovalPrompt): string {
  const lines = [`${request.tool} wants to run with:`];
  for (const p of request.provenance) {
    if (p.omitted !== undefined) lines.push(`  ${escapeInvisible(p.explanation)}`);
    else {
      const shown = shownLines(lookup(request.args, p.path).value);
      if (shown.length === 1) lines.push(`  ${showPath(p.path)} = ${shown[0]}`);
      else lines.push(`  ${showPath(p.path)} =`, ...shown.map((l) => `      ${l}`));
      lines.push(`      ${escapeInvisible(p.explanation)}`);
    }
  }
  if (request.provenance.length === 0) lines.push("  (no arguments)");
  // One line each: a policy's reason may quote data with line breaks of its own.
  lines.push(`Context: ${escapeInvisible(request.context)}`, `Why you are asked: ${escapeInvisible(request.reason)}`);
  return lines.join("\n");
}

/** One entry of a run's record; a superset of the runtime's `CallRecord`. */
export interface DecisionRecord {
  tool: string;
  args: Record<string, unknown>;
  decision: "allow" | "deny" | "ask";
  approved?: boolean;
  reason?: string;
  /** Label of all arguments together. */
  argsLabel: Label;
  /** Label of the control flow that led to the call. */
  context: Label;
  /** Every argument with its label in words. */
  provenance: ArgumentProvenance[];
}

/** The record entry of a decided call: tool, arguments, decision, reason, labels. */
export function callRecord(call: ToolCall, decision: Decision, approved?: boolean): DecisionRecord {
  return {
    tool: call.tool,
    args: call.args,
    decision: decision.kind,
    ...(decision.kind === "ask" && approved !== undefined ? { approved } : {}),
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    argsLabel: call.label(),
    context: call.context,
    provenance: [...explainCall(call).arguments],
  };
}
