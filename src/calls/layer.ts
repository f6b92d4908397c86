/**
 * `createCallLayer`: the tool-call layer of one runtime. Breakers and buckets live here, so
 * every run of the runtime shares them (a server that died in one run is not hammered by
 * the next); everything else is per call.
 */
import { checkBreakerOptions, checkRateLimitOptions, checkRetryOptions } from "../tools/call-options.js";
import { createBreakers } from "./breakers.js";
import { createBuckets } from "./buckets.js";
import { executeCall, type LayerEnv } from "./execute.js";
import type { CallLayer, CallLayerOptions } from "./types.js";

/** Makes the layer; throws a TypeError naming the bad field for malformed options. */
export function createCallLayer(options: CallLayerOptions = {}): CallLayer {
  if (options.retry !== undefined) checkRetryOptions("retry", options.retry);
  if (options.breaker !== undefined) checkBreakerOptions("breaker", options.breaker);
  const rateLimits = options.rateLimits ?? {};
  for (const [name, limit] of Object.entries(rateLimits)) checkRateLimitOptions(`rateLimits[${JSON.stringify(name)}]`, limit);
  if (options.random !== undefined && typeof options.random !== "function") throw new TypeError("random must be a function returning a number in [0, 1)");
  const env: LayerEnv = {
    retry: options.retry,
    breakers: createBreakers(options.breaker),
    buckets: createBuckets(),
    rateLimits,
    random: options.random ?? Math.random,
    observer: options.observer,
  };
  const layer: CallLayer = {
    executeCall: (request) => executeCall(env, request),
    breakerState: (resource) => env.breakers.state(resource),
    rateLimited(resource, retryAfterMs) {
      env.buckets.penalize(resource, retryAfterMs);
    },
  };
  made.set(layer, { breaker: options.breaker, rateLimits });
  return layer;
}

/** What a layer this module made shares between calls: which tools' failures others can cause. */
export interface LayerSharing {
  readonly breaker: unknown;
  readonly rateLimits: Readonly<Record<string, unknown>>;
}

const made = new WeakMap<CallLayer, LayerSharing>();

/**
 * The sharing of a layer {@link createCallLayer} made, or undefined for any other object with an
 * `executeCall` (a wrapper a user wrote): such a layer is taken to share everything, to honour
 * no `freshArgs` (its caller copies the arguments itself), and so on.
 */
export function madeLayer(layer: CallLayer): LayerSharing | undefined {
  return made.get(layer);
}
