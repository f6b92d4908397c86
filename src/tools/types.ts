import { Label } from "../labels/index.js";
import { checkOutput, declaredLabel, labelParts, type OutputLabels } from "./output.js";
import { checkRateLimitOptions, checkRetryOptions, type RateLimitOptions, type RetryOptions, type ToolContext } from "./call-options.js";

export type { BreakerOptions, RateLimitOptions, RetryOptions, ToolContext } from "./call-options.js";

/** A JSON Schema object, as accepted by ajv. */
export type JsonSchema = Record<string, unknown>;

/** A plain JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What a policy decided about one tool call. */
export type Decision =
  | { readonly kind: "allow"; readonly reason?: string }
  | { readonly kind: "deny"; readonly reason: string }
  | { readonly kind: "ask"; readonly reason: string };

/** Allows the call. */
export function allow(reason?: string): Decision {
  return reason === undefined ? { kind: "allow" } : { kind: "allow", reason };
}

/** Refuses the call; the run stops with status `"blocked"`. */
export function deny(reason: string): Decision {
  return { kind: "deny", reason };
}

/** Asks a person (the runtime's `approve` callback); without approval the run stops. */
export function ask(reason: string): Decision {
  return { kind: "ask", reason };
}

/** A tool call as a policy sees it, before it runs. */
export interface ToolCall {
  /** The tool's name. */
  readonly tool: string;
  /** The arguments as plain values. */
  readonly args: Record<string, unknown>;
  /**
   * The joined label of the argument at `path` (`"to"`, `"recipients.0"`), everything nested
   * inside it included; with no path, of all arguments. An unknown path gives the label of
   * the nearest existing ancestor.
   */
  label(path?: string): Label;
  /** The label of the control flow that led to this call. */
  readonly context: Label;
  /** Every labelled leaf of the arguments: its dotted path and its own joined label. */
  readonly parts: ReadonlyArray<{ readonly path: string; readonly label: Label }>;
  /**
   * The label of which keys the object at `path` has (no path: which arguments the call has),
   * so that a rule can check what decided that an argument is missing. For a path that is not
   * an object, `label(path)`. Absent on a hand-made call, whose shape nothing decided.
   */
  shape?(path?: string): Label;
}

/** A tool a program can call; make one with {@link defineTool}. */
export interface ToolSpec<A = Record<string, unknown>, R = unknown> {
  /** How programs call it: `name({ ... })`. Must be a valid JavaScript identifier. */
  name: string;
  /** What it does, shown to the planner. */
  description: string;
  /** JSON Schema of the one object argument. */
  parameters?: JsonSchema;
  /** JSON Schema of the result, shown to the planner when given. */
  returns?: JsonSchema;
  /** True for tools whose call changes the world (sinks). Default false. */
  sideEffect?: boolean;
  /** Label of the result; default untrusted, public, with the tool's name as source. */
  label?: (result: R, args: A) => Label;
  /**
   * The result's label as data, and the labels of parts other sources vouch for; see
   * {@link OutputLabels}. It drives the runtime label when `label` is not given, and the static
   * plan check reads it.
   */
  output?: OutputLabels;
  /** Decides each call before it runs. */
  policy?: (call: ToolCall) => Decision;
  /**
   * Performs the call. Arguments are plain JSON; the result is plain JSON, possibly with
   * labeled(...) parts. `ctx` carries the idempotency key, the attempt's abort signal and its
   * number (see {@link ToolContext}).
   */
  run: (args: A, ctx?: ToolContext) => unknown | Promise<unknown>;
  /** How calls of this tool are retried; overrides the runtime's `retry` field by field. */
  retry?: RetryOptions;
  /** How fast this tool may be called. */
  rateLimit?: RateLimitOptions;
  /**
   * Whether making the call again with the same `ctx.idempotencyKey` does its effect at most once,
   * for a side effect whose attempt may have acted (a timeout, a connection lost after sending).
   * Unset (the default): as the contract says, such an attempt is retried with the same key, which
   * the tool dedupes by. `true`: retried too, but only once the timed-out attempt has ended (a
   * value it ends with is the call's). `false`: the tool cannot dedupe (an MCP tool unless a
   * trusted server annotates it idempotentHint): not retried, the outcome is recorded as
   * `"unknown"`, and `previous` asks a person before making the call again.
   */
  idempotent?: boolean;
  /** Worst-case US dollars one attempt may cost (a paid API), checked against the budget before each attempt. */
  costPerAttempt?: number;
  /**
   * Who wrote the tool's declaration (name, description, schemas). Messages built from it, such
   * as a validation error quoting the parameters schema, carry this label. Default trusted: the
   * host's own; an untrusted MCP server's tool is untrusted.
   */
  schemaLabel?: Label;
  /**
   * The label of what a program sees when a call fails, before sluice forces it untrusted: who
   * may read the tool's (or server's) error text. Default: the tool's `label` for an undefined
   * result (readable by no one when that cannot be told), or untrusted and public without one.
   */
  failureLabel?: Label;
  /**
   * Key of the circuit breaker and token bucket this tool shares with others (`"mcp:<server>"`
   * for an MCP server's tools, which fail and are rate-limited together). Default its name.
   */
  resource?: string;
  /**
   * Attributes for the span of each call (read when the call starts): what an operator needs to
   * find the server (MCP: method, server, transport, session). Never arguments or results.
   */
  traceAttributes?: () => Readonly<Record<string, string | number | boolean>>;
}

