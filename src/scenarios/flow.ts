/**
 * Records why a call was stopped: every argument with its label (who may read it, whether it is
 * trusted, where it came from) and the control flow it sat under. The report shows this for each
 * denied or refused call, so a person sees which data, which label and which rule.
 */
import type { Label } from "../labels/index.js";
import { allow, defineTool, type Decision, type Tool, type ToolCall } from "../tools/types.js";
import { contextText, declareRequirements, defaultToolPolicy, explainCall, runPolicy, sameRequirements } from "../policy/index.js";
import type { CallRecord } from "../runtime/index.js";

/** A label as plain data. */
export interface PlainLabel {
  trusted: boolean;
  readers: "public" | string[];
  sources: string[];
}

/** One argument of a stopped call. */
export interface FlowArgument {
  path: string;
  /** The value, shortened for display. */
  value: string;
  label: PlainLabel;
  /** The label in words. */
  explanation: string;
}

/** A call a policy denied, or asked about without approval. */
export interface FlowRecord {
  tool: string;
  decision: "deny" | "ask";
  approved?: boolean;
  /** The decision's reason: the rule that fired and the provenance it names. */
  reason: string;
  /** The policy guarding the tool, as the suite names it. */
  policy: string;
  /** Whether the tool has side effects: only those refused count as blocked sends (the `sluice.blocked_sends` metric). */
  sideEffect: boolean;
  arguments: FlowArgument[];
  context: { label: PlainLabel; explanation: string };
}

function plain(label: Label): PlainLabel {
  return { trusted: label.trusted, readers: label.readers === "public" ? "public" : [...label.readers], sources: [...label.sources] };
}

function shorten(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 240 ? `${text.slice(0, 239)}…` : text;
}

function valueAt(args: Record<string, unknown>, path: string): unknown {
  let current: unknown = args;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** What a policy saw of one call that it did not allow. */
interface Seen {
  arguments: FlowArgument[];
  context: { label: PlainLabel; explanation: string };
}

/** Collects what the policies saw, one entry per decided call, in call order. */
export interface FlowCapture {
  seen: Array<Seen | undefined>;
}

export function createCapture(): FlowCapture {
  return { seen: [] };
}

function seenOf(call: ToolCall): Seen {
  const explained = explainCall(call);
  return {
    arguments: explained.arguments.map((a) => ({ path: a.path, value: shorten(valueAt(call.args, a.path)), label: plain(a.label), explanation: a.explanation })),
    context: { label: plain(call.context), explanation: contextText(call.context) },
  };
}

/**
 * The tool with its policy observed: the decision is the tool's own (or the default policy, or
 * allow when the defense is off), and what the policy saw is kept when it does not allow.
 */
export function observed(tool: Tool<any, any>, capture: FlowCapture, defenseOn: boolean): Tool<any, any> {
  const base = defenseOn ? tool.policy ?? defaultToolPolicy({ sideEffect: tool.sideEffect }) : declareRequirements(() => allow(), []);
  // The wrapper decides as the policy it wraps, so the static plan check reads the same requirements.
  return defineTool({
    ...tool,
    policy: sameRequirements((call: ToolCall): Decision => {
      const decision = runPolicy(base, call);
      let seen: Seen | undefined;
      if (decision.kind !== "allow") {
        try {
          seen = seenOf(call);
        } catch {
          seen = undefined;
        }
      }
      capture.seen.push(seen);
      return decision;
    }, base),
  });
}

/** The stopped calls of a run, each with what its policy saw. */
export function stoppedCalls(calls: readonly CallRecord[], capture: FlowCapture, policies: Record<string, string>, sideEffecting: ReadonlySet<string>): FlowRecord[] {
  const out: FlowRecord[] = [];
  calls.forEach((call, i) => {
    if (call.decision === "allow" || call.approved === true) return;
    const seen = capture.seen[i];
    out.push({
      tool: call.tool,
      decision: call.decision,
      ...(call.approved === undefined ? {} : { approved: call.approved }),
      reason: call.reason ?? "no reason given",
      policy: policies[call.tool] ?? (call.decision === "deny" ? "default policy of a side-effecting tool" : "tool policy"),
      sideEffect: sideEffecting.has(call.tool),
      arguments: seen?.arguments ?? [],
      context: seen?.context ?? { label: { trusted: true, readers: "public", sources: [] }, explanation: "not recorded" },
    });
  });
  return out;
}

/** Blocked sends: the side-effecting calls among a run's stops, as the `sluice.blocked_sends` metric counts them. */
export function blockedSends(stops: readonly FlowRecord[]): number {
  return stops.filter((s) => s.sideEffect === true).length;
}
