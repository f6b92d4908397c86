/**
 * Differential semantics: a plan's value under sluice must be what V8 gives for the same source
 * (run in `node:vm` with the same tool data), and labels must never change a value (a plan run
 * with every source trusted computes exactly what it computes with real labels).
 */
import vm from "node:vm";
import { createRuntime, type ExtendedRuntimeOptions } from "../runtime/index.js";
import type { RunResult } from "../runtime/types.js";
import type { JsonSchema } from "../tools/types.js";
import { type SoundnessInput, soundnessTools } from "./arbitraries.js";
import { obedientAnswer, obedientReader } from "./kit-tools.js";

/** Host functions of a native run, by name: each takes the call's plain arguments. */
export type NativeHost = Record<string, (args: unknown[]) => unknown>;

/** What a native (V8) run did. */
export interface NativeOutcome {
  status: "completed" | "threw";
  /** Completion value, converted as sluice converts values to plain data. */
  value?: unknown;
  error?: string;
  /** Host calls in order (query_ai_assistant excluded), as sluice records tool calls. */
  calls: Array<{ tool: string; args: unknown }>;
  /** Prompts given to query_ai_assistant, in order. */
  prompts: string[];
}

const tag = (x: object): string => Object.prototype.toString.call(x);

/** A vm-realm value as plain data, the way sluice's `toPlain` converts its values. */
export function nativePlain(x: unknown, seen: Set<unknown> = new Set()): unknown {
  if (typeof x === "function") return undefined;
  if (typeof x === "number") return Number.isFinite(x) ? x : null;
  if (x === null || typeof x !== "object") return x;
  if (seen.has(x)) return "[Circular]";
  seen.add(x);
  try {
    if (Array.isArray(x)) return Array.from(x, (e) => nativePlain(e, seen));
    if (tag(x) === "[object Error]") return { name: (x as Error).name, message: (x as Error).message };
    if (tag(x) === "[object Date]") return Number.isNaN((x as Date).getTime()) ? null : (x as Date).toISOString();
    if (tag(x) === "[object RegExp]") return `/${(x as RegExp).source}/${(x as RegExp).flags}`;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) {
      const p = nativePlain(v, seen);
      if (p !== undefined) out[k] = p;
    }
    return out;
  } finally {
    seen.delete(x);
  }
}

/** Canonical text of plain data, for comparisons (undefined is spelled out). */
export function canonical(x: unknown): string {
  return x === undefined ? "undefined" : JSON.stringify(x);
}

const SETUP = `
const __sluiceJson = JSON;
globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
globalThis.Promise = { all: (x) => x, resolve: (x) => x, allSettled: (x) => x };
// Sluice's Math.random: xorshift32 from a fixed seed, so that a run replays.
let __sluiceSeed = 0x2545f491;
Math.random = () => {
  let x = __sluiceSeed;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  __sluiceSeed = x >>> 0;
  return __sluiceSeed / 2 ** 32;
};
// Object.groupBy is ES2024 (V8 in Node 21+); sluice has it, so Node 20's V8 is given the spec's steps.
if (typeof Object.groupBy !== "function") {
  Object.groupBy = (items, callback) => {
    if (items === null || items === undefined) throw new TypeError("Object.groupBy called on null or undefined");
    if (typeof callback !== "function") throw new TypeError(\`\${typeof callback} is not a function\`);
    const groups = Object.create(null);
    let k = 0;
    for (const item of items) {
      const key = callback(item, k++);
      (groups[typeof key === "symbol" ? key : String(key)] ??= []).push(item);
    }
    return groups;
  };
}
for (const name of __sluiceNames) {
  globalThis[name] = (...args) => __sluiceJson.parse(__sluiceHost(name, __sluiceJson.stringify(args)));
}`;

/** Plain data with every object's keys in sluice's boundary order (integer keys first, as JavaScript puts them; then by code unit). */
function orderedPlain(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(orderedPlain);
  if (x === null || typeof x !== "object") return x;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(x).sort()) out[k] = orderedPlain((x as Record<string, unknown>)[k]);
  return out;
}

/**
 * Runs `program` on V8, in strict mode as sluice, in a fresh `node:vm` context whose globals are the host functions.
 * `await` is dropped and `Promise.all` returns its argument, as in sluice, where host calls
 * return their results directly.
 */
export function runNative(program: string, host: NativeHost, timeoutMs = 2000): NativeOutcome {
  const calls: NativeOutcome["calls"] = [];
  const prompts: string[] = [];
  const hostCall = (name: string, text: string): string => {
    // A tool's arguments cross sluice's boundary with every object's keys in one fixed order
    // (convert.ts orderedKeys, docs/security-model.md): V8's tools get them so too (the reader's schema keeps its order).
    const raw = JSON.parse(text) as unknown[];
    const args = (name === "query_ai_assistant" ? raw : orderedPlain(raw)) as unknown[];
    if (name === "query_ai_assistant") prompts.push(String(args[0]));
    else calls.push({ tool: name, args: args[0] ?? {} });
    return JSON.stringify(host[name](args) ?? null);
  };
  const context = vm.createContext({ __sluiceHost: hostCall, __sluiceNames: Object.keys(host) });
  vm.runInContext(SETUP, context);
  try {
    // Strict, as sluice is: a write to a string's property or an array's length throws.
    const value = vm.runInContext(`"use strict";\n${program.replace(/\bawait\s+/g, "")}`, context, { timeout: timeoutMs });
    return { status: "completed", value: nativePlain(value), calls, prompts };
  } catch (err) {
    return { status: "threw", error: String(err), calls, prompts };
  }
}

