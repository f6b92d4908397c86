/**
 * The worker threads that run programs, shared by every runtime of the process (see
 * docs/execution.md). Workers are made when a run needs one, reused, capped in number, and
 * `unref()`'d while idle so they never keep the process alive. A worker that died or was
 * stopped is dropped and the next run gets a new one.
 *
 * One run on a worker: the job is posted; each host request the worker posts on its port is
 * answered by the host (on this thread), the answer posted on the same port and the shared
 * signal raised, which the worker sees while it spins briefly, or is woken by from
 * `Atomics.wait`; then this thread looks briefly for the worker's next request, up to
 * {@link MAX_IN_A_ROW} requests in a row, before it returns to its event loop. A wall-clock timer, paused while
 * the host answers, stops a worker that overruns its time limit; `resourceLimits` bounds its heap.
 */
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { AsyncResource } from "node:async_hooks";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Execution, HostOutcome, HostRequest } from "../interpreter/program.js";
import type { Answer, Job, WorkerMessage } from "./worker.js";
import { LabelReader, LabelWriter, readExecution, readRequest, writeOutcome } from "./wire.js";
import { HostLimit } from "./host.js";
import { createSpin, spinFor, type Spin } from "./spin.js";

interface Slot {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
  heapMb: number;
  dead: boolean;
}

/**
 * Requests answered in a row before the next waits for the event loop to turn (see drive): at
 * most this many fast calls (~65 µs each on the 2-core CI machine) hold timers, I/O and other
 * runs. 3 cost a wake-up of the event loop every third call and bought nothing; with 16, 10,000
 * calls took ~76 µs each against ~105 without looking (benchmarks/calls.js, alternating builds).
 */
export const MAX_IN_A_ROW = 16;

/** At most this many workers at once; more runs wait for one. */
const MAX_WORKERS = Math.max(2, Math.min(8, availableParallelism()));
/** How long past its time limit a worker that does not stop by itself is given. */
const GRACE_MS = 1000;

const idle: Slot[] = [];
const waiters: Array<() => void> = [];
let live = 0;

/**
 * The heap a run's worker gets: well above the program's own memory limit (the interpreter's
 * charges are estimates) and the interpreter's needs. Generous on purpose: a worker over its
 * cap in interruptible code ends cleanly, but one big allocation inside a single builtin that
 * overruns it takes the whole process down (V8), so the cap must only catch real runaways.
 */
export function heapFor(memoryBytes: number): number {
  const mb = Math.ceil(memoryBytes / 2 ** 20);
  // Buckets, so runs with nearby limits share workers.
  return 2 ** Math.ceil(Math.log2(Math.max(256, 4 * mb + 256)));
}

let tsxUrl: string | undefined;

/** The ES-module form of tsx's register API (its CommonJS form cannot register the ESM loader). */
function tsxApi(): string {
  if (tsxUrl !== undefined) return tsxUrl;
  const pkg = createRequire(import.meta.url).resolve("tsx/package.json");
  const exports = (JSON.parse(readFileSync(pkg, "utf8")) as { exports: Record<string, { import: { default: string } }> }).exports;
  tsxUrl = pathToFileURL(join(dirname(pkg), exports["./esm/api"].import.default)).href;
  return tsxUrl;
}

