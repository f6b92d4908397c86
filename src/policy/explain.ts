/**
 * Explanations of a call: for each argument, where it came from and why it is untrusted or
 * private; for the call itself, which control flow it sits under. Rules, denials and approval
 * prompts all build their text from these, so a person always sees the same words.
 */
import type { Label } from "../labels/index.js";
import type { ToolCall } from "../tools/types.js";
import { describeSource, labelText, listText, originText, secrecyText } from "./describe.js";
import { isWithin, nameArg } from "./paths.js";

/** Where one argument came from. */
export interface ArgumentProvenance {
  /** Dotted path of the argument, e.g. `"to"` or `"recipients.1"`. */
  readonly path: string;
  /** Its joined label. */
  readonly label: Label;
  /** The label in words, e.g. ``"`to` ("eve@x.com") is untrusted and public: it came from …"``. */
  readonly explanation: string;
}

/** Provenance of a whole call: every argument, and the control flow that led to it. */
export interface CallExplanation {
  readonly arguments: readonly ArgumentProvenance[];
  /** The control-flow label in words. */
  readonly context: string;
  /** True when the context is untrusted or private. */
  readonly contextFlagged: boolean;
}

/** True when a label would make a policy look twice: untrusted or private. */
export function isFlagged(label: Label): boolean {
  return !label.trusted || label.readers !== "public";
}

/** ``"`to` ("eve@x.com") is untrusted: it came from an email from eve@x.com"``. */
export function untrustedText(call: ToolCall, path: string, label: Label): string {
  return `${nameArg(call.args, path)} is untrusted: ${originText(label)}`;
}

/** ``"`body` ("…") is private (readable only by alice@corp.com): it came from …"``. */
export function privateText(call: ToolCall, path: string, label: Label): string {
  const origin = label.sources.length > 0 ? `: ${originText(label)}` : "";
  return `${nameArg(call.args, path)} is ${secrecyText(label)}${origin}`;
}

/** One argument's label in words. */
export function argumentText(call: ToolCall, path: string, label: Label): string {
  return `${nameArg(call.args, path)} is ${labelText(label)}`;
}

/** The control-flow label in words. */
export function contextText(context: Label): string {
  if (!isFlagged(context)) return "the call does not depend on any untrusted or private condition";
  const parts: string[] = [];
  if (!context.trusted) parts.push("untrusted data");
  if (context.readers !== "public") parts.push(`${secrecyText(context)} data`);
  const origin = context.sources.length > 0 ? ` from ${listText(context.sources.map(describeSource))}` : " of unrecorded origin";
  return `the call sits under a branch or loop that depends on ${parts.join(" and ")}${origin}`;
}

function topLevel(call: ToolCall): ArgumentProvenance[] {
  return Object.keys(call.args)
    .filter((key) => call.args[key] !== undefined)
    .map((path) => {
      const label = call.label(path);
      return { path, label, explanation: argumentText(call, path, label) };
    });
}

/**
 * Nested parts that pinpoint a problem inside an argument (`to.1` of a recipient list):
 * listed only when the argument's parts differ, so the whole-argument line would not say which.
 */
function pinpointed(call: ToolCall, tops: readonly ArgumentProvenance[]): ArgumentProvenance[] {
  const out: ArgumentProvenance[] = [];
  for (const top of tops) {
    const inside = call.parts.filter((p) => p.path !== top.path && isWithin(p.path, top.path));
    if (inside.every((p) => p.label.equals(inside[0].label))) continue;
    for (const part of inside.filter((p) => isFlagged(p.label))) {
      out.push({ path: part.path, label: part.label, explanation: argumentText(call, part.path, part.label) });
    }
  }
  return out;
}

/** Per-argument provenance and the context explanation of a call. */
export function explainCall(call: ToolCall): CallExplanation {
  const tops = topLevel(call);
  return {
    arguments: [...tops, ...pinpointed(call, tops)],
    context: contextText(call.context),
    contextFlagged: isFlagged(call.context),
  };
}
