/**
 * The host side of a run: answers a program's requests for tools and the quarantined model,
 * deciding every tool call with the policies before it runs and recording it. What comes back
 * from a tool or the reader is read once into plain data ({@link readHostParts}); what a tool is
 * given is a copy of the arguments the policies saw, which stay frozen in the record.
 */
import { Label } from "../labels/index.js";
import type { HostOutcome, HostRequest } from "../interpreter/program.js";
import { approvalRequest, decideCall, endorseCall, traceReason, withEndorsements, type EndorsementStore, type Permissions } from "../policy/index.js";
import type { CompiledSchema, ProgramSchemas } from "../tools/schema.js";
import { labelParts } from "../tools/output.js";
import { HostDataError, type HostPart, readHostData, readHostParts, thrownText } from "../interpreter/convert.js";
import type { Decision, JsonSchema, Tool, ToolCall } from "../tools/types.js";
import { allBudgets, createAttemptBudget, createKeyring, lentBudget, failureLabelOf as failureLabelOfCall, failuresAreOwn, madeLayer, newRunKey, withCallScope, type AttemptBudget, type AttemptLimits, type CallLayer, type CallObserver, type Keyring } from "../calls/index.js";
import { ATTRIBUTES, startRunSpan, traceDecision, type RunSpan } from "../tracing/index.js";

export { thrownText } from "../interpreter/convert.js";
import { toolCallView } from "./call-view.js";
import { type CallRecord, NotEnoughInformation, type RunResult, type RuntimeOptions } from "./types.js";

export { toolCallView } from "./call-view.js";

/** The name under which programs reach the quarantined model. */
export const QUERY = "query_ai_assistant";

/** Everything one run accumulates on the host side. */
export interface RunLog {
  calls: CallRecord[];
  queries: RunResult["queries"];
  /** Call ids and idempotency keys, handed out in program order. */
  keys: Keyring;
  /** The run's `invoke_agent` span: every call's span is its child. */
  span: RunSpan;
  /** Tool attempts and worst-case dollars, checked before every attempt. */
  budget?: AttemptBudget;
  /** Aborted when the run ends: no attempt or wait of its calls outlives it. */
  stop: AbortController;
  /** Aborted once the run is ending (a limit, or its end): calls in flight settle, but start no new attempt. */
  ending: AbortController;
  /** Calls started and not yet settled: the run does not end before they do, so what they did is recorded. */
  inflight: Set<Promise<unknown>>;
}

/** Host-side settings of a runtime, fixed when it is created. */
export interface HostConfig extends RuntimeOptions {
  permissions?: Permissions;
  endorsements?: EndorsementStore;
  /** A budget of tool attempts for each run. */
  budget?: AttemptLimits;
  /** Watches every call the layer runs (tracing). */
  observer?: CallObserver;
  /** Put trusted, public arguments on the call's span (`gen_ai.tool.call.arguments`). */
  traceArguments?: boolean;
}

/** A tool with its parameters schema compiled. */
export interface HostTool {
  tool: Tool<any, any>;
  parameters: CompiledSchema;
}

/** What the host side of one runtime holds; nothing in it is shared with another runtime. */
export interface Host {
  tools: Map<string, HostTool>;
  /** Compiles the schemas programs pass to the quarantined model. */
  schemas: ProgramSchemas;
  config: HostConfig;
  /** The most a tool's result or an answer may take, about: the run's memory limit. */
  maxBytes: number;
  /**
   * Each recorded call's result with its `labeled(...)` parts and the label the program saw, for
   * replaying it in a later attempt (`previous`): the record holds plain data only, and a replay
   * must not lose a part's label, nor what a replay of another runtime's record joined in. Keyed
   * by the record object, so only this runtime's own records are found.
   */
  results: WeakMap<CallRecord, SeenResult>;
  /** The tool-call layer: timeouts, retries, breakers and buckets shared by the runtime's runs. */
  layer: CallLayer;
}

