/**
 * One attempt under a timeout. cockatiel's TimeoutPolicy builds an AbortController and three
 * event listeners per attempt whether or not the tool looks at them, which is most of the cost
 * of a call in the fault-injection runs; here the attempt's signal is made only when the tool
 * reads `ctx.signal`, and the race is a plain timer.
 */
import { AttemptTimeout, type LateOutcome } from "./failure.js";
import { LayerStop } from "./classify.js";

/**
 * Runs `body` and settles with it, unless `ms` pass first (rejects with AttemptTimeout and
 * aborts the signal) or `outer` aborts (rejects with a "cancelled" LayerStop). `body` gets a
 * getter for the attempt's signal.
 */
export function withTimeout<T>(ms: number, outer: AbortSignal | undefined, body: (signal: () => AbortSignal) => T | PromiseLike<T>): Promise<Awaited<T>> {
  let ctrl: AbortController | undefined;
  let settled = false;
  let aborted = false;
  const signal = (): AbortSignal => {
    if (ctrl === undefined) {
      ctrl = new AbortController();
      if (aborted) ctrl.abort();
    }
    return ctrl.signal;
  };
  return new Promise<Awaited<T>>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unwatch: (() => void) | undefined;
    const done = () => {
      settled = true;
      clearTimeout(timer);
      unwatch?.();
    };
    const stop = (err: Error) => {
      if (settled) return;
      done();
      aborted = true;
      // Aborting first lets the tool see the abort, but this rejection is already the answer.
      ctrl?.abort();
      reject(err);
    };
    const onOuter = () => stop(new LayerStop("cancelled", "the run was stopped"));
    if (outer?.aborted) return onOuter();
    // How the body ends, for whoever must not start another attempt while it may still act.
    let late: Promise<LateOutcome> | undefined;
    timer = setTimeout(() => stop(new AttemptTimeout(ms, late)), ms);
    if (outer !== undefined) unwatch = onAbort(outer, onOuter);
    let result: T | PromiseLike<T>;
    try {
      result = body(signal);
    } catch (err) {
      done();
      return reject(err);
    }
    late = Promise.resolve(result).then(
      (v) => {
        if (!settled) resolve(v as Awaited<T>);
        done();
        return { ok: true, value: v };
      },
      (e) => {
        if (!settled) reject(e);
        done();
        return { ok: false };
      },
    );
  });
}

/** What each signal's one listener calls: the attempts under it still running. */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `f` when `signal` aborts; returns what forgets it. One listener per signal, not one per
 * attempt: a run's signal is shared by all its calls, and adding and removing a DOM-style
 * listener every call costs more than the call's other bookkeeping (issue 11).
 */
function onAbort(signal: AbortSignal, f: () => void): () => void {
  const set = watchers.get(signal) ?? watch(signal);
  set.add(f);
  return () => set.delete(f);
}

function watch(signal: AbortSignal): Set<() => void> {
  const set = new Set<() => void>();
  watchers.set(signal, set);
  signal.addEventListener("abort", () => {
    for (const g of [...set]) g();
    set.clear();
  }, { once: true });
  return set;
}
