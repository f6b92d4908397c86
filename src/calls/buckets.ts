/**
 * Token buckets (limiter's TokenBucket) by key: one per tool with a `rateLimit`, one per
 * resource named in the runtime's `rateLimits` (an MCP server, a model API). A 429 answer
 * empties the bucket and, with a Retry-After, puts it in debt until then, so every caller of
 * that resource waits, not only the one that was told.
 */
import { TokenBucket } from "limiter";
import type { RateLimitOptions } from "../tools/types.js";
import { LayerStop } from "./classify.js";

interface Slot {
  requests?: TokenBucket;
  tokens?: TokenBucket;
}

function full(size: number, perInterval: number, interval: number): TokenBucket {
  const b = new TokenBucket({ bucketSize: size, tokensPerInterval: perInterval, interval });
  // limiter starts buckets empty; a bucket that has never been used has its whole burst.
  b.content = size;
  return b;
}

function slotFor(options: RateLimitOptions): Slot {
  const slot: Slot = {};
  if (options.perSecond !== undefined) slot.requests = full(options.burst ?? Math.max(1, options.perSecond), options.perSecond, 1000);
  if (options.tokensPerMinute !== undefined) slot.tokens = full(options.tokensPerMinute, options.tokensPerMinute, 60_000);
  return slot;
}

/** What one attempt takes from a bucket. */
export interface BucketCharge {
  /** Bucket key and its options, e.g. `["tool:send_email", tool.rateLimit]`. */
  keys: ReadonlyArray<readonly [string, RateLimitOptions | undefined]>;
  /** Model calls: the request's worst-case tokens. */
  tokens?: number;
  /** Absolute ms by which the slot must be had. */
  deadline: number;
  /** For the error message. */
  name: string;
}

export interface Buckets {
  /**
   * Waits for a slot in every bucket named; throws a LayerStop when one would come after the
   * deadline. Undefined when no bucket is named (most calls): nothing to wait for.
   */
  take(charge: BucketCharge): Promise<void> | undefined;
  /** A 429 was seen for `key`: no slot until `retryAfterMs` has passed (or the next refill). */
  penalize(key: string, retryAfterMs: number | undefined): void;
}

export function createBuckets(): Buckets {
  const slots = new Map<string, Slot>();
  const get = (key: string, options: RateLimitOptions | undefined): Slot | undefined => {
    let s = slots.get(key);
    if (s === undefined && options !== undefined) {
      s = slotFor(options);
      slots.set(key, s);
    }
    return s;
  };

  function take(charge: BucketCharge): Promise<void> | undefined {
    const plan: Array<[TokenBucket, number]> = [];
    for (const [key, options] of charge.keys) {
      const s = get(key, options);
      if (s?.requests) plan.push([s.requests, 1]);
      if (s?.tokens && charge.tokens !== undefined) plan.push([s.tokens, Math.min(charge.tokens, s.tokens.bucketSize)]);
    }
    return plan.length === 0 ? undefined : drain(plan, charge);
  }

  async function drain(plan: ReadonlyArray<[TokenBucket, number]>, charge: BucketCharge): Promise<void> {
    for (const [bucket, count] of plan) {
      const wait = bucket.getWaitTime(count);
      if (Date.now() + wait >= charge.deadline) {
        throw new LayerStop("rate_limited", `${charge.name} is rate-limited: the next free slot is ${Math.ceil(wait)} ms away, after the call's deadline`);
      }
      await bucket.removeTokens(count);
    }
  }

  function penalize(key: string, retryAfterMs: number | undefined): void {
    const bucket = slots.get(key)?.requests;
    if (bucket === undefined) return;
    bucket.drip();
    const perMs = bucket.tokensPerInterval / bucket.interval;
    // One token is free exactly when the server said we may come back.
    const debt = retryAfterMs === undefined ? 0 : 1 - retryAfterMs * perMs;
    bucket.content = Math.min(bucket.content, 0, debt);
  }

  return { take, penalize };
}
