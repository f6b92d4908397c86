/** Shared by the call-layer tests: a fake clock, a seeded random source, and tools that fail on cue. */
import FakeTimers from "@sinonjs/fake-timers";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { defineTool } from "../../src/index.js";
import type { Tool, ToolContext } from "../../src/tools/types.js";

/** Installs a fake clock over setTimeout, Date and performance (what cockatiel and limiter read). */
export function installClock(): FakeTimers.Clock {
  return FakeTimers.install({ now: 1_700_000_000_000, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date", "performance"], loopLimit: 10_000_000 });
}

/** Runs every timer until none is left, then returns the promise's value. */
export async function drain<T>(clock: FakeTimers.Clock, p: Promise<T>): Promise<T> {
  await clock.runAllAsync();
  return p;
}

/** Uniform in [0, 1) from a seed. */
export function seeded(seed: number): () => number {
  const rng = xoroshiro128plus(seed);
  return () => uniformFloat64(rng);
}

/** An error as an HTTP client would throw it. */
export function httpError(status: number, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`HTTP ${status}`), { status, ...extra });
}

/** An error as node:net throws it. */
export function socketError(code: string): Error {
  return Object.assign(new Error(`socket: ${code}`), { code });
}

/** What a scripted tool saw of each attempt. */
export interface Seen {
  at: number;
  ctx: ToolContext;
  args: Record<string, unknown>;
}

/**
 * A tool whose attempt i (0-based, over all calls) does `script[i]` (the last entry repeats):
 * a value to return, an Error to throw, or "hang" to wait until its signal aborts.
 */
export function scriptedTool(script: ReadonlyArray<unknown>, spec: Record<string, unknown> = {}) {
  const seen: Seen[] = [];
  const tool = defineTool({
    name: "flaky",
    description: "A tool that fails on cue.",
    parameters: { type: "object" },
    sideEffect: true,
    run: (args, ctx) => {
      const step = script[Math.min(seen.length, script.length - 1)];
      seen.push({ at: Date.now(), ctx: ctx!, args: args as Record<string, unknown> });
      if (step === "hang") return new Promise((_, reject) => ctx!.signal.addEventListener("abort", () => reject(new Error("aborted"))));
      if (step instanceof Error) throw step;
      return step;
    },
    ...spec,
  });
  return { tool, seen };
}

/** The fields of a request every test repeats. */
export function request(tool: Tool<any, any>, n = 1) {
  return { tool, args: { n }, callId: `call_${n}`, idempotencyKey: `key-${n}`, decision: "allow" as const, argsTrusted: true };
}
