/**
 * Idempotency keys. A key must be the same for every attempt of one call and for that call
 * when `run(source, { previous })` repeats it, and differ between two calls a plan really
 * means to make twice. So it is derived, not stored: a hash of the run's key (which a
 * repeated run takes over from `previous`), the tool, its canonical arguments and how many
 * calls with the same tool and arguments came before in the run.
 */
import { createHash, randomUUID } from "node:crypto";
import { canonicalJson } from "../policy/canonical.js";

function canonical(args: unknown): string {
  try {
    return canonicalJson(args);
  } catch {
    // Not JSON (a NaN, a cycle): still a stable text for the same value.
    return String(JSON.stringify(args));
  }
}

/** A fresh run key. */
export function newRunKey(): string {
  return randomUUID();
}

/** The key of the `occurrence`-th (0-based) call of `tool` with `args` in the run keyed `runKey`. */
export function idempotencyKey(runKey: string, tool: string, args: unknown, occurrence: number): string {
  return keyOf(runKey, tool, canonical(args), occurrence);
}

function keyOf(runKey: string, tool: string, text: string, occurrence: number): string {
  const digest = createHash("sha256").update(JSON.stringify([runKey, tool, text, occurrence])).digest("base64url");
  return `sluice-${digest.slice(0, 32)}`;
}

/** Hands out call ids and idempotency keys for one run. */
export interface Keyring {
  readonly runKey: string;
  /** The next call's id (`call_1`, `call_2`, … in program order) and idempotency key. */
  next(tool: string, args: unknown): { callId: string; idempotencyKey: string };
}

/** A keyring for a run; pass the previous attempt's run key to repeat its keys. */
export function createKeyring(runKey: string = newRunKey()): Keyring {
  const seen = new Map<string, number>();
  let calls = 0;
  return {
    runKey,
    next(tool, args) {
      // The arguments' canonical text once per call: the key is a hash of it (each call's cost).
      const text = canonical(args);
      const id = JSON.stringify([tool, text]);
      const occurrence = seen.get(id) ?? 0;
      seen.set(id, occurrence + 1);
      calls += 1;
      return { callId: `call_${calls}`, idempotencyKey: keyOf(runKey, tool, text, occurrence) };
    },
  };
}