/** A call's result as the program saw it: the data with its parts, and the label of the whole. */
export interface SeenResult {
  /** The plain value, frozen: the record's, the label function's and the program's copy. */
  value: unknown;
  /** Where its `labeled(...)` parts are. */
  parts: HostPart[];
  /** The label of the whole, as the program saw it (a replay's foreign join included). */
  label: Label;
}

/**
 * The host side of a new run; `previous` lends its run key, so repeated calls keep their
 * idempotency keys; `parent` is the span the run's goes under (see `RunOptions.parent`).
 */
export function openRun(host: Host, previous?: RunResult, parent?: unknown): RunLog {
  const given = previous !== null && typeof previous === "object" ? previous.runKey : undefined;
  // The runtime's own limits, and those of whoever started the run (an agent's meter), checked before every attempt.
  const budget = allBudgets(host.config.budget === undefined ? undefined : createAttemptBudget(host.config.budget), lentBudget());
  return {
    calls: [],
    queries: [],
    keys: createKeyring(typeof given === "string" && given !== "" ? given : newRunKey()),
    span: startRunSpan(parent === undefined ? {} : { parent }),
    ...(budget === undefined ? {} : { budget }),
    stop: new AbortController(),
    ending: new AbortController(),
    inflight: new Set(),
  };
}

/**
 * Why a run's signals abort when it ends: an AbortError, as `abort()` gives, made once (each
 * `abort()` without a reason makes a DOMException with its stack: tens of µs a run).
 */
const RUN_ENDED = new DOMException("the run has ended", "AbortError");

/**
 * Ends the host side of a run: waits for every call still in flight (a run that ended early,
 * by a limit in a batch or a worker's death, must not leave a payment recorded as not made),
 * stops anything later, ends its span, and gives the result its run key.
 */
export async function closeRun(log: RunLog, result: RunResult, previous?: RunResult, sideEffect: (tool: string) => boolean = () => true): Promise<RunResult> {
  log.ending.abort(RUN_ENDED);
  while (log.inflight.size > 0) await Promise.allSettled([...log.inflight]);
  log.stop.abort(RUN_ENDED);
  log.span.end({ status: result.status, ...(result.error === undefined ? {} : { error: { kind: result.error.kind } }), calls: log.calls.length });
  const earlier = carriedForward(previous, result.calls, sideEffect);
  return { ...result, runKey: log.keys.runKey, ...(earlier.length === 0 ? {} : { earlier }) };
}

/** A record that says its call did, or may have done, its effect. */
const acted = (c: CallRecord): boolean => "result" in c || c.outcome === "unknown";

/**
 * What earlier runs of the chain did that this run's own record does not say: their records of
 * calls that acted or may have acted, unless this run has a record of the same call (its
 * idempotency key) that says so too.
 */
function carriedForward(previous: RunResult | undefined, calls: readonly CallRecord[], sideEffect: (tool: string) => boolean): CallRecord[] {
  if (previous === undefined) return [];
  const own = new Set(calls.filter(acted).map((c) => c.idempotencyKey));
  const before = [...previous.calls, ...(Array.isArray(previous.earlier) ? previous.earlier : [])];
  return before.filter((c) => c !== null && typeof c === "object" && acted(c) && typeof c.idempotencyKey === "string" && !own.has(c.idempotencyKey) && sideEffect(c.tool));
}

/** A layer's refusal that ends the run as a limit does (a budget of attempts used up). */
export class HostLimit extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostLimit";
  }
}

/** Freezes plain data all the way down, so the arguments a policy decided on are the ones recorded. */
function deepFreeze(x: unknown): void {
  const stack = [x];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object" || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v)) stack.push(child);
  }
}

