/**
 * What a rule may read from one argument of a call, in one place, so that no rule fails open
 * on what it cannot see: the argument's label whether it is there or not (an absence data
 * decided is data), and the principals a recipient argument names, or a refusal when its
 * shape names no one sluice can tell.
 */
import type { Label } from "../labels/index.js";
import type { ToolCall } from "../tools/types.js";
import { hasPath, lookup, nearestExisting } from "./paths.js";

/** The label of an argument as a rule checks it. */
export type ArgumentLabel =
  /** The argument is there: the label of its value, everything inside included. */
  | { readonly present: true; readonly label: Label }
  /**
   * The argument is missing: the label of what decided that, or undefined when nothing
   * recorded it (a key the program never wrote in an object built at a trusted point).
   */
  | { readonly present: false; readonly label: Label | undefined };

/**
 * The label of what decided that the argument at `path` is missing: the shape of the nearest
 * object above it that exists (which keys it has), joined with the label of an undefined the
 * program wrote there; undefined when the argument is present, or when nothing recorded either.
 */
export function absenceLabel(call: ToolCall, path: string): Label | undefined {
  if (hasPath(call.args, path)) return undefined;
  const written = (call.parts ?? []).find((p) => p.path === path)?.label;
  const shape = call.shape?.(nearestExisting(call.args, path) ?? "");
  if (written === undefined || shape === undefined) return written ?? shape;
  return written.join(shape);
}

/** The label of the argument at `path`, present or not: every rule reads arguments through this. */
export function argumentLabel(call: ToolCall, path: string): ArgumentLabel {
  return hasPath(call.args, path) ? { present: true, label: call.label(path) } : { present: false, label: absenceLabel(call, path) };
}

/** How a policy reads the people a value of its tool's own shape names; undefined or an empty list when it cannot tell. */
export type PrincipalReader = (value: unknown) => string | readonly string[] | undefined;

/** The principals a recipient value names, or what could not be read. */
export type Principals = { readonly ok: true; readonly principals: string[] } | { readonly ok: false; readonly what: string };

/** Fields that name a person in the usual recipient objects, most specific first. */
const NAMING_FIELDS = ["email", "address", "emailAddress", "mail", "id", "userId", "user_id", "username", "handle", "phone", "name"];
const ADDRESS = /^[^\s@]+@[^\s@]+$/;
/** How deep and how wide an object is searched for addresses: recipient objects are small. */
const MAX_DEPTH = 6;
const MAX_LEAVES = 1000;

function refuse(what: string): Principals {
  return { ok: false, what };
}

function splitNames(text: string): string[] {
  return text.split(/[,;]/).map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Every address-like string under `value`, or undefined when there are too many leaves to look at. */
function addressesIn(value: unknown, depth: number, budget: { leaves: number }): string[] | undefined {
  if (--budget.leaves < 0 || depth > MAX_DEPTH) return undefined;
  if (typeof value === "string") return splitNames(value).filter((s) => ADDRESS.test(s));
  if (value === null || typeof value !== "object") return [];
  const out: string[] = [];
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    const found = addressesIn(v, depth + 1, budget);
    if (found === undefined) return undefined;
    out.push(...found);
  }
  return out;
}

function readOne(value: unknown, depth: number): Principals {
  if (depth > MAX_DEPTH) return refuse("a recipient nested too deep");
  if (typeof value === "string") return { ok: true, principals: splitNames(value) };
  // A chat or account id is a principal as much as an address is.
  if (typeof value === "number" && Number.isFinite(value)) return { ok: true, principals: [String(value)] };
  if (value === null) return { ok: true, principals: [] };
  if (Array.isArray(value)) {
    const principals: string[] = [];
    for (const v of value) {
      const one = readOne(v, depth + 1);
      if (!one.ok) return one;
      principals.push(...one.principals);
    }
    return { ok: true, principals };
  }
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const named = NAMING_FIELDS.filter((k) => Object.prototype.hasOwnProperty.call(record, k) && record[k] !== undefined && record[k] !== null);
    const first = named.length > 0 ? readOne(record[named[0]], depth + 1) : undefined;
    if (first !== undefined && !first.ok) return first;
    // An address anywhere in the object may be someone it reaches; count them all.
    const addresses = addressesIn(value, depth, { leaves: MAX_LEAVES });
    if (addresses === undefined) return refuse("a recipient too large to read");
    const principals = [...new Set([...(first?.principals ?? []), ...addresses])];
    return principals.length > 0 ? { ok: true, principals } : refuse("an object with no field that names anyone");
  }
  return refuse(`a ${typeof value}`);
}

/**
 * The principals `value` names: a string (split on commas and semicolons, as in
 * `"a@x.com, b@y.com"`), a number (a chat or account id), a list of them, or objects that name
 * someone by `email`, `address`, `emailAddress`, `id`, `name` and the like, with every address
 * anywhere inside them. Anything else is refused: a rule cannot tell who it reaches.
 */
export function principalsOf(value: unknown, reader?: PrincipalReader): Principals {
  if (reader !== undefined) {
    let read: string | readonly string[] | undefined;
    try {
      read = reader(value);
    } catch {
      return refuse("a recipient the policy's principalsOf could not read");
    }
    const list = typeof read === "string" ? [read] : read;
    if (Array.isArray(list) && list.length > 0 && list.every((p) => typeof p === "string" && p.length > 0)) return { ok: true, principals: [...list] };
  }
  return readOne(value, 0);
}

/** The principals named by the argument at `path` (none when it is missing), or what could not be read. */
export function principalsAt(args: unknown, path: string, reader?: PrincipalReader): Principals {
  const found = lookup(args, path);
  return found.found ? principalsOf(found.value, reader) : { ok: true, principals: [] };
}
