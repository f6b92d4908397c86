/**
 * Contention: many clients start at once against one resource that does one thing at a time
 * and refuses (503) whatever arrives while it is busy, as a row lock or a compare-and-swap
 * does. Every refused client retries through the real layer. Without jitter the refused
 * clients come back at the same instant and collide again; full jitter spreads them out.
 */
import { defineTool } from "../../tools/types.js";
import { createCallLayer } from "../layer.js";
import type { SimulationClock } from "./clock.js";

/** Options of {@link simulateContention}. */
export interface ContentionOptions {
  clients: number;
  /** How long the resource is busy with each request it accepts. */
  serviceMs: number;
  baseMs: number;
  capMs: number;
  jitter: "full" | "none";
  random: () => number;
  clock: SimulationClock;
}

/** What {@link simulateContention} counted. */
export interface ContentionReport {
  clients: number;
  /** Clients that got their work done. */
  succeeded: number;
  /** Requests that reached the resource, refused ones included. */
  totalCalls: number;
  /** From the start until the last client was done. */
  drainMs: number;
}

export async function simulateContention(o: ContentionOptions): Promise<ContentionReport> {
  let busyUntil = -Infinity;
  let totalCalls = 0;
  const tool = defineTool({
    name: "update_row",
    description: "Writes one row; refuses while another write is in progress.",
    sideEffect: true,
    run: async () => {
      totalCalls += 1;
      const now = Date.now();
      if (now < busyUntil) throw Object.assign(new Error("busy: another write is in progress"), { status: 503 });
      busyUntil = now + o.serviceMs;
      await new Promise((resolve) => setTimeout(resolve, o.serviceMs));
      return "written";
    },
  });
  const layer = createCallLayer({
    retry: { attempts: 10_000, baseMs: o.baseMs, capMs: o.capMs, jitter: o.jitter, timeoutMs: 60_000, deadlineMs: 1e12 },
    random: o.random,
  });
  const t0 = Date.now();
  let last = t0;
  const runs = Array.from({ length: o.clients }, (_, i) =>
    layer.executeCall({ tool, args: { client: i }, callId: `call_${i}`, idempotencyKey: `key-${i}`, decision: "allow", argsTrusted: true }).then((out) => {
      last = Math.max(last, Date.now());
      return out.kind === "value";
    }),
  );
  await o.clock.runAllAsync();
  const succeeded = (await Promise.all(runs)).filter(Boolean).length;
  return { clients: o.clients, succeeded, totalCalls, drainMs: last - t0 };
}
