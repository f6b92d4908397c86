/**
 * Explanations of a call: for each argument, where it came from and why it is untrusted or
 * private; for the call itself, which control flow it sits under. Rules, denials and approval
 * prompts all build their text from these, so a person always sees the same words.
 */
import type { Label } from "../labels/index.js";
import type { ToolCall } from "../tools/types.js";
import { describeSource, labelText, listOf, originText, secrecyText } from "./describe.js";
import { nameArg } from "./paths.js";

/** Where one argument came from. */
export interface ArgumentProvenance {
  /** Dotted path of the argument, e.g. `"to"` or `"recipients.1"`. */
  readonly path: string;
  /** Its joined label. */
  readonly label: Label;
  /** The label in words, e.g. ``"`to` ("eve@x.com") is untrusted and public: it came from …"``. */
  readonly explanation: string;
  /**
   * Set on a summary line: how many more arguments (or parts of the argument at `path`) it
   * stands for; `label` is their join. Explanations list a few and summarise the rest.
   */
  readonly omitted?: number;
}

/** Provenance of a whole call: every argument, and the control flow that led to it. */
export interface CallExplanation {
  readonly arguments: readonly ArgumentProvenance[];
  /** The control-flow label in words. */
  readonly context: string;
  /** True when the context is untrusted or private. */
  readonly contextFlagged: boolean;
}

/** Top-level arguments explained one by one; the rest are one summary line. */
export const MAX_LISTED_ARGUMENTS = 12;

/** Nested parts pinpointed in a whole call; the rest of each argument's are one summary line. */
export const MAX_LISTED_PARTS = 8;

/** True when a label would make a policy look twice: untrusted or private. */
export function isFlagged(label: Label): boolean {
  return !label.trusted || label.readers !== "public";
}

/** ``"`to` ("eve@x.com") is untrusted: it came from an email from eve@x.com"``. */
export function untrustedText(call: ToolCall, path: string, label: Label): string {
  return `${nameArg(call.args, path)} is untrusted: ${originText(label)}`;
}

/** Why the set of arguments a call has is flagged: what decided which keys are there. */
export function shapeText(label: Label): string {
  const which = label.trusted ? secrecyText(label) : label.isPublic ? "untrusted" : `untrusted and ${secrecyText(label)}`;
  return `${which} data decided which arguments the call has: ${originText(label)}`;
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
  const origin = context.sources.length > 0 ? ` from ${listOf(context.sources, describeSource)}` : " of unrecorded origin";
  return `the call sits under a branch or loop that depends on ${parts.join(" and ")}${origin}`;
}

/** The top-level arguments a call has, in order: the keys whose value is not undefined. */
export function argumentNames(call: Pick<ToolCall, "args">): string[] {
  return Object.keys(call.args).filter((key) => call.args[key] !== undefined);
}

/** Top-level argument paths a policy should look at: present ones, and ones the program set to undefined. */
export function argumentPaths(call: ToolCall): string[] {
  const paths = new Set(argumentNames(call));
  for (const part of call.parts ?? []) paths.add(part.path.split(".")[0]);
  return [...paths].filter((p) => p !== "");
}

function joinLabels(labels: readonly Label[]): Label {
  return labels.reduce((a, b) => a.join(b));
}

function topLevel(call: ToolCall, names: readonly string[]): ArgumentProvenance[] {
  const shown = names.slice(0, MAX_LISTED_ARGUMENTS).map((path) => {
    const label = call.label(path);
    return { path, label, explanation: argumentText(call, path, label) };
  });
  const rest = names.slice(MAX_LISTED_ARGUMENTS);
  if (rest.length === 0) return shown;
  const label = joinLabels(rest.map((path) => call.label(path)));
  const flagged = rest.filter((path) => isFlagged(call.label(path))).length;
  const what = flagged === 0 ? "" : `, ${flagged} of them untrusted or private`;
  return [...shown, { path: "", label, omitted: rest.length, explanation: `and ${rest.length} more arguments${what}: together they are ${labelText(label)}` }];
}

/** The parts of each argument, found in one pass over the call's parts. */
function partsByArgument(call: ToolCall, names: ReadonlySet<string>): Map<string, Array<{ path: string; label: Label }>> {
  const out = new Map<string, Array<{ path: string; label: Label }>>();
  for (const p of call.parts) {
    const cut = p.path.indexOf(".");
    if (cut < 0) continue;
    const top = p.path.slice(0, cut);
    if (!names.has(top)) continue;
    let list = out.get(top);
    if (list === undefined) out.set(top, (list = []));
    list.push(p);
  }
  return out;
}

/**
 * Nested parts that pinpoint a problem inside an argument (`to.1` of a recipient list):
 * listed only when the argument's parts differ, so the whole-argument line would not say which.
 * At most {@link MAX_LISTED_PARTS} in all; the rest of an argument's flagged parts are summarised.
 */
function pinpointed(call: ToolCall, tops: readonly ArgumentProvenance[]): ArgumentProvenance[] {
  const out: ArgumentProvenance[] = [];
  const listed = tops.filter((t) => t.omitted === undefined);
  const byArg = partsByArgument(call, new Set(listed.map((t) => t.path)));
  for (const top of listed) {
    const inside = byArg.get(top.path) ?? [];
    if (inside.every((p) => p.label.equals(inside[0].label))) continue;
    const flagged = inside.filter((p) => isFlagged(p.label));
    const room = Math.max(0, MAX_LISTED_PARTS - out.length);
    for (const part of flagged.slice(0, room)) {
      out.push({ path: part.path, label: part.label, explanation: argumentText(call, part.path, part.label) });
    }
    const rest = flagged.slice(room);
    if (rest.length > 0) {
      const label = joinLabels(rest.map((p) => p.label));
      out.push({ path: top.path, label, omitted: rest.length, explanation: `and ${rest.length} more parts of \`${top.path}\` are ${labelText(label)}` });
    }
  }
  return out;
}

/** Per-argument provenance and the context explanation of a call. */
export function explainCall(call: ToolCall): CallExplanation {
  const tops = topLevel(call, argumentNames(call));
  return {
    arguments: [...tops, ...pinpointed(call, tops)],
    context: contextText(call.context),
    contextFlagged: isFlagged(call.context),
  };
}
