/**
 * Reads what a thrown error says about retrying: its HTTP status, its connection error code,
 * its `retryable` flag and how long it asks us to wait. Errors come from anywhere (fetch,
 * node:http, SDKs, a tool's own `throw`), so every field is probed, never assumed.
 */
import type { FailureKind } from "./types.js";
import { thrownText } from "../interpreter/convert.js";

/** Connection failures after which nothing (refused) or nothing we can know (reset) was done. */
const CONNECTION_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);

/** The connection failures that happen before a request is sent: nothing was done. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT"]);

/** Errors the layer makes itself: they are never retried and never count against a breaker. */
export class LayerStop extends Error {
  constructor(
    readonly kind: "deadline" | "rate_limited" | "cancelled",
    message: string,
  ) {
    super(message);
    this.name = "LayerStop";
  }
}

/**
 * A failed attempt with the verdict on it: the wait before the next attempt, or undefined to
 * stop. The attempt decides (it knows the call's state), so one cockatiel retry policy per
 * attempt count serves every call.
 */
export class AttemptFailed extends Error {
  constructor(
    readonly error: unknown,
    readonly wait: number | undefined,
  ) {
    super("attempt failed");
    this.name = "AttemptFailed";
  }
}

/** The error a call really failed with, out of its wrapper. */
export function unwrap(err: unknown): unknown {
  return err instanceof AttemptFailed ? err.error : err;
}

type Probe = Record<string, unknown>;

function asProbe(x: unknown): Probe | undefined {
  return x !== null && typeof x === "object" ? (x as Probe) : undefined;
}

/** The error and its `cause` chain, a few levels deep (fetch wraps socket errors in a TypeError). */
function chain(err: unknown): Probe[] {
  const out: Probe[] = [];
  let e = asProbe(err);
  while (e !== undefined && out.length < 4 && !out.includes(e)) {
    out.push(e);
    e = asProbe(e.cause);
  }
  return out;
}

/** The HTTP status an error carries (`status`, `statusCode` or `response.status`). */
export function statusOf(err: unknown): number | undefined {
  for (const e of chain(err)) {
    for (const s of [e.status, e.statusCode, asProbe(e.response)?.status]) {
      if (typeof s === "number" && Number.isInteger(s) && s >= 100 && s < 600) return s;
    }
  }
  return undefined;
}

function codeOf(err: unknown): string | undefined {
  for (const e of chain(err)) if (typeof e.code === "string" && CONNECTION_CODES.has(e.code)) return e.code;
  return undefined;
}

function header(headers: unknown, name: string): string | undefined {
  const h = asProbe(headers);
  if (h === undefined) return undefined;
  if (typeof h.get === "function") {
    const v = (h.get as (n: string) => unknown).call(h, name);
    return typeof v === "string" ? v : undefined;
  }
  const v = h[name] ?? h[name.toLowerCase()];
  return typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? v[0] : undefined;
}

/**
 * How long the error asks us to wait, in ms: `retryAfterMs`, else a `retry-after-ms` header,
 * else `Retry-After` in seconds or as an HTTP date (RFC 9110 §10.2.3).
 */
export function retryAfterOf(err: unknown, now: number): number | undefined {
  for (const e of chain(err)) {
    if (typeof e.retryAfterMs === "number" && e.retryAfterMs >= 0 && Number.isFinite(e.retryAfterMs)) return e.retryAfterMs;
    const headers = e.headers ?? asProbe(e.response)?.headers;
    const ms = header(headers, "retry-after-ms");
    if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
    const after = header(headers, "retry-after")?.trim();
    if (after === undefined) continue;
    if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
    const at = Date.parse(after);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  return undefined;
}

/** The failure kind of an error thrown by a tool (not by the layer). */
export function kindOfToolError(err: unknown): FailureKind {
  const status = statusOf(err);
  if (status === 429) return "rate_limited";
  if (status === 503) return "unavailable";
  if (codeOf(err) !== undefined) return "connection";
  return "tool_error";
}

/**
 * Whether an attempt that threw `err` may be tried again: timeouts, connection failures, 429,
 * 503, or `retryable: true`; never when the error says `retryable: false`.
 */
export function isRetryable(err: unknown, timedOut: boolean): boolean {
  const flag = chain(err).map((e) => e.retryable).find((v) => typeof v === "boolean");
  if (flag !== undefined) return flag;
  if (timedOut || timedOutRemotely(err)) return true;
  return kindOfToolError(err) !== "tool_error";
}

/** An error that says the other side did not answer in time (`timedOut: true`, an MCP request timeout). */
function timedOutRemotely(err: unknown): boolean {
  return chain(err).some((e) => e.timedOut === true);
}

/**
 * Whether an attempt that failed with `err` may have done its effect anyway: it timed out, or
 * its connection was lost after the request could have gone out (a reset, a broken pipe). An
 * error that says `retryable: true` is the tool's word that it did nothing; a timeout is the
 * layer's, and says nothing about what the tool did.
 */
export function mayHaveActed(err: unknown, timedOut: boolean): boolean {
  if (timedOut || timedOutRemotely(err)) return true;
  if (chain(err).some((e) => e.retryable === true)) return false;
  const code = codeOf(err);
  return code !== undefined && !NOT_SENT_CODES.has(code);
}

/**
 * Whether the tool answered that the request itself was wrong (a 4xx other than 408 and 429):
 * the tool is healthy, so such an answer does not count against its breaker.
 */
export function isCallerFault(err: unknown): boolean {
  const status = statusOf(err);
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** The error's own message, for the record. */
export function messageOf(err: unknown): string {
  // thrownText reads a message without trusting it: a getter that throws, a huge text, a string thrown.
  if (err instanceof Error || typeof err === "string" || err === null || typeof err !== "object") return thrownText(err);
  try {
    const text = JSON.stringify(err);
    return text === undefined ? thrownText(err) : thrownText(text);
  } catch {
    return thrownText(err);
  }
}
