/**
 * Endorsements: a person vouched for a value at one tool's argument. The store keeps an
 * audit log of every endorsement and every later use of one; {@link withEndorsements}
 * re-evaluates a policy with endorsed values treated as trusted, so the same value at the
 * same place does not ask again.
 */
import { Label, joinAll, type Readers } from "../labels/index.js";
import type { ToolCall } from "../tools/types.js";
import { canonicalJson } from "./canonical.js";
import { isFlagged } from "./explain.js";
import { isWithin, lookup, nearestExisting } from "./paths.js";
import type { Policy } from "./types.js";

/** What a person vouches for. */
export interface EndorseInput {
  /** The tool the value goes to. */
  tool: string;
  /** The argument path, e.g. `"to"`. */
  path: string;
  /** The exact value vouched for (plain JSON). */
  value: unknown;
  /** Who vouched, e.g. `"alice@corp.com"`. */
  by: string;
  /** Why, in their words or the prompt they answered. */
  reason: string;
  /** Principals the value is released to (`"public"` for everyone); readers are unchanged when absent. */
  readers?: Readers;
}

/** A recorded endorsement. */
export interface Endorsement extends Readonly<EndorseInput> {
  /** Sequence number in its store, from 1. */
  readonly id: number;
  /** When it was made, ISO 8601. */
  readonly at: string;
}

/** One line of the audit log: an endorsement made, or applied to a later call. */
export interface AuditEntry {
  readonly action: "endorse" | "use";
  readonly endorsement: Endorsement;
  readonly at: string;
}

/** A store of endorsements made by {@link createEndorsements}. */
export interface EndorsementStore {
  /** Records an endorsement. Throws a TypeError when a field is missing or the value is not JSON. */
  endorse(input: EndorseInput): Endorsement;
  /** True when this exact value at this tool and path has been endorsed. */
  isEndorsed(tool: string, path: string, value: unknown): boolean;
  /** The endorsement of this exact value at this tool and path, if any. */
  find(tool: string, path: string, value: unknown): Endorsement | undefined;
  /** Notes in the audit log that an endorsement was applied to a call. */
  recordUse(endorsement: Endorsement): void;
  /** Every endorsement of a tool (or of all tools), oldest first. */
  list(tool?: string): readonly Endorsement[];
  /** The audit log, oldest first. */
  readonly log: readonly AuditEntry[];
}