async function answerQuery(request: HostRequest, host: Host, log: RunLog): Promise<HostOutcome> {
  const [prompt, schema] = request.args;
  const label = request.argLabels.reduce((l, x) => l.join(x), request.context);
  if (typeof prompt !== "string") return { kind: "error", cls: "TypeError", message: `${QUERY}(prompt, schema): prompt must be a string`, label: Label.trusted() };
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return { kind: "error", cls: "TypeError", message: `${QUERY}(prompt, schema): schema must be a JSON Schema object`, label: Label.trusted() };
  const entry: RunResult["queries"][number] = { prompt, schema: schema as JsonSchema, label };
  log.queries.push(entry);
  const reader = host.config.quarantined;
  if (reader === undefined) {
    entry.error = "no quarantined model is configured";
    return { kind: "error", cls: "Error", message: `${QUERY} is not available: the runtime has no quarantined model`, label: Label.trusted() };
  }
  let compiled: CompiledSchema;
  try {
    compiled = host.schemas.compile(schema as JsonSchema);
  } catch (err) {
    entry.error = `the schema cannot be used: ${thrownText(err)}`;
    // The text may quote the schema, whose label the interpreter joins into this error.
    return { kind: "error", cls: "TypeError", message: `${QUERY}(prompt, schema): the schema cannot be used: ${thrownText(err)}`, label: Label.trusted() };
  }
  let answer: unknown;
  try {
    // The reader's model calls go through this runtime's layer (its model:anthropic bucket and breaker), under the run's span, stopped with the run.
    const asked = withCallScope({ layer: host.layer, parent: log.span, signal: log.stop.signal }, async () => reader.query({ prompt, schema: schema as JsonSchema }));
    answer = readHostData(await asked, { labels: "strip", maxBytes: host.maxBytes });
  } catch (err) {
    entry.error = err instanceof HostDataError ? `the answer is not plain data: ${err.message}` : thrownText(err);
    if (err instanceof NotEnoughInformation) return { kind: "error", cls: "NotEnoughInformationError", message: thrownText(err), label: Label.trusted() };
    return { kind: "error", cls: "Error", message: `${QUERY} failed`, label: Label.untrusted(QUERY) };
  }
  const check = compiled.check(answer, "answer");
  if (!check.ok) {
    entry.error = `answer does not match the schema: ${check.errors}`;
    return { kind: "error", cls: "Error", message: `${QUERY}: the answer did not match the schema`, label: Label.trusted() };
  }
  entry.answer = answer;
  return { kind: "value", value: answer, parts: [], label: Label.of({ trusted: true, sources: [QUERY] }) };
}

