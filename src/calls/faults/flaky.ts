/**
 * Fault injection: many calls through the real layer to a tool that loses attempts before
 * they arrive (probability a) or executes them and loses the reply (b). Lost replies show up
 * as timeouts, so the layer retries; without idempotency keys a retried execution is a
 * duplicate, with keys the tool recognises it and does nothing twice.
 */
import { defineTool } from "../../tools/types.js";
import { createCallLayer } from "../layer.js";
import type { SimulationClock } from "./clock.js";

/** Options of {@link simulateFlaky}. */
export interface FlakyOptions {
  calls: number;
  attempts: number;
  /** Probability an attempt is lost before it arrives. */
  a: number;
  /** Probability an attempt is executed and its reply lost. */
  b: number;
  /** Uniform in [0, 1): drives the faults and the jitter. */
  random: () => number;
  /** A fake clock installed globally, so timeouts and waits cost no real time. */
  clock: SimulationClock;
  /** Calls in flight at once. Default 2,000. */
  batch?: number;
}

/** Work done, as a tool without and with a memory of idempotency keys does it. */
export interface EffectCount {
  /** Times the work was done, over all calls. */
  executions: number;
  /** Calls whose work was done more than once. */
  duplicates: number;
}

/** What {@link simulateFlaky} counted. */
export interface FlakyReport {
  calls: number;
  /** Calls that got a value. */
  answered: number;
  /** Attempts made, over all calls. */
  attempts: number;
  /** A tool that does the work for every attempt that reaches it. */
  withoutKeys: EffectCount;
  /** A tool that does the work once per idempotency key and answers repeats from memory. */
  withKeys: EffectCount;
}

function count(perCall: Map<number, number>): EffectCount {
  const out = { executions: 0, duplicates: 0 };
  for (const n of perCall.values()) {
    out.executions += n;
    if (n > 1) out.duplicates += 1;
  }
  return out;
}

/**
 * Both tools are counted in the same run: what reaches the tool, and when, does not depend
 * on whether the tool remembers keys (it answers a repeat as it answered the first), so one
 * stream of faults serves both. If the layer gave an attempt a new key, the keyed count would
 * show the duplicate.
 */
export async function simulateFlaky(o: FlakyOptions): Promise<FlakyReport> {
  const raw = new Map<number, number>();
  const keyed = new Map<number, number>();
  const seenKeys = new Set<string>();
  const bump = (m: Map<number, number>, call: number) => m.set(call, (m.get(call) ?? 0) + 1);
  const hang = (signal: AbortSignal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("no reply")), { once: true }));
  const tool = defineTool({
    name: "transfer",
    description: "Moves money; each execution is an effect.",
    sideEffect: true,
    // Retried after a lost reply only because it says a repeat is done once; the count without
    // keys is what a tool that said so wrongly would do.
    idempotent: true,
    run: (args, ctx) => {
      const u = o.random();
      if (u < o.a) return hang(ctx!.signal);
      const call = args.call as number;
      bump(raw, call);
      if (!seenKeys.has(ctx!.idempotencyKey)) bump(keyed, call);
      seenKeys.add(ctx!.idempotencyKey);
      return u < o.a + o.b ? hang(ctx!.signal) : { ok: true };
    },
  });
  // Waits long enough that every attempt is made; the deadline never cuts a call short.
  const layer = createCallLayer({ retry: { attempts: o.attempts, timeoutMs: 1000, baseMs: 100, capMs: 1000, deadlineMs: 1e9 }, random: o.random });
  let answered = 0;
  let attempts = 0;
  const batch = o.batch ?? 2000;
  for (let start = 0; start < o.calls; start += batch) {
    const pending = [];
    for (let i = start; i < Math.min(o.calls, start + batch); i++) {
      pending.push(layer.executeCall({ tool, args: { call: i }, callId: `call_${i}`, idempotencyKey: `key-${i}`, decision: "allow", argsTrusted: true }));
    }
    await o.clock.runAllAsync();
    for (const out of await Promise.all(pending)) {
      attempts += out.attempts;
      if (out.kind === "value") answered += 1;
    }
  }
  return { calls: o.calls, answered, attempts, withoutKeys: count(raw), withKeys: count(keyed) };
}
