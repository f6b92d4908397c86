/**
 * The call scope: what a runtime lends the model calls it causes. The quarantined reader is
 * called by the runtime, not by whoever built it, so the runtime's layer (its buckets and
 * breakers, e.g. `rateLimits["model:anthropic"]`), the run's span and the run's stop signal
 * travel with the async context of the call instead of through the reader's interface.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { CallLayer } from "./types.js";

/** What a call made inside a run may use of that run. */
export interface CallScope {
  /** The runtime's layer: model calls share its buckets and breakers. */
  readonly layer?: CallLayer;
  /** The run's span (opaque here; tracing's handle), the parent of spans started inside. */
  readonly parent?: unknown;
  /** Aborted when the run ends. */
  readonly signal?: AbortSignal;
}

const storage = new AsyncLocalStorage<CallScope>();

/** Runs `fn` with `scope` as the current call scope. */
export function withCallScope<T>(scope: CallScope, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}

/** The scope of the run in progress, if any. */
export function currentCallScope(): CallScope | undefined {
  return storage.getStore();
}