function sameArgs(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The result of a side-effecting call an earlier attempt already made: the one with this call's
 * idempotency key (same tool, arguments and occurrence, so a plan that pays twice pays twice),
 * or for a record without keys, the first with the same tool and arguments.
 */
function doneBefore(tool: Tool<any, any>, args: Record<string, unknown>, key: string | undefined, previous: RunResult | undefined): CallRecord | undefined {
  return earlierCall(tool, args, key, previous, (c) => "result" in c);
}

/** The earlier attempt's record of this side-effecting call, of those that pass `which`. */
function earlierCall(tool: Tool<any, any>, args: Record<string, unknown>, key: string | undefined, previous: RunResult | undefined, which: (c: CallRecord) => boolean): CallRecord | undefined {
  if (!tool.sideEffect || previous === undefined) return undefined;
  const made = (c: CallRecord) => c.tool === tool.name && c.decision !== "deny" && c.approved !== false && which(c);
  if (key !== undefined && previous.calls.some((c) => typeof c.idempotencyKey === "string")) {
    // Then what earlier runs did that the previous one did not reach, deny or get approved.
    return previous.calls.find((c) => made(c) && c.idempotencyKey === key) ?? (Array.isArray(previous.earlier) ? previous.earlier.find((c) => c !== null && typeof c === "object" && made(c) && c.idempotencyKey === key) : undefined);
  }
  return previous.calls.find((c) => made(c) && sameArgs(c.args, args));
}

/**
 * A call an earlier attempt made with an unknown outcome (it timed out, and may have acted) is
 * not made again without a person when its tool said it cannot dedupe by its key
 * (`idempotent: false`): an allowed call asks, naming why. Other tools are made again with the
 * same key, which they dedupe by.
 */
function unsureBefore(decision: Decision, tool: Tool<any, any>, args: Record<string, unknown>, key: string, previous: RunResult | undefined): Decision {
  if (decision.kind !== "allow" || tool.idempotent !== false || earlierCall(tool, args, key, previous, (c) => c.outcome === "unknown" && !("result" in c)) === undefined) return decision;
  return { kind: "ask", reason: `${tool.name} may already have been done: an earlier attempt of this call failed without an answer (it timed out or lost its connection), so making it again could do it twice` };
}

/**
 * Who may read what a program sees of a tool's failure, before it is forced untrusted: the
 * tool's declared `failureLabel`, else its label for an undefined result; readable by no one
 * when the label function cannot say, untrusted and public for a tool with no label.
 */
function failureLabelOf(tool: Tool<any, any>, args: Record<string, unknown>): Label {
  if (tool.failureLabel instanceof Label) return tool.failureLabel;
  if (tool.label === undefined) return Label.untrusted(tool.name);
  try {
    const label = tool.label(undefined, args);
    if (label instanceof Label) return label;
  } catch {
    // No label for no result: nobody is known to be allowed to read it.
  }
  return Label.of({ readers: [], trusted: false, sources: [tool.name] });
}

/** The label of a failure the host sees: who may read the tool's errors, forced untrusted unless the tool's failures are its own. */
function failedCallLabel(tool: Tool<any, any>, args: Record<string, unknown>, host: Host): Label {
  // What the layer shares (its breaker, its buckets) decides whether other calls can fail this
  // one, as executeCall decides for a call made; a layer a user wrote is taken to share all.
  const shared = madeLayer(host.layer) ?? { breaker: true, rateLimits: {} };
  return failureLabelOfCall(failureLabelOf(tool, args), tool.name, tool.resource ?? tool.name, failuresAreOwn(tool, shared));
}

/**
 * A replayed result from a record another runtime made, which keeps plain data only: the parts
 * the tool declares are labelled again; parts it labelled on its own are lost, see foreignLabel.
 */
function foreignResult(tool: Tool<any, any>, result: unknown, args: Record<string, unknown>): unknown {
  if (tool.output?.parts === undefined) return result;
  try {
    return labelParts(tool.output, result, args);
  } catch {
    return result;
  }
}

/**
 * What a foreign replay joins into the result's label: untrusted (the record is plain data
 * anyone could have written), and, unless the tool declares its output (whose parts
 * foreignResult labels again), readable by no one: a part the tool labelled private is no
 * longer known, so every reader is assumed to be one it forbade.
 */
function foreignLabel(tool: Tool<any, any>): Label {
  const replayed = Label.untrusted(tool.name);
  return tool.output === undefined ? replayed.join(Label.of({ readers: [], sources: [`${tool.name} (replayed)`] })) : replayed;
}

/** Longest argument text put on a span; longer is cut (the record has it whole). */
const MAX_SPAN_ARGUMENTS = 4096;

/**
 * The call's span attributes: the tool's own (MCP: server, transport, session) and, only when
 * the runtime opts in with `traceArguments` and the arguments and the call's context are
 * trusted and public, the arguments. A span goes to whoever runs the tracing backend, so
 * nothing private and nothing a stranger wrote goes there; results never do.
 */
function spanAttributes(tool: Tool<any, any>, args: Record<string, unknown>, record: CallRecord, host: Host): Record<string, string | number | boolean> {
  let attrs: Record<string, string | number | boolean> = {};
  try {
    const own = tool.traceAttributes?.();
    if (own !== null && typeof own === "object") attrs = { ...own };
  } catch {
    // Tracing is best effort.
  }
  const a = record.argsLabel;
  const c = record.context;
  if (host.config.traceArguments === true && a?.trusted === true && a.isPublic && c?.trusted === true && c.isPublic) {
    const text = JSON.stringify(args) ?? "";
    attrs[ATTRIBUTES.toolArguments] = text.length > MAX_SPAN_ARGUMENTS ? `${text.slice(0, MAX_SPAN_ARGUMENTS - 1)}…` : text;
  }
  return attrs;
}

/**
 * Makes the call through the tool-call layer (timeout, retries, breaker, bucket, budget), the
 * tool getting a fresh copy of the arguments at every attempt: what it does to one cannot
 * change what was decided and recorded, nor what a retry sends.
 */
async function callThroughLayer(tool: Tool<any, any>, args: Record<string, unknown>, record: CallRecord, host: Host, log: RunLog): Promise<{ result: unknown; failureLabel: Label } | HostOutcome> {
  const resource = tool.resource ?? tool.name;
  // A layer createCallLayer made gives each attempt a fresh copy (freshArgs); another is given a
  // tool that copies (hostrev: a wrapper that rebuilds the request drops freshArgs).
  const own = madeLayer(host.layer) !== undefined;
  const call = host.layer.executeCall({
    tool: own ? tool : { ...tool, run: (_: unknown, ctx) => tool.run(structuredClone(args), ctx) },
    args,
    ...(own ? { freshArgs: true } : {}),
    callId: record.callId!,
    idempotencyKey: record.idempotencyKey!,
    decision: record.decision === "ask" ? "ask" : "allow",
    ...(record.approved === undefined ? {} : { approved: record.approved }),
    argsTrusted: record.argsLabel?.trusted === true && record.context?.trusted === true,
    resource,
    failureLabel: failureLabelOf(tool, args),
    signal: log.stop.signal,
    retriesStop: log.ending.signal,
    ...(log.budget === undefined ? {} : { budget: log.budget }),
    trace: { parent: log.span, attributes: spanAttributes(tool, args, record, host) },
  });
  log.inflight.add(call);
  const outcome = await call.finally(() => log.inflight.delete(call));
  record.attempts = outcome.attempts;
  record.durationMs = outcome.durationMs;
  if (outcome.kind === "limit") {
    // The run ends as a limit: the other calls of its batch settle without trying again.
    log.ending.abort(RUN_ENDED);
    record.error = outcome.message;
    record.failure = "limit";
    throw new HostLimit(outcome.message);
  }
  if (outcome.kind === "error") {
    record.error = outcome.failure.detail ?? outcome.message;
    record.failure = outcome.failure.kind;
    if (outcome.failure.outcome === "unknown") record.outcome = "unknown";
    return { kind: "error", cls: outcome.cls, message: outcome.message, label: outcome.label, call: { tool: tool.name, kind: outcome.failure.kind } };
  }
  return { result: outcome.value, failureLabel: outcome.failureLabel };
}

async function runTool(tool: Tool<any, any>, args: Record<string, unknown>, previous: RunResult | undefined, record: CallRecord, host: Host, log: RunLog): Promise<HostOutcome> {
  const done = doneBefore(tool, args, record.idempotencyKey, previous);
  if (done === undefined && log.ending.signal.aborted) {
    // Admitted while it waited for its approval, after another call of the batch ended the run:
    // not made. A repeat of this run must still know what an earlier attempt may have done.
    record.error = "not made: the run had already ended as a limit";
    record.failure = "limit";
    if (earlierCall(tool, args, record.idempotencyKey, previous, (c) => c.outcome === "unknown") !== undefined) record.outcome = "unknown";
    throw new HostLimit(record.error);
  }
  let result: unknown;
  // What the program saw of the result when it was first made or replayed, whichever came first.
  let seen: Label | undefined;
  // A replayed result whose labelled parts are unknown (a record not made by this runtime).
  let partsUnknown = false;
  // What a failure would have carried; a replayed call could have failed the first time too.
  let failureLabel: Label;
  const own = done === undefined ? undefined : host.results.get(done);
  let read: { value: unknown; parts: HostPart[] } | undefined = own;
  if (done !== undefined) {
    // Already done by an earlier attempt of the same run: not done twice.
    failureLabel = failedCallLabel(tool, args, host);
    seen = own?.label;
    partsUnknown = read === undefined;
    if (partsUnknown) result = foreignResult(tool, done.result, args);
    record.replayed = true;
  } else {
    const made = await callThroughLayer(tool, args, record, host, log);
    if ("kind" in made) return made;
    result = made.result;
    failureLabel = made.failureLabel;
  }
  if (read === undefined) {
    try {
      // Read once: the plain value (the record's, the label function's, the program's) and where its labelled parts are.
      read = readHostParts(result, { maxBytes: host.maxBytes });
    } catch (err) {
      const problem = err instanceof HostDataError ? err.message : thrownText(err);
      record.error = `the result is not plain data: ${problem}`;
      // It answered, so a side effect may have been done: a repeat asks before doing it again.
      if (tool.sideEffect) record.outcome = "unknown";
      // The message names what was found and where: the result's own data (its keys), whose
      // label the tool never gave, so nobody is known to be allowed to read it.
      const unread = Label.of({ readers: [], sources: [`${tool.name} (a result that is not plain data)`] });
      return { kind: "error", cls: "TypeError", message: `${tool.name} returned something that is not plain data: ${problem}`, label: failedCallLabel(tool, args, host).join(unread) };
    }
    // One copy, frozen as it was read, is shared by the record, the label function and what the program is sent.
  }
  record.result = read.value;
  let label = resultLabel(tool, read.value, args);
  // Parts the tool labelled on its own may have been stricter than the whole: assume the worst.
  if (partsUnknown) label = label.join(foreignLabel(tool));
  // A replay of a replay sees what the first replay saw: a foreign join is never forgotten.
  if (seen !== undefined) label = label.join(seen);
  host.results.set(record, { value: read.value, parts: read.parts, label });
  return { kind: "value", value: read.value, parts: read.parts, label, failureLabel };
}

/**
 * The tool's label for its result: untrusted when it has none; untrusted and readable by no one
 * when its label function throws or returns something else (it could not say who may read the
 * result, so nobody is known to be allowed: coarse, not leaky).
 */
function resultLabel(tool: Tool<any, any>, plain: unknown, args: Record<string, unknown>): Label {
  if (!tool.label) return Label.untrusted(tool.name);
  try {
    const label = tool.label(plain, args);
    if (label instanceof Label) return label;
  } catch {
    // Below: nobody is known to be allowed to read it.
  }
  return Label.of({ readers: [], trusted: false, sources: [`${tool.name} (its label function failed)`] });
}

/**
 * Answers a batch of requests. Calls are decided (and approved) in program order, and each
 * starts as soon as it is admitted, so one may run while the next waits for a person; a denial
 * stops the batch there. The batch answers only once every started call has settled: a budget
 * refusal or a host failure of one call is rethrown after the others, so none outlives the run
 * unrecorded.
 */
export async function answerAll(requests: HostRequest[], host: Host, log: RunLog, previous?: RunResult): Promise<HostOutcome[]> {
  if (requests.length === 1) return [await answer(requests[0], host, log, previous)];
  const ready: Array<Promise<HostOutcome>> = [];
  try {
    for (const request of requests) {
      // A call of the batch ended the run as a limit: the rest are not admitted.
      if (log.ending.signal.aborted) break;
      const gate = await admit(request, host, log, previous);
      if (gate.kind === "outcome") {
        ready.push(Promise.resolve(gate.outcome));
        if (gate.outcome.kind === "blocked") break;
      } else {
        const started = gate.run(previous);
        // Settled below with the rest; until then (while the next call waits for a person) its
        // failure is not unhandled, which would end the process.
        started.catch(() => undefined);
        ready.push(started);
      }
    }
  } catch (err) {
    ready.push(Promise.reject(err));
  }
  const settled = await Promise.allSettled(ready);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<HostOutcome>).value);
}

