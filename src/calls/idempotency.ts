/**
 * Idempotency keys. A key must be the same for every attempt of one call and for that call
 * when `run(source, { previous })` repeats it, and differ between two calls a plan really
 * means to make twice. So it is derived, not stored: a hash of the run's key (which a
 * repeated run takes over from `previous`), the tool, its canonical arguments and how many
 * calls with the same tool and arguments came before in the run.
 */
import * as crypto from "node:crypto";
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
  return crypto.randomUUID();
}

/** The key of the `occurrence`-th (0-based) call of `tool` with `args` in the run keyed `runKey`. */
export function idempotencyKey(runKey: string, tool: string, args: unknown, occurrence: number): string {
  return keyOf(runKey, tool, canonical(args), occurrence);
}

/** SHA-256 in one call where Node has it (20.12 and later): no Hash object per call. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "base64url") => string }).hash;
const sha256 = oneShot !== undefined ? (text: string) => oneShot("sha256", text, "base64url") : (text: string) => crypto.createHash("sha256").update(text).digest("base64url");

function keyOf(runKey: string, tool: string, text: string, occurrence: number): string {
  return `sluice-${sha256(JSON.stringify([runKey, tool, text, occurrence])).slice(0, 32)}`;
}

/** Hands out call ids and idempotency keys for one run. */
export interface Keyring {
  readonly runKey: string;
  /** The next call's id (`call_1`, `call_2`, … in program order) and idempotency key. */
  next(tool: string, args: unknown): { callId: string; idempotencyKey: string };
}

/** A keyring for a run; pass the previous attempt's run key to repeat its keys. */
export function createKeyring(runKey: string = newRunKey()): Keyring {
  // Calls so far by tool, then by the canonical text of their arguments.
  const seen = new Map<string, Map<string, number>>();
  let calls = 0;
  return {
    runKey,
    next(tool, args) {
      // The arguments' canonical text once per call: the key is a hash of it (each call's cost).
      const text = canonical(args);
      let byArgs = seen.get(tool);
      if (byArgs === undefined) seen.set(tool, (byArgs = new Map()));
      const occurrence = byArgs.get(text) ?? 0;
      byArgs.set(text, occurrence + 1);
      calls += 1;
      return { callId: `call_${calls}`, idempotencyKey: keyOf(runKey, tool, text, occurrence) };
    },
  };
}