/** A tool after {@link defineTool}: its spec with defaults filled in. */
export interface Tool<A = Record<string, unknown>, R = unknown> extends ToolSpec<A, R> {
  readonly parameters: JsonSchema;
  readonly sideEffect: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Marks label functions defineTool made from `output`: a tool defined again from a defined one derives its own. */
const DERIVED = Symbol.for("sluice.derivedFromOutput");
/** On a `run` defineTool wrapped to label the declared parts: the tool's own `run`, wrapped again for each declaration. */
const BASE_RUN = Symbol.for("sluice.baseRun");

type Marked = { [DERIVED]?: true };
type Wrapped<F> = { [BASE_RUN]?: F };

/** True when the tool's result label comes from its `output` declaration alone (no `label` function of its own). */
export function labelIsDeclared(tool: Pick<ToolSpec<any, any>, "label" | "output">): boolean {
  return tool.output !== undefined && (tool.label === undefined || (tool.label as Marked)[DERIVED] === true);
}

function mark<F extends object>(f: F): F {
  Object.defineProperty(f, DERIVED, { value: true });
  return f;
}

/**
 * The spec's own `run` and `label`, without what an earlier defineTool derived from an earlier
 * `output`: `defineTool({ ...tool, output })` re-declares the labels, and a label or part
 * wrapper closed over the old declaration would keep the old labels at run time while the plan
 * check reads the new ones.
 */
function ownParts<A, R>(spec: ToolSpec<A, R>): Pick<ToolSpec<A, R>, "run" | "label"> {
  const run = (spec.run as Wrapped<ToolSpec<A, R>["run"]>)[BASE_RUN] ?? spec.run;
  const label = spec.label !== undefined && (spec.label as Marked)[DERIVED] === true ? undefined : spec.label;
  return { run, label };
}

/** `run` with the declared parts labelled, and the label function the declaration gives. */
function fromOutput<A, R>(spec: ToolSpec<A, R>, output: OutputLabels | undefined): Pick<ToolSpec<A, R>, "run" | "label"> {
  const own = ownParts(spec);
  const run = own.run;
  if (output === undefined) return own;
  const wrapped = output.parts === undefined
    ? run
    : (...a: Parameters<typeof run>) => {
        const r = run(...a);
        const apply = (x: unknown) => labelParts(output, x, a[0]);
        return r instanceof Promise ? r.then(apply) : apply(r);
      };
  if (wrapped !== run) Object.defineProperty(wrapped, BASE_RUN, { value: run });
  const label = own.label ?? mark((result: R, args: A) => declaredLabel(spec.name, output, result, args));
  return { run: wrapped, label };
}

/** Declares a tool. Throws a TypeError naming the problem when the spec is malformed. */
export function defineTool<A = Record<string, unknown>, R = unknown>(spec: ToolSpec<A, R>): Tool<A, R> {
  if (spec === null || typeof spec !== "object") throw new TypeError("defineTool: expected a tool spec object");
  if (typeof spec.name !== "string" || !IDENTIFIER.test(spec.name)) {
    throw new TypeError(`defineTool: name must be a JavaScript identifier, got ${JSON.stringify(spec.name)}`);
  }
  if (typeof spec.run !== "function") throw new TypeError(`defineTool(${spec.name}): run must be a function`);
  if (spec.retry !== undefined) checkRetryOptions(`defineTool(${spec.name}).retry`, spec.retry);
  if (spec.rateLimit !== undefined) checkRateLimitOptions(`defineTool(${spec.name}).rateLimit`, spec.rateLimit);
  if (spec.costPerAttempt !== undefined && !(typeof spec.costPerAttempt === "number" && spec.costPerAttempt >= 0 && Number.isFinite(spec.costPerAttempt))) {
    throw new TypeError(`defineTool(${spec.name}).costPerAttempt must be a non-negative number of dollars, got ${JSON.stringify(spec.costPerAttempt)}`);
  }
  if (spec.idempotent !== undefined && typeof spec.idempotent !== "boolean") throw new TypeError(`defineTool(${spec.name}).idempotent must be true or false, got ${JSON.stringify(spec.idempotent)}`);
  if (spec.resource !== undefined && (typeof spec.resource !== "string" || spec.resource === "")) throw new TypeError(`defineTool(${spec.name}).resource must be a non-empty string such as "mcp:files"`);
  for (const key of ["schemaLabel", "failureLabel"] as const) {
    if (spec[key] !== undefined && !(spec[key] instanceof Label)) throw new TypeError(`defineTool(${spec.name}).${key} must be a Label, e.g. Label.untrusted("mcp:server")`);
  }
  const parameters = spec.parameters ?? { type: "object", properties: {} };
  if (spec.output !== undefined) checkOutput(spec.name, spec.output);
  return Object.freeze({
    ...spec,
    ...fromOutput(spec, spec.output),
    description: spec.description ?? "",
    parameters,
    sideEffect: spec.sideEffect === true,
  });
}
