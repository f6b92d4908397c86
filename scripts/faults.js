#!/usr/bin/env node
/**
 * `npm run faults`: the fault-injection runs of the call layer on a fake clock, printed as the
 * markdown tables of the README ("The tool-call layer, measured"). Runs over dist/ (npm run
 * build first); @sinonjs/fake-timers and pure-rand are dev dependencies. Environment:
 * FAULT_CALLS (default 100000), FAULT_SEED (default 1).
 */
import FakeTimers from "@sinonjs/fake-timers";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { predictFlaky, simulateContention, simulateDeadTool, simulateFlaky } from "../dist/calls/faults/index.js";

const calls = Number(process.env.FAULT_CALLS ?? 100_000);
const seed = Number(process.env.FAULT_SEED ?? 1);
const seeded = (s) => {
  const rng = xoroshiro128plus(s);
  return () => uniformFloat64(rng);
};
const install = () => FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date", "performance"], loopLimit: 10_000_000 });
const pct = (x, digits = 3) => `${(100 * x).toFixed(digits)}%`;
const withClock = async (f) => {
  const clock = install();
  try {
    return await f(clock);
  } finally {
    clock.uninstall();
  }
};

const a = 0.01;
const b = 0.02;
console.log(`Flaky tool, a = ${a} (lost before it arrives), b = ${b} (executed, reply lost), ${calls.toLocaleString("en-US")} calls, seed ${seed}:\n`);
console.log("| attempts | duplicates without keys, closed form | measured | duplicates with keys | availability, closed form | measured | attempts per call |");
console.log("|---:|---:|---:|---:|---:|---:|---:|");
for (const attempts of [1, 2, 3, 5]) {
  const r = await withClock((clock) => simulateFlaky({ calls, attempts, a, b, random: seeded(seed + attempts), clock }));
  const p = predictFlaky(a, b, attempts);
  console.log(
    `| ${attempts} | ${pct(p.duplicates)} | ${pct(r.withoutKeys.duplicates / calls)} (${r.withoutKeys.duplicates}) | ${r.withKeys.duplicates} | ${pct(p.availability, 4)} | ${pct(r.answered / calls, 4)} (${calls - r.answered} failed) | ${(r.attempts / calls).toFixed(4)} |`,
  );
}

console.log("\nContention: 100 clients at once on a resource that serves one request at a time (10 ms) and answers 503 to the rest; base 10 ms, cap 2 s:\n");
console.log("| backoff | total calls | calls per client | time to drain |");
console.log("|---|---:|---:|---:|");
for (const jitter of ["none", "full"]) {
  const r = await withClock((clock) => simulateContention({ clients: 100, serviceMs: 10, baseMs: 10, capMs: 2000, jitter, random: seeded(seed), clock }));
  console.log(`| ${jitter === "none" ? "exponential, no jitter" : "exponential, full jitter"} | ${r.totalCalls} | ${(r.totalCalls / r.clients).toFixed(1)} | ${(r.drainMs / 1000).toFixed(2)} s |`);
}

const d = await withClock((clock) => simulateDeadTool({ deadForMs: 10_000, runForMs: 15_000, everyMs: 50, failures: 3, cooldownMs: 1000, attempts: 3, clock }));
const trials = d.reached.filter((t) => t > d.firstOpenAt && t < 10_000);
const firstBack = d.reached.find((t) => t >= 10_000);
const whileDead = d.calls.filter((c) => c.startedAt < 10_000);
console.log(
  `\nDead tool (10 s down, a call every 50 ms, 3 attempts a call, breaker { failures: 3, cooldownMs: 1000 }): ${whileDead.length} calls while down, ` +
    `${d.reachedWhileDead} attempts reached it (${d.reachedWhileDead - trials.length} before the breaker opened at ${d.firstOpenAt} ms, then ${trials.length} trials at ${trials.map((t) => `${(t / 1000).toFixed(2)} s`).join(", ")}); ` +
    `${whileDead.filter((c) => c.outcome === "circuit_open").length} failed fast. Back at 10 s: the trial at ${(firstBack / 1000).toFixed(2)} s closed it, and all ${d.calls.filter((c) => c.startedAt > firstBack).length} later calls succeeded.`,
);