type Gate = { kind: "outcome"; outcome: HostOutcome } | { kind: "run"; run: (previous?: RunResult) => Promise<HostOutcome> };

/** Answers one request: a tool call (decided, maybe approved, run, recorded) or a query. */
export async function answer(request: HostRequest, host: Host, log: RunLog, previous?: RunResult): Promise<HostOutcome> {
  const admitted = admit(request, host, log, previous);
  const gate = admitted instanceof Promise ? await admitted : admitted;
  return gate.kind === "outcome" ? gate.outcome : gate.run(previous);
}

/** How long an approver may take by default: a person may be slow, a hung callback must not hold a run for ever. */
export const DEFAULT_APPROVAL_MS = 600_000;

/** The longest delay a Node timer takes; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The approver's answer: `true` approves; anything else, a throw, or no answer within the
 * runtime's `approvalTimeoutMs` (`"timeout"`) does not.
 */
async function askApprover(config: HostConfig, call: ToolCall, decision: Decision): Promise<unknown> {
  const approve = config.approve;
  if (approve === undefined) return false;
  const ms = config.approvalTimeoutMs ?? DEFAULT_APPROVAL_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    if (ms < MAX_TIMER_MS) timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    const answer = Promise.resolve().then(() => approve(approvalRequest(call, decision)));
    // A late failure, after the timeout won, is nobody's to handle.
    answer.catch(() => undefined);
    return await Promise.race([answer, timeout]);
  } catch {
    return false;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * Validates, decides and (when asked) gets approval for one request, without running it. Only
 * an ask waits (for the approver): a call allowed or denied is admitted without a promise.
 */
function admit(request: HostRequest, host: Host, log: RunLog, previous: RunResult | undefined): Gate | Promise<Gate> {
  const done = (outcome: HostOutcome): Gate => ({ kind: "outcome", outcome });
  if (request.name === QUERY) return { kind: "run", run: () => answerQuery(request, host, log) };
  const { tool, parameters } = host.tools.get(request.name)!;
  const { config } = host;
  const raw = request.args.length === 0 || request.args[0] === undefined ? {} : request.args[0];
  if (request.args.length > 1 || raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return done({ kind: "error", cls: "TypeError", message: `${tool.name} takes one object argument, e.g. ${tool.name}({ ... })`, label: Label.trusted() });
  }
  const args = raw as Record<string, unknown>;
  const valid = parameters.check(args, "args");
  // The text quotes the parameters schema: it is as trusted as whoever wrote the schema.
  if (!valid.ok) return done({ kind: "error", cls: "TypeError", message: `${tool.name}: invalid arguments: ${valid.errors}`, label: tool.schemaLabel instanceof Label ? tool.schemaLabel : Label.trusted() });
  deepFreeze(args);
  // Every call in program order gets its id and key, replayed or not, so a repeat lines up.
  const { callId, idempotencyKey } = log.keys.next(tool.name, args);
  const call = toolCallView(tool.name, args, request.parts[0] ?? [], request.context);
  const policy = tool.policy && config.endorsements ? withEndorsements(tool.policy, config.endorsements) : tool.policy;
  const decision = unsureBefore(decideCall(call, { policy, sideEffect: tool.sideEffect, permissions: config.permissions }), tool, args, idempotencyKey, previous);
  const record: CallRecord = { tool: tool.name, args, decision: decision.kind, argsLabel: call.label(), context: call.context, callId, idempotencyKey };
  if (decision.kind !== "allow" && decision.reason !== undefined) record.reason = decision.reason;
  log.calls.push(record);
  // Spans get a reason built from the call's structure: the person's quotes the arguments.
  const spanReason = traceReason(call, decision);
  const traced = (approved?: boolean) =>
    traceDecision({ tool: tool.name, callId, decision: decision.kind, ...(approved === undefined ? {} : { approved }), sideEffect: tool.sideEffect, argsTrusted: call.label().trusted && call.context.trusted, ...(spanReason === undefined ? {} : { reason: spanReason }), parent: log.span });
  if (decision.kind === "deny") {
    traced();
    return done({ kind: "blocked", reason: decision.reason });
  }
  const gate: Gate = { kind: "run", run: (previous) => runTool(tool, args, previous, record, host, log) };
  if (decision.kind !== "ask") {
    traced();
    return gate;
  }
  return askApprover(config, call, decision).then((answer) => {
    const approved = answer === true;
    record.approved = approved;
    traced(approved);
    if (!approved) {
      const why = answer === "timeout" ? `no answer within ${config.approvalTimeoutMs ?? DEFAULT_APPROVAL_MS} ms, so not approved` : "not approved";
      return done({ kind: "blocked", reason: `${why}: ${decision.reason}` });
    }
    if (config.endorsements) endorseCall(config.endorsements, call, { by: "approver", reason: decision.reason });
    return gate;
  });
}
