/**
 * The worker thread that runs programs (see pool.ts and docs/execution.md). It takes one job at
 * a time, runs the synchronous interpreter once from the top, and blocks on each host call: it
 * posts the requests on its port, waits on the shared signal (spinning, then `Atomics.wait`),
 * and reads the answers from the same port with `receiveMessageOnPort`. Everything it says goes
 * over that port, in order; jobs come from `parentPort`. Nothing of a run survives into the next: the
 * interpreter's state is reset by every execution and the label tables are made per job.
 */
import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { type CompiledProgram, type HostOutcome, type HostRequest, compileProgram } from "../interpreter/program.js";
import type { Mutants, ResolvedLimits } from "../interpreter/state.js";
import { createSpin, spinFor } from "./spin.js";
import { LabelReader, LabelWriter, type LabelDef, type WireExecution, type WireOutcome, readOutcome, writeExecution, writeRequest } from "./wire.js";

/** A run, as the main thread posts it. */
export interface Job {
  /** The runtime the run belongs to: compiled programs are cached per runtime, as on the main thread. */
  runtime: number;
  source: string;
  hostFunctions: string[];
  limits: ResolvedLimits;
  mutants: Mutants;
  /** The run's clock (ms since the epoch): what `new Date()` and `Date.now()` give. */
  now: number;
  /** Stryker's active mutant and test, when the test thread runs under Stryker. */
  stryker?: { activeMutant?: string; currentTestId?: string };
}

/** What the worker posts: a request for the host, or the run's end. */
export type WorkerMessage =
  | { kind: "started" }
  | { kind: "ask"; requests: ReturnType<typeof writeRequest>[]; labels: LabelDef[] }
  | { kind: "done"; execution: WireExecution; labels: LabelDef[]; coverage?: unknown }
  | { kind: "internal"; message: string };

/** What the main thread answers on the port. */
export interface Answer {
  outcomes: WireOutcome[];
  labels: LabelDef[];
}

/** Compiled programs hold no run state (the runtime reuses them across runs too): kept per worker and runtime. */
const compiled = new Map<string, CompiledProgram>();

function compile(job: Job): CompiledProgram {
  const key = `${job.runtime}\n${job.hostFunctions.join(",")}\n${job.source}`;
  let program = compiled.get(key);
  if (program === undefined) {
    program = compileProgram(job.source, { hostFunctions: job.hostFunctions });
    if (compiled.size >= 64) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, program);
  }
  return program;
}

interface StrykerGlobal {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}

/** Mutation testing: the mutant active in the test thread is active here; what this run covered goes back. */
function strykerBegin(job: Job): StrykerGlobal | undefined {
  if (job.stryker === undefined) return undefined;
  const g = globalThis as { __stryker__?: StrykerGlobal };
  const ns = (g.__stryker__ ??= {});
  ns.activeMutant = job.stryker.activeMutant;
  ns.currentTestId = job.stryker.currentTestId;
  // Emptied in place: Stryker's coverage helper holds on to this object.
  const coverage = (ns.mutantCoverage ??= { static: {}, perTest: {} });
  coverage.static = {};
  coverage.perTest = {};
  return ns;
}

/** The shared signal's states (see pool.ts, which answers): the worker waits, sleeps, or was answered. */
const WAITING = 0;
const ASLEEP = 2;
const ANSWERED = 1;

/**
 * How long the worker spins on the signal before it sleeps. A host call answered within it
 * costs no futex sleep and wake-up, which on some machines cost more than the whole call
 * (Atomics.notify alone took 75 µs per call on the 2-core CI machine; benchmarks/calls.js).
 * A tool that takes longer costs this much spinning and then sleeps as before; spins that keep
 * failing switch themselves off for a while (spin.ts).
 */
const spin = createSpin(0.25);

/** Returns once the host has answered: spins a short while, then sleeps until notified. */
function awaitAnswer(signal: Int32Array): void {
  if (spinFor(spin, () => Atomics.load(signal, 0) !== WAITING)) return;
  // Tells the host to notify; a host that answered meanwhile leaves the state ANSWERED, and there is no sleep.
  if (Atomics.compareExchange(signal, 0, WAITING, ASLEEP) !== WAITING) return;
  while (Atomics.load(signal, 0) === ASLEEP) Atomics.wait(signal, 0, ASLEEP);
}

function run(job: Job, port: MessagePort, signal: Int32Array): WorkerMessage {
  // The run's clock starts now: not while this worker was booting.
  port.postMessage({ kind: "started" } satisfies WorkerMessage);
  const ns = strykerBegin(job);
  const out = new LabelWriter();
  const into = new LabelReader();
  const answer = (requests: HostRequest[]): HostOutcome[] => {
    Atomics.store(signal, 0, WAITING);
    port.postMessage({ kind: "ask", requests: requests.map((r) => writeRequest(r, out)), labels: out.take() } satisfies WorkerMessage);
    // After the post: the host, seeing the count move, finds the request on the port.
    Atomics.add(signal, 1, 1);
    awaitAnswer(signal);
    let reply: { message: Answer } | undefined;
    for (;;) {
      reply = receiveMessageOnPort(port) as { message: Answer } | undefined;
      if (reply !== undefined) break;
      // Signalled before the answer is readable (not expected: it is posted first): look again shortly.
      Atomics.wait(signal, 0, ANSWERED, 1);
    }
    into.add(reply.message.labels);
    return reply.message.outcomes.map((o) => readOutcome(o, into));
  };
  const program = compile(job);
  const execution = program.execute([], job.limits, job.mutants, answer, job.now);
  const done: WorkerMessage = { kind: "done", execution: writeExecution(execution, out), labels: out.take() };
  if (ns !== undefined) done.coverage = ns.mutantCoverage;
  return done;
}

const { port, signal } = workerData as { port: MessagePort; signal: SharedArrayBuffer };
const flag = new Int32Array(signal);
parentPort!.on("message", (job: Job) => {
  let message: WorkerMessage;
  try {
    message = run(job, port, flag);
  } catch (err) {
    message = { kind: "internal", message: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(message);
  Atomics.add(flag, 1, 1);
});
