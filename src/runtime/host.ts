/**
 * The host side of a run: answers a program's requests for tools and the quarantined model,
 * deciding every tool call with the policies before it runs and recording it.
 */
import { Ajv } from "ajv";
import { Label, isLabeled } from "../labels/index.js";
import type { HostOutcome, HostRequest } from "../interpreter/program.js";
import type { LabelledPath } from "../interpreter/convert.js";
import { approvalRequest, decideCall, endorseCall, withEndorsements, type EndorsementStore, type Permissions } from "../policy/index.js";
import type { JsonSchema, Tool, ToolCall } from "../tools/types.js";
import { type CallRecord, NotEnoughInformation, type RunResult, type RuntimeOptions } from "./types.js";

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** Compiled validators, shared by every runtime: compiling a schema costs far more than using it. */
function validatorFor(schema: JsonSchema) {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (v === undefined) {
    v = ajv.compile(schema);
    if (validators.size > 1000) validators.clear();
    validators.set(key, v);
  }
  return v;
}

/** The name under which programs reach the quarantined model. */
export const QUERY = "query_ai_assistant";

/** Everything one run accumulates on the host side. */
export interface RunLog {
  calls: CallRecord[];
  queries: RunResult["queries"];
}

/** Host-side settings of a runtime, fixed when it is created. */
export interface HostConfig extends RuntimeOptions {
  permissions?: Permissions;
  endorsements?: EndorsementStore;
}

/** A policy's view of a call, built from the labelled paths the interpreter reported. */
export function toolCallView(tool: string, args: Record<string, unknown>, parts: LabelledPath[], context: Label): ToolCall {
  const all = parts.reduce((l, p) => l.join(p.label), Label.trusted());
  const label = (path?: string): Label => {
    if (path === undefined || path === "") return all;
    let probe = path;
    for (;;) {
      const hits = parts.filter((p) => p.path === probe || p.path.startsWith(`${probe}.`));
      if (hits.length > 0) return hits.reduce((l, p) => l.join(p.label), Label.trusted());
      const cut = probe.lastIndexOf(".");
      if (cut < 0) return all;
      probe = probe.slice(0, cut);
    }
  };
  return { tool, args, label, context, parts: parts.filter((p) => p.path !== "").map((p) => ({ path: p.path, label: p.label })) };
}

/** Removes `labeled(...)` markers, for the record. */
export function stripLabels(x: unknown): unknown {
  if (isLabeled(x)) return stripLabels(x.value);
  if (Array.isArray(x)) return x.map(stripLabels);
  if (x !== null && typeof x === "object" && !(x instanceof Date)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, stripLabels(v)]));
  return x;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function answerQuery(request: HostRequest, config: HostConfig, log: RunLog): Promise<HostOutcome> {
  const [prompt, schema] = request.args;
  const label = request.argLabels.reduce((l, x) => l.join(x), request.context);
  if (typeof prompt !== "string") return { kind: "error", cls: "TypeError", message: `${QUERY}(prompt, schema): prompt must be a string`, label: Label.trusted() };
  if (schema === null || typeof schema !== "object") return { kind: "error", cls: "TypeError", message: `${QUERY}(prompt, schema): schema must be a JSON Schema object`, label: Label.trusted() };
  const entry: RunResult["queries"][number] = { prompt, schema: schema as JsonSchema, label };
  log.queries.push(entry);
  if (config.quarantined === undefined) {
    entry.error = "no quarantined model is configured";
    return { kind: "error", cls: "Error", message: `${QUERY} is not available: the runtime has no quarantined model`, label: Label.trusted() };
  }
  try {
    const answer = await config.quarantined.query({ prompt, schema: schema as JsonSchema });
    const validate = validatorFor(schema as JsonSchema);
    if (!validate(answer)) {
      entry.error = `answer does not match the schema: ${ajv.errorsText(validate.errors)}`;
      return { kind: "error", cls: "Error", message: `${QUERY}: the answer did not match the schema`, label: Label.trusted() };
    }
    entry.answer = answer;
    return { kind: "value", value: answer, label: Label.of({ trusted: true, sources: [QUERY] }) };
  } catch (err) {
    entry.error = errorText(err);
    if (err instanceof NotEnoughInformation) return { kind: "error", cls: "NotEnoughInformationError", message: err.message, label: Label.trusted() };
    return { kind: "error", cls: "Error", message: `${QUERY} failed`, label: Label.untrusted(QUERY) };
  }
}