function nonEmpty(field: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`endorse: ${field} must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  return value;
}

function keyOf(tool: string, path: string, value: unknown): string | undefined {
  try {
    return `${tool}\u0000${path}\u0000${canonicalJson(value)}`;
  } catch {
    return undefined;
  }
}

/** Makes an empty endorsement store. `now` gives timestamps (for reproducible records). */
export function createEndorsements(options: { now?: () => Date } = {}): EndorsementStore {
  const now = options.now ?? (() => new Date());
  const byKey = new Map<string, Endorsement>();
  const all: Endorsement[] = [];
  const log: AuditEntry[] = [];

  function endorse(input: EndorseInput): Endorsement {
    if (input === null || typeof input !== "object") throw new TypeError("endorse: expected { tool, path, value, by, reason }");
    const tool = nonEmpty("tool", input.tool);
    const path = nonEmpty("path", input.path);
    let value: unknown;
    try {
      value = JSON.parse(canonicalJson(input.value));
    } catch (e) {
      throw new TypeError(`endorse: value must be plain JSON (${(e as Error).message})`);
    }
    const endorsement: Endorsement = Object.freeze({
      tool,
      path,
      value,
      by: nonEmpty("by", input.by),
      reason: nonEmpty("reason", input.reason),
      ...(input.readers === undefined ? {} : { readers: input.readers }),
      id: all.length + 1,
      at: now().toISOString(),
    });
    all.push(endorsement);
    byKey.set(keyOf(tool, path, value)!, endorsement);
    log.push(Object.freeze({ action: "endorse", endorsement, at: endorsement.at }));
    return endorsement;
  }

  function find(tool: string, path: string, value: unknown): Endorsement | undefined {
    const key = keyOf(tool, path, value);
    return key === undefined ? undefined : byKey.get(key);
  }

  return {
    endorse,
    find,
    isEndorsed: (tool, path, value) => find(tool, path, value) !== undefined,
    recordUse: (endorsement) => void log.push(Object.freeze({ action: "use", endorsement, at: now().toISOString() })),
    list: (tool) => (tool === undefined ? [...all] : all.filter((e) => e.tool === tool)),
    log,
  };
}

function widen(readers: Readers, released: Readers | undefined): Readers {
  if (released === undefined) return readers;
  if (readers === "public" || released === "public") return "public";
  return [...readers, ...released];
}

/** The label of an endorsed value: trusted, released to the endorsed readers, marked with who vouched. */
function release(label: Label, e: Endorsement): Label {
  return Label.of({ readers: widen(label.readers, e.readers), trusted: true, sources: [...label.sources, `endorsed:${e.by}`] });
}

/** The endorsements that apply to this call: same tool, same path, same value. */
export function endorsementsFor(call: ToolCall, store: EndorsementStore): Endorsement[] {
  return store.list(call.tool).filter((e) => {
    const at = lookup(call.args, e.path);
    return at.found && store.find(call.tool, e.path, at.value) === e;
  });
}

/** The call as it looks once the given endorsements are applied to its labels. */
export function endorsedView(call: ToolCall, hits: readonly Endorsement[]): ToolCall {
  if (hits.length === 0) return call;
  const relabel = (path: string, label: Label): Label => {
    const e = hits.find((h) => isWithin(path, h.path));
    return e === undefined ? label : release(label, e);
  };
  const parts = call.parts.map((p) => ({ path: p.path, label: relabel(p.path, p.label) }));
  const label = (path?: string): Label => {
    const at = path === undefined ? undefined : nearestExisting(call.args, path);
    if (at !== undefined && hits.some((h) => isWithin(at, h.path))) return relabel(at, call.label(path));
    const inside = parts.filter((p) => isWithin(p.path, at));
    if (!hits.some((h) => isWithin(h.path, at)) || inside.length === 0) return call.label(path);
    // Only the endorsed subtrees are replaced: what decided which keys `at` has (for the root,
    // the part `parts` leaves out) still counts.
    const own = call.shape?.(at ?? "");
    return joinAll([...(own === undefined ? [] : [own]), ...inside.map((p) => p.label)]);
  };
  // Vouching for a value vouches for the keys it has, not for which keys hold it.
  const shape = call.shape === undefined ? undefined : (path?: string): Label => {
    const own = call.shape!(path);
    const e = path === undefined || path === "" ? undefined : hits.find((h) => isWithin(path, h.path));
    return e === undefined ? own : release(own, e);
  };
  return { tool: call.tool, args: call.args, context: call.context, parts, label, ...(shape ? { shape } : {}) };
}

/**
 * The policy, evaluated with endorsed argument values treated as trusted (and released to
 * the readers the endorsement names). Each endorsement applied is noted in the audit log.
 */
export function withEndorsements(policy: Policy, store: EndorsementStore): Policy {
  if (typeof policy !== "function") throw new TypeError("withEndorsements(policy, store): policy must be a function");
  return (call) => {
    const hits = endorsementsFor(call, store);
    const decision = policy(endorsedView(call, hits));
    hits.forEach((e) => store.recordUse(e));
    return decision;
  };
}

/** Options of {@link endorseCall}. */
export interface EndorseCallOptions {
  by: string;
  reason: string;
  /** Principals the values are released to; readers are unchanged when absent. */
  readers?: Readers;
  /** Argument paths to endorse; default every top-level argument that is untrusted or private. */
  paths?: readonly string[];
}

/**
 * Records what a person approved: an endorsement for each flagged argument of the call.
 * The runtime calls this when approve() says yes and the host asked to remember it.
 */
export function endorseCall(store: EndorsementStore, call: ToolCall, options: EndorseCallOptions): Endorsement[] {
  const paths = options.paths ?? Object.keys(call.args).filter((p) => call.args[p] !== undefined && isFlagged(call.label(p)));
  return paths
    .filter((path) => lookup(call.args, path).found)
    .map((path) =>
      store.endorse({
        tool: call.tool,
        path,
        value: lookup(call.args, path).value,
        by: options.by,
        reason: options.reason,
        ...(options.readers === undefined ? {} : { readers: options.readers }),
      }),
    );
}
