/**
 * What a failed call becomes: the catchable error the program receives, with an untrusted
 * label (whether a call fails, and after how many attempts, is up to the remote side and the
 * network), and sluice's own fixed sentence about it for whoever may not read remote text.
 */
import { isBrokenCircuitError } from "cockatiel";
import { Label } from "../labels/index.js";
import type { BreakerOptions } from "../tools/types.js";
import { kindOfToolError, LayerStop, messageOf, statusOf } from "./classify.js";
import { type CallFailure, type CallOutcome, type FailureKind, BudgetRefusal } from "./types.js";

/** How an attempt the layer stopped waiting for ended after all. */
export type LateOutcome = { ok: true; value: unknown } | { ok: false };

/** An attempt that got no answer in time (the layer's, so it is told apart from the tool's own errors). */
export class AttemptTimeout extends Error {
  constructor(
    readonly timeoutMs: number,
    /** Settles when the attempt itself does: it may still be running, and may still act. */
    readonly late?: Promise<LateOutcome>,
  ) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = "AttemptTimeout";
  }
}

/** What the failure's sentences may mention. */
export interface FailureContext {
  tool: string;
  resource: string;
  timeoutMs: number;
  deadlineMs: number;
  breaker: BreakerOptions | undefined;
  attempts: number;
  durationMs: number;
  /** From {@link failureLabelOf}. */
  label: Label;
}

/**
 * The label of what the program sees of a failure: the caller's label for the tool's answers
 * (readers, sources), forced untrusted and given the resource as a source. Forced because a
 * trusted server's failure can still be caused by the network, by load others put on it, or
 * by a breaker or bucket that other runs' calls (decided by other data) filled. Not forced
 * when `own`: the tool declared its failure label and nothing shared can fail it (see
 * {@link failuresAreOwn}).
 */
export function failureLabelOf(given: Label | undefined, tool: string, resource: string, own = false): Label {
  if (own && given !== undefined) return given;
  return (given ?? untrustedAs(tool)).join(untrustedAs(resource));
}

/** `Label.untrusted(name)`, made once per name: labels are immutable, and every call needs one. */
const untrustedLabels = new Map<string, Label>();

function untrustedAs(name: string): Label {
  let l = untrustedLabels.get(name);
  if (l === undefined) {
    if (untrustedLabels.size >= 1024) untrustedLabels.clear();
    l = Label.untrusted(name);
    untrustedLabels.set(name, l);
  }
  return l;
}

/**
 * Whether a tool's failures are its own to label: it declares `failureLabel`, shares no
 * resource with other tools (MCP and A2A tools name one: a server reached over the network),
 * and no breaker or bucket other calls fill stands in front of it. A local tool (an in-memory
 * calendar, a file the user owns) says its failures are trusted, and a `try` around it keeps
 * its trusted result trusted (attack round 4, precision P1).
 */
export function failuresAreOwn(
  tool: { name: string; failureLabel?: Label; resource?: string; rateLimit?: unknown },
  shared: { breaker?: unknown; rateLimits?: Readonly<Record<string, unknown>> },
): boolean {
  if (!(tool.failureLabel instanceof Label) || tool.resource !== undefined || tool.rateLimit !== undefined) return false;
  return shared.breaker === undefined && shared.rateLimits?.[tool.name] === undefined;
}

const SUMMARY: Record<FailureKind, (tool: string) => string> = {
  timeout: (t) => `${t} timed out`,
  connection: (t) => `${t} could not be reached`,
  rate_limited: (t) => `${t} is rate-limited`,
  unavailable: (t) => `${t} is unavailable`,
  circuit_open: (t) => `${t} is not being called: its circuit breaker is open after repeated failures`,
  deadline: (t) => `${t} ran out of time`,
  cancelled: (t) => `${t} was cancelled because the run was stopped`,
  tool_error: (t) => `${t} failed`,
};

/**
 * sluice's fixed sentence for a failure of `kind` of `tool` (the CallFailure's `summary`), or
 * undefined for a kind outside the fixed set: words of sluice's and the tool's name, nothing
 * the remote side wrote.
 */
export function failureSummary(kind: string, tool: string): string | undefined {
  return Object.hasOwn(SUMMARY, kind) ? SUMMARY[kind as FailureKind](tool) : undefined;
}

function kindOf(err: unknown): FailureKind {
  if (err instanceof AttemptTimeout) return "timeout";
  if (err instanceof LayerStop) return err.kind;
  if (isBrokenCircuitError(err)) return "circuit_open";
  return kindOfToolError(err);
}

function attemptsText(n: number): string {
  return n > 1 ? ` (${n} attempts)` : "";
}

/** The program's message: the summary, with what the remote side said and the numbers behind it. */
function messageFor(kind: FailureKind, err: unknown, c: FailureContext): { message: string; detail?: string } {
  const summary = SUMMARY[kind](c.tool);
  switch (kind) {
    case "timeout":
      return { message: `${summary}: no answer within ${c.timeoutMs} ms${attemptsText(c.attempts)}` };
    case "circuit_open": {
      const who = c.resource === c.tool ? "its" : `${c.resource}'s`;
      const b = c.breaker;
      const rule = b === undefined ? "" : ` (${who} last ${b.failures} calls failed; one trial call goes through every ${b.cooldownMs} ms)`;
      return { message: `${summary}${rule}; catch this error to do without it` };
    }
    case "deadline":
      return { message: `${summary}: no result within its deadline of ${c.deadlineMs} ms${attemptsText(c.attempts)}` };
    case "cancelled":
      return { message: summary };
    default: {
      const detail = err instanceof LayerStop ? undefined : messageOf(err);
      const text = err instanceof LayerStop ? err.message : `${summary}${attemptsText(c.attempts)}: ${detail}`;
      return detail === undefined ? { message: text } : { message: text, detail };
    }
  }
}

/** The outcome of a call that threw `err` after `c.attempts` attempts; `unknown` when it may have acted anyway. */
export function failureOutcome(err: unknown, c: FailureContext, unknown = false): CallOutcome {
  const { attempts, durationMs } = c;
  if (err instanceof BudgetRefusal) return { kind: "limit", message: `${c.tool} was not called: ${err.message}`, attempts, durationMs };
  const kind = kindOf(err);
  const { message, detail } = messageFor(kind, err, c);
  const status = err instanceof LayerStop ? undefined : statusOf(err);
  const failure: CallFailure = { kind, summary: SUMMARY[kind](c.tool), ...(detail !== undefined ? { detail } : {}), ...(status !== undefined ? { status } : {}), ...(unknown ? { outcome: "unknown" as const } : {}) };
  return { kind: "error", cls: "Error", message, label: c.label.join(carriedLabel(err)), failure, attempts, durationMs };
}

/**
 * A label the thrown value carries (an MCP server's error with the server's `_meta` label):
 * it can only make the failure stricter. Reading it is one property read, guarded.
 */
export function carriedLabel(err: unknown): Label {
  try {
    const label = err !== null && typeof err === "object" ? (err as { label?: unknown }).label : undefined;
    return label instanceof Label ? label : Label.trusted();
  } catch {
    return Label.trusted();
  }
}