function spawn(heapMb: number): Slot {
  const { port1, port2 } = new MessageChannel();
  // [0]: the answer's state (worker.ts); [1]: how many requests the worker has posted.
  const signal = new SharedArrayBuffer(8);
  const options = { workerData: { port: port2, signal }, transferList: [port2], resourceLimits: { maxOldGenerationSizeMb: heapMb } };
  const here = import.meta.url;
  let worker: Worker;
  if (here.endsWith(".ts")) {
    // Running from source (vitest, tsx): the worker loads TypeScript through tsx's loader.
    const entry = new URL("./worker.ts", here).href;
    worker = new Worker(`import(${JSON.stringify(tsxApi())}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, { ...options, eval: true });
  } else {
    worker = new Worker(new URL("./worker.js", here), options);
  }
  const slot: Slot = { worker, port: port1, signal: new Int32Array(signal), heapMb, dead: false };
  live++;
  worker.on("exit", () => retire(slot));
  // A failure of an idle worker: it is retired by its exit.
  worker.on("error", () => undefined);
  worker.unref();
  return slot;
}

function retire(slot: Slot): void {
  if (slot.dead) return;
  slot.dead = true;
  live--;
  const i = idle.indexOf(slot);
  if (i >= 0) idle.splice(i, 1);
  slot.port.close();
  waiters.shift()?.();
}

async function acquire(heapMb: number): Promise<Slot> {
  for (;;) {
    const i = idle.findIndex((s) => s.heapMb === heapMb);
    if (i >= 0) return idle.splice(i, 1)[0];
    if (live < MAX_WORKERS) return spawn(heapMb);
    // All taken: an idle worker of another heap size makes room.
    const other = idle.shift();
    if (other !== undefined) {
      retire(other);
      void other.worker.terminate();
      continue;
    }
    await new Promise<void>((resolve) => waiters.push(resolve));
  }
}

function release(slot: Slot): void {
  if (slot.dead) return;
  slot.worker.unref();
  idle.push(slot);
  waiters.shift()?.();
}

/** A run that ended without the interpreter's own result: its worker died or was stopped. */
export interface Stopped {
  kind: "stopped";
  error: { kind: "limit" | "runtime"; message: string };
}

/** Answers a worker's requests on this thread (the host: policies, approvals, tools). */
export type HostSide = (requests: HostRequest[]) => Promise<HostOutcome[]>;

/** Runs a job on a worker of the pool, answering its host requests with `host`. */
export async function runInWorker(job: Job, host: HostSide): Promise<Execution | Stopped> {
  // The host answers in the caller's async context (its AsyncLocalStorage: usage meters, traces),
  // not the worker's message events'.
  // Not AsyncResource.bind: it defines deprecated accessors on every function it binds.
  const scope = new AsyncResource("sluice.host");
  const answer = host;
  host = (requests) => scope.runInAsyncScope(answer, undefined, requests);
  const slot = await acquire(heapFor(job.limits.memoryBytes));
  slot.worker.ref();
  try {
    return await drive(slot, job, host);
  } finally {
    release(slot);
  }
}

/**
 * How long this thread, having answered, looks for the worker's next message before it goes back
 * to its event loop. A worker's next request usually follows within tens of µs; caught here, it
 * costs no event-loop wake-up, which on a VM costs more than the whole call (~60 µs a call on the
 * 2-core CI machine: benchmarks/calls.js). It looks only while fewer than {@link MAX_IN_A_ROW}
 * requests were answered since the event loop last turned, so timers, I/O and other runs wait
 * that many calls at most (an unbounded poll held a setImmediate for hundreds); a look that keeps
 * finding nothing (a slow worker) is switched off for a while (spin.ts).
 */
const MAIN_SPIN_MS = 0.1;

/** The worker's next message if it comes within the spin; else undefined (the port's listener gets it). */
function nextSoon(slot: Slot, seen: number, spin: Spin): WorkerMessage | undefined {
  // The spin reads the worker's count of requests, not the port: a look at the port takes its
  // lock, which the worker's postMessage needs too, and costs a native call each turn.
  if (!spinFor(spin, () => Atomics.load(slot.signal, 1) !== seen)) return undefined;
  return (receiveMessageOnPort(slot.port) as { message: WorkerMessage } | undefined)?.message;
}

function drive(slot: Slot, job: Job, host: HostSide): Promise<Execution | Stopped> {
  const { worker } = slot;
  const fromWorker = new LabelReader();
  const toWorker = new LabelWriter();
  // The interpreter's own time so far; host waits are not counted.
  let used = 0;
  let resumed = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stoppedBy: Stopped | undefined;
  let finished = false;
  // Requests answered since the event loop's check phase last ran: a port delivers the worker's
  // messages in one batch while they keep coming, so a fast tool could hold timers, I/O and other
  // runs off for as long as the run lasts (review: a setImmediate waited 15-552 calls).
  let inARow = 0;
  const look = createSpin(MAIN_SPIN_MS);
  const stop = (why: Stopped): void => {
    stoppedBy ??= why;
    void worker.terminate();
  };
  const arm = (): void => {
    resumed = Date.now();
    timer = setTimeout(() => stop({ kind: "stopped", error: { kind: "limit", message: `the program ran past its time limit of ${job.limits.timeMs} ms` } }), Math.max(0, job.limits.timeMs - used) + GRACE_MS);
  };
  const pause = (): void => {
    clearTimeout(timer);
    used += Date.now() - resumed;
  };
  return new Promise((resolve) => {
    const finish = (result: Execution | Stopped): void => {
      finished = true;
      clearTimeout(timer);
      slot.port.off("message", onMessage);
      slot.port.unref();
      worker.off("error", onError);
      worker.off("exit", onExit);
      resolve(result);
    };
    const onMessage = (message: WorkerMessage): void => {
      if (message.kind === "started") return arm();
      if (message.kind === "ask") {
        // A request made after the run was stopped (its time limit, before the worker exits) is
        // not answered: no tool runs for a run that already ended.
        if (stoppedBy !== undefined) return;
        if (inARow++ === 0) setImmediate(() => (inARow = 0));
        // Past the bound, the request waits behind what the event loop has waiting (FIFO).
        else if (inARow > MAX_IN_A_ROW) return void setImmediate(() => finished || onMessage(message));
        pause();
        fromWorker.add(message.labels);
        const requests = message.requests.map((r) => readRequest(r, fromWorker));
        host(requests).then(
          (outcomes) => {
            // The run ended meanwhile (its worker died or was stopped): nothing to answer, no timer to arm.
            if (finished) return;
            const answer: Answer = { outcomes: outcomes.map((o) => writeOutcome(o, toWorker)), labels: toWorker.take() };
            const posted = Atomics.load(slot.signal, 1);
            slot.port.postMessage(answer);
            arm();
            // A worker still spinning sees the state change; one asleep (state 2) is woken.
            if (Atomics.exchange(slot.signal, 0, 1) === 2) Atomics.notify(slot.signal, 0);
            if (inARow >= MAX_IN_A_ROW) return;
            const next = nextSoon(slot, posted, look);
            // Handled on the next tick, not here in the middle of the microtask queue: what the call
            // just answered left queued (its process.nextTick callbacks, the rest of its promise
            // chains: a client freeing its connection) runs first, as it did when each request was
            // its own port event. No event-loop turn: the count in a row is unchanged.
            if (next !== undefined) process.nextTick(() => finished || onMessage(next));
          },
          // A budget the host refused ends the run as a limit; anything else is the host's failure.
          (err: unknown) =>
            stop(
              err instanceof HostLimit
                ? { kind: "stopped", error: { kind: "limit", message: err.message } }
                : { kind: "stopped", error: { kind: "runtime", message: `the host failed: ${err instanceof Error ? err.message : String(err)}` } },
            ),
        );
        return;
      }
      if (message.kind === "internal") return finish({ kind: "stopped", error: { kind: "runtime", message: `internal error: ${message.message}` } });
      fromWorker.add(message.labels);
      if (message.coverage !== undefined) mergeCoverage(message.coverage);
      finish(readExecution(message.execution, fromWorker));
    };
    const onError = (err: Error): void => {
      const code = (err as { code?: string }).code;
      if (code === "ERR_WORKER_OUT_OF_MEMORY") stoppedBy ??= { kind: "stopped", error: { kind: "limit", message: `the program ran out of memory (its limit is ${job.limits.memoryBytes} bytes)` } };
      else stoppedBy ??= { kind: "stopped", error: { kind: "runtime", message: `internal error: the worker failed: ${err.message}` } };
    };
    const onExit = (): void => {
      finish(stoppedBy ?? { kind: "stopped", error: { kind: "runtime", message: "internal error: the worker stopped" } });
    };
    slot.port.on("message", onMessage);
    slot.port.ref();
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(job);
  });
}

interface StrykerCoverage {
  static: Record<string, number>;
  perTest: Record<string, Record<string, number>>;
}

/** Mutation testing: what the worker's run covered counts as covered by the test that made it. */
function mergeCoverage(coverage: unknown): void {
  const ns = (globalThis as { __stryker__?: { mutantCoverage?: StrykerCoverage } }).__stryker__;
  const from = coverage as StrykerCoverage;
  if (ns === undefined || from === null || typeof from !== "object") return;
  const into = (ns.mutantCoverage ??= { static: {}, perTest: {} });
  const add = (to: Record<string, number>, counts: Record<string, number>): void => {
    for (const [id, n] of Object.entries(counts)) to[id] = (to[id] ?? 0) + n;
  };
  add((into.static ??= {}), from.static ?? {});
  for (const [test, counts] of Object.entries(from.perTest ?? {})) add((into.perTest[test] ??= {}), counts);
}

/** Stryker's active mutant and test in this thread, to forward into a worker. */
export function strykerState(): Job["stryker"] {
  const ns = (globalThis as { __stryker__?: { activeMutant?: unknown; currentTestId?: unknown } }).__stryker__;
  if (ns === undefined) return undefined;
  const str = (x: unknown) => (x === undefined || x === null ? undefined : String(x));
  return { activeMutant: str(ns.activeMutant), currentTestId: str(ns.currentTestId) };
}