/** The host functions of a native run over a soundness input: the same data as the sluice tools. */
export function nativeHostFor(input: SoundnessInput): NativeHost {
  const sink = () => ({ ok: true });
  return {
    read_untrusted: () => input.u,
    read_secret: () => input.s,
    read_trusted: () => input.t,
    read_list: () => input.list,
    send: sink,
    publish: sink,
    query_ai_assistant: (args) => obedientAnswer(String(args[0]), args[1] as JsonSchema),
  };
}

/** True for the error of a run the interpreter stopped rather than let data choose an effect. */
export function isSecurityStop(result: RunResult): boolean {
  return result.status === "failed" && result.error?.kind === "runtime" && /^cannot (change an object|call `)/.test(result.error.message);
}

/** A difference between two runs of one program, or undefined when they agree. */
export type Difference = string | undefined;

const LIMITS = { steps: 200_000, timeMs: 5_000, arrayLength: 10_000 };

/** Runs a plan under sluice on a soundness input, every ask approved. */
export async function runSluice(program: string, input: SoundnessInput, options: { trustAll?: boolean; runtime?: Omit<ExtendedRuntimeOptions, "tools"> } = {}): Promise<RunResult> {
  return createRuntime({ approve: () => true, quarantined: obedientReader(), limits: LIMITS, ...options.runtime, tools: soundnessTools(input, { trustAll: options.trustAll }) }).run(program);
}

function prefixOf(a: unknown[], b: unknown[]): boolean {
  return a.length <= b.length && a.every((x, i) => canonical(x) === canonical(b[i]));
}

function callsOf(r: RunResult): string {
  return canonical(r.calls.map((c) => ({ tool: c.tool, args: c.args })));
}

/**
 * Compares a plan under sluice (every source trusted, so no label stops it) with V8. Returns
 * undefined when they agree or the comparison cannot be made (sluice hit a limit).
 */
export async function compareWithNative(program: string, input: SoundnessInput): Promise<Difference> {
  const ours = await runSluice(program, input, { trustAll: true });
  if (ours.status === "failed" && ours.error?.kind === "limit") return undefined;
  const theirs = runNative(program, nativeHostFor(input));
  if (isSecurityStop(ours)) return prefixOf(ours.calls.map((c) => ({ tool: c.tool, args: c.args })), theirs.calls) ? undefined : "the stopped run's calls are not a prefix of V8's";
  if (ours.status === "completed" && theirs.status === "threw") return `V8 threw (${theirs.error}) but sluice completed`;
  if (ours.status !== "completed" && theirs.status === "completed") return `sluice ${ours.status} (${ours.error?.kind}: ${ours.error?.message}) but V8 completed`;
  if (ours.status === "failed" && ours.error?.kind !== "runtime") return `sluice failed with ${ours.error?.kind}: ${ours.error?.message}`;
  const mine = canonical(ours.calls.map((c) => ({ tool: c.tool, args: c.args })));
  const native = canonical(theirs.calls);
  if (mine !== native) return `tool calls differ:\n  sluice ${mine}\n  V8     ${native}`;
  const prompts = canonical(ours.queries.map((q) => q.prompt));
  if (prompts !== canonical(theirs.prompts)) return `queries differ:\n  sluice ${prompts}\n  V8     ${canonical(theirs.prompts)}`;
  if (ours.status === "completed" && canonical(ours.value) !== canonical(theirs.value)) {
    return `values differ:\n  sluice ${canonical(ours.value)}\n  V8     ${canonical(theirs.value)}`;
  }
  return undefined;
}

/**
 * Labels never change a value: the plan run with real labels (every ask approved) makes the same
 * calls and computes the same value as with every source trusted. A run the interpreter stops
 * rather than let data choose an effect must have made a prefix of the other run's calls.
 */
export async function compareLabelsInert(program: string, input: SoundnessInput, runtime?: Omit<ExtendedRuntimeOptions, "tools">): Promise<Difference> {
  const plain = await runSluice(program, input, { trustAll: true, runtime });
  const real = await runSluice(program, input, { runtime });
  // Resource use is out of scope: asks and replays cost time, so one run may hit a limit first.
  if (real.error?.kind === "limit" || plain.error?.kind === "limit") return undefined;
  if (isSecurityStop(real) || isSecurityStop(plain)) {
    const [short, long] = isSecurityStop(real) ? [real, plain] : [plain, real];
    return prefixOf(short.calls.map((c) => ({ tool: c.tool, args: c.args })), long.calls.map((c) => ({ tool: c.tool, args: c.args })))
      ? undefined
      : `the stopped run's calls are not a prefix:\n  labelled ${callsOf(real)}\n  trusted  ${callsOf(plain)}`;
  }
  if (real.status !== plain.status) return `status ${real.status} (${real.error?.message}) with labels, ${plain.status} (${plain.error?.message}) without`;
  if (callsOf(real) !== callsOf(plain)) return `tool calls differ:\n  labelled ${callsOf(real)}\n  trusted  ${callsOf(plain)}`;
  if (canonical(real.value) !== canonical(plain.value)) return `values differ:\n  labelled ${canonical(real.value)}\n  trusted  ${canonical(plain.value)}`;
  if (real.status === "failed" && real.error?.message !== plain.error?.message) return `errors differ: ${real.error?.message} / ${plain.error?.message}`;
  return undefined;
}
