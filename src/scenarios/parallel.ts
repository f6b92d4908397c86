/**
 * Runs jobs on a pool of worker threads (one per core) when the built JavaScript is there, or
 * in this thread when running from TypeScript sources (tests) or when asked to. A worker that
 * dies takes only its current job with it: that job gets an error record, and a new worker
 * takes over the rest.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Job, RunRecord } from "./job.js";

/** Options of {@link runPool}. */
export interface PoolOptions {
  /** Threads to use; default one per core. */
  workers?: number;
  /** Runs a job in this thread. */
  inline: (job: Job) => Promise<RunRecord>;
  /** Use worker threads. Default: when the worker script exists as built JavaScript. */
  threads?: boolean;
  /** Called with every record as it arrives. */
  onRecord?: (record: RunRecord) => void;
  /** Jobs run at once in this thread (model runs wait on the network). Default 1. */
  inlineConcurrency?: number;
}

const WORKER = new URL("./worker.js", import.meta.url);

/** True when worker threads can be used: this module runs as built JavaScript next to its worker. */
export function threadsAvailable(): boolean {
  return import.meta.url.endsWith(".js") && existsSync(fileURLToPath(WORKER));
}

/** The default number of workers: one per core. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

function crashed(job: Job, why: string): RunRecord {
  const pair = job.injectionTask === undefined ? "" : ` × ${job.injectionTask}${job.attack ? ` (${job.attack})` : ""}`;
  return {
    suite: job.suite,
    userTask: job.userTask,
    ...(job.injectionTask === undefined ? {} : { injectionTask: job.injectionTask }),
    ...(job.attack === undefined ? {} : { attack: job.attack }),
    defense: job.defense,
    approve: job.approve,
    status: "error",
    utility: false,
    calls: 0,
    denied: 0,
    asked: 0,
    error: `${job.suite}/${job.userTask}${pair}: the worker thread running it died: ${why}`,
    stops: [],
    ms: 0,
  };
}

async function runInline(jobs: readonly Job[], options: PoolOptions): Promise<RunRecord[]> {
  const out: RunRecord[] = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await options.inline(jobs[i]);
      options.onRecord?.(out[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.inlineConcurrency ?? 1) }, lane));
  return out;
}

function runThreads(jobs: readonly Job[], count: number, options: PoolOptions): Promise<RunRecord[]> {
  const out: RunRecord[] = new Array(jobs.length);
  /** Jobs handed back by a worker that never worked; they run first, in any lane. */
  const returned: number[] = [];
  let next = 0;
  let finished = 0;
  return new Promise((resolve) => {
    const take = (): number | undefined => returned.shift() ?? (next < jobs.length ? next++ : undefined);
    const record = (i: number, r: RunRecord) => {
      out[i] = r;
      finished++;
      options.onRecord?.(r);
      if (finished === jobs.length) resolve(out);
    };
    // Runs jobs in this thread: the fallback when worker threads cannot start at all.
    const inlineLane = async () => {
      for (let i = take(); i !== undefined; i = take()) record(i, await options.inline(jobs[i]));
    };
    const workerLane = () => {
      const worker = new Worker(WORKER);
      let current: number | undefined;
      let answered = 0;
      let done = false;
      const feed = () => {
        current = take();
        if (current === undefined) {
          done = true;
          void worker.terminate();
        } else worker.postMessage(jobs[current]);
      };
      worker.on("message", (r: RunRecord) => {
        answered++;
        if (current !== undefined) record(current, r);
        feed();
      });
      const fail = (why: string) => {
        if (done) return;
        done = true;
        void worker.terminate();
        if (answered === 0) {
          // It never worked (a missing or broken build): its job and the rest run here instead.
          if (current !== undefined) returned.push(current);
          void inlineLane();
          return;
        }
        if (current !== undefined) record(current, crashed(jobs[current], why));
        if (finished < jobs.length) workerLane();
      };
      worker.on("error", (err) => fail(err instanceof Error ? err.message : String(err)));
      worker.on("exit", (code) => fail(`it exited with code ${code}`));
      feed();
    };
    for (let i = 0; i < Math.min(count, jobs.length); i++) workerLane();
  });
}

/** Runs every job and returns the records in job order. */
export async function runPool(jobs: readonly Job[], options: PoolOptions): Promise<RunRecord[]> {
  if (jobs.length === 0) return [];
  const workers = Math.max(1, Math.floor(options.workers ?? defaultWorkers()));
  // Starting a worker costs about as much as a few dozen runs; small batches run here.
  const threads = (options.threads ?? (threadsAvailable() && jobs.length >= workers * 50)) && workers > 1;
  return threads ? runThreads(jobs, workers, options) : runInline(jobs, options);
}