function sameArgs(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function runTool(tool: Tool<any, any>, args: Record<string, unknown>, previous: RunResult | undefined, record: CallRecord): Promise<HostOutcome> {
  const done = tool.sideEffect ? previous?.calls.find((c) => c.tool === tool.name && c.decision !== "deny" && c.approved !== false && "result" in c && sameArgs(c.args, args)) : undefined;
  let result: unknown;
  if (done !== undefined) {
    // Already done by an earlier attempt of the same run: not done twice.
    result = done.result;
    record.replayed = true;
  } else {
    try {
      result = await tool.run(args);
    } catch (err) {
      record.error = errorText(err);
      return { kind: "error", cls: "Error", message: `${tool.name} failed: ${errorText(err)}`, label: Label.untrusted(tool.name) };
    }
  }
  const plain = stripLabels(result);
  record.result = plain;
  let label: Label;
  try {
    label = tool.label ? tool.label(plain, args) : Label.untrusted(tool.name);
    if (!(label instanceof Label)) label = Label.untrusted(tool.name);
  } catch {
    label = Label.untrusted(tool.name);
  }
  return { kind: "value", value: result, label };
}

/**
 * Answers a batch of requests. Every call is decided (and approved) in program order before
 * any runs; then the calls run concurrently. A denial stops the batch there.
 */
export async function answerAll(requests: HostRequest[], tools: Map<string, Tool<any, any>>, config: HostConfig, log: RunLog, previous?: RunResult): Promise<HostOutcome[]> {
  if (requests.length === 1) return [await answer(requests[0], tools, config, log, previous)];
  const ready: Array<Promise<HostOutcome>> = [];
  for (const request of requests) {
    const gate = await admit(request, tools, config, log);
    if (gate.kind === "outcome") {
      ready.push(Promise.resolve(gate.outcome));
      if (gate.outcome.kind === "blocked") break;
    } else ready.push(gate.run(previous));
  }
  return Promise.all(ready);
}

type Gate = { kind: "outcome"; outcome: HostOutcome } | { kind: "run"; run: (previous?: RunResult) => Promise<HostOutcome> };

/** Answers one request: a tool call (decided, maybe approved, run, recorded) or a query. */
export async function answer(request: HostRequest, tools: Map<string, Tool<any, any>>, config: HostConfig, log: RunLog, previous?: RunResult): Promise<HostOutcome> {
  const gate = await admit(request, tools, config, log);
  return gate.kind === "outcome" ? gate.outcome : gate.run(previous);
}

/** Validates, decides and (when asked) gets approval for one request, without running it. */
async function admit(request: HostRequest, tools: Map<string, Tool<any, any>>, config: HostConfig, log: RunLog): Promise<Gate> {
  const done = (outcome: HostOutcome): Gate => ({ kind: "outcome", outcome });
  if (request.name === QUERY) return { kind: "run", run: () => answerQuery(request, config, log) };
  const tool = tools.get(request.name)!;
  const raw = request.args.length === 0 || request.args[0] === undefined ? {} : request.args[0];
  if (request.args.length > 1 || raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return done({ kind: "error", cls: "TypeError", message: `${tool.name} takes one object argument, e.g. ${tool.name}({ ... })`, label: Label.trusted() });
  }
  const args = raw as Record<string, unknown>;
  const validate = validatorFor(tool.parameters);
  if (!validate(args)) {
    return done({ kind: "error", cls: "TypeError", message: `${tool.name}: invalid arguments: ${ajv.errorsText(validate.errors, { dataVar: "args" })}`, label: Label.trusted() });
  }
  const call = toolCallView(tool.name, args, request.parts[0] ?? [], request.context);
  const policy = tool.policy && config.endorsements ? withEndorsements(tool.policy, config.endorsements) : tool.policy;
  const decision = decideCall(call, { policy, sideEffect: tool.sideEffect, permissions: config.permissions });
  const record: CallRecord = { tool: tool.name, args, decision: decision.kind, argsLabel: call.label(), context: call.context };
  if (decision.kind !== "allow" && decision.reason !== undefined) record.reason = decision.reason;
  log.calls.push(record);
  if (decision.kind === "deny") return done({ kind: "blocked", reason: decision.reason });
  if (decision.kind === "ask") {
    let approved = false;
    try {
      approved = config.approve !== undefined && (await config.approve(approvalRequest(call, decision))) === true;
    } catch {
      approved = false;
    }
    record.approved = approved;
    if (!approved) return done({ kind: "blocked", reason: `not approved: ${decision.reason}` });
    if (config.endorsements) endorseCall(config.endorsements, call, { by: "approver", reason: decision.reason });
  }
  return { kind: "run", run: (previous) => runTool(tool, args, previous, record) };
}
