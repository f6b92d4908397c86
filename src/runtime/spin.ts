/**
 * A bounded spin that switches itself off while it keeps failing. The worker spins for the
 * host's answer (worker.ts), because waking a sleeping thread costs more than a fast call on a VM. But a spin only pays while the
 * other thread runs on another core: when both share one (a loaded machine), each spin holds the
 * core the other needs, and calls took ~600 µs instead of ~60 in stretches (benchmarks/calls.js).
 * So after {@link MISSES} spins in a row that found nothing, the next {@link OFF} waits sleep at
 * once; then it tries again.
 */

/** Spins in a row that found nothing before the spin is switched off. */
const MISSES = 3;
/** Waits that sleep at once while it is off. */
const OFF = 64;

/** One thread's spin state. */
export interface Spin {
  readonly ms: number;
  misses: number;
  off: number;
}

export function createSpin(ms: number): Spin {
  return { ms, misses: 0, off: 0 };
}

/**
 * Spins until `done()` or the spin's time is up; true when done. A spin that is switched off
 * returns false at once (and counts down to trying again).
 */
export function spinFor(spin: Spin, done: () => boolean): boolean {
  if (spin.off > 0) {
    spin.off--;
    return false;
  }
  const until = performance.now() + spin.ms;
  let found = done();
  // performance.now() is dearer than the check: read it every 8 turns.
  for (let i = 1; !found; i++) {
    if ((i & 7) === 0 && performance.now() > until) break;
    found = done();
  }
  if (found) spin.misses = 0;
  else if (++spin.misses >= MISSES) (spin.misses = 0), (spin.off = OFF);
  return found;
}
