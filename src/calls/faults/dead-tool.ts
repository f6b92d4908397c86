/**
 * A tool that dies: it refuses connections for `deadForMs`, then works again, while a client
 * calls it every `everyMs` through the real layer with a breaker. The breaker should turn the
 * dead stretch into one attempt per cooldown, and its half-open trial should close it once
 * the tool is back.
 */
import { defineTool } from "../../tools/types.js";
import { createCallLayer } from "../layer.js";
import type { CallOutcome } from "../types.js";
import type { SimulationClock } from "./clock.js";

/** Options of {@link simulateDeadTool}. */
export interface DeadToolOptions {
  deadForMs: number;
  /** How long the client keeps calling. */
  runForMs: number;
  everyMs: number;
  failures: number;
  cooldownMs: number;
  /** Attempts per call while the breaker is closed. */
  attempts: number;
  clock: SimulationClock;
}

/** One call the client made. */
export interface DeadToolCall {
  /** ms after the start. */
  startedAt: number;
  outcome: CallOutcome["kind"] | "circuit_open";
}

/** What {@link simulateDeadTool} saw. */
export interface DeadToolReport {
  calls: DeadToolCall[];
  /** ms after the start of every attempt that reached the tool. */
  reached: number[];
  /** Attempts that reached the tool while it was dead. */
  reachedWhileDead: number;
  /** ms after the start when the breaker was first seen open. */
  firstOpenAt: number | undefined;
}

export async function simulateDeadTool(o: DeadToolOptions): Promise<DeadToolReport> {
  const t0 = Date.now();
  const reached: number[] = [];
  const tool = defineTool({
    name: "lookup",
    description: "A service that is down for a while.",
    run: () => {
      const at = Date.now() - t0;
      reached.push(at);
      if (at < o.deadForMs) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
      return { ok: true };
    },
  });
  const layer = createCallLayer({ retry: { attempts: o.attempts, baseMs: 20, capMs: 100 }, breaker: { failures: o.failures, cooldownMs: o.cooldownMs } });
  const pending: Array<Promise<DeadToolCall>> = [];
  let firstOpenAt: number | undefined;
  for (let at = 0; at < o.runForMs; at += o.everyMs) {
    const startedAt = Date.now() - t0;
    pending.push(
      layer.executeCall({ tool, args: { at }, callId: `call_${at}`, idempotencyKey: `key-${at}`, decision: "allow", argsTrusted: true }).then((out) => ({
        startedAt,
        outcome: out.kind === "error" && out.failure.kind === "circuit_open" ? "circuit_open" : out.kind,
      })),
    );
    await o.clock.tickAsync(o.everyMs);
    if (firstOpenAt === undefined && layer.breakerState("lookup") === "open") firstOpenAt = Date.now() - t0;
  }
  await o.clock.runAllAsync();
  const calls = await Promise.all(pending);
  return { calls, reached, reachedWhileDead: reached.filter((t) => t < o.deadForMs).length, firstOpenAt };
}
