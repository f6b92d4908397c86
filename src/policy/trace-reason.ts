/**
 * The reason a refused call gives to machines (span attributes, metrics): built from the call's
 * structure, never from the person's explanation, which quotes arguments and label sources
 * (attack round 4, finding 1: a private PIN and a stranger's text reached the trace exporter).
 * It names the decision, the flagged top-level arguments and what kind of label each has, and
 * whether the control flow is flagged: fixed words, and argument names only when the keys of
 * the call were decided by trusted, public data and are plain identifiers.
 */
import type { Label } from "../labels/index.js";
import type { Decision, ToolCall } from "../tools/types.js";
import { argumentNames, isFlagged } from "./explain.js";

/** An argument name shown as is: an identifier, short. */
const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

/** Flagged arguments named one by one; the rest are counted. */
const MAX_NAMED = 8;

/** `"untrusted"`, `"private"` or `"untrusted, private"`: the kinds, never readers or sources. */
export function labelKinds(label: Label): string {
  const kinds = [...(label.trusted ? [] : ["untrusted"]), ...(label.readers === "public" ? [] : ["private"])];
  return kinds.join(", ");
}

function keysArePublic(call: ToolCall): boolean {
  if (call.shape === undefined) return false;
  const shape = call.shape();
  return shape.trusted && shape.readers === "public";
}

/** E.g. `"ask: body (private); to (untrusted); context (untrusted)"`; undefined for an allowed call. */
export function traceReason(call: ToolCall, decision: Decision): string | undefined {
  if (decision.kind === "allow") return undefined;
  const named = keysArePublic(call);
  const flagged = argumentNames(call)
    .map((path) => ({ path, label: call.label(path) }))
    .filter((a) => isFlagged(a.label));
  const parts = flagged.slice(0, MAX_NAMED).map((a) => `${named && PLAIN_NAME.test(a.path) ? a.path : "an argument"} (${labelKinds(a.label)})`);
  if (flagged.length > MAX_NAMED) parts.push(`${flagged.length - MAX_NAMED} more flagged arguments`);
  if (isFlagged(call.context)) parts.push(`context (${labelKinds(call.context)})`);
  return `${decision.kind}: ${parts.length === 0 ? "by the tool's policy" : parts.join("; ")}`;
}
