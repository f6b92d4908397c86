import type { TokenUsage } from "./types.js";

/**
 * Prices of one model, in US dollars per million tokens. Cache reads default to 0.1× and cache
 * writes to 1.25× the input price, as the provider bills 5-minute cache entries.
 */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Prices by model identifier. A key also covers longer identifiers it prefixes (dated versions). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Published list prices at the time of writing, for convenience only: check them and pass your
 * own with `prices` (they are merged over these). Offline models cost nothing.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-opus-4-1": { input: 15, output: 75 },
  "claude-opus-4-0": { input: 15, output: 75 },
  "claude-sonnet-4-5": { input: 3, output: 15 },
  "claude-sonnet-4-0": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  scripted: { input: 0, output: 0 },
  adversarial: { input: 0, output: 0 },
});

function checkPrice(model: string, p: ModelPrice): void {
  for (const key of ["input", "output", "cacheRead", "cacheWrite"] as const) {
    const v = p[key];
    if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v >= 0)) {
      throw new TypeError(`prices[${JSON.stringify(model)}].${key} must be a non-negative number, got ${JSON.stringify(v)}`);
    }
  }
  if (p.input === undefined || p.output === undefined) {
    throw new TypeError(`prices[${JSON.stringify(model)}] needs both input and output prices`);
  }
}

/** Merges `overrides` over the defaults, checking every entry. */
export function priceTable(overrides: PriceTable = {}): PriceTable {
  if (overrides === null || typeof overrides !== "object") throw new TypeError("prices must be an object keyed by model");
  for (const [model, p] of Object.entries(overrides)) {
    if (p === null || typeof p !== "object") throw new TypeError(`prices[${JSON.stringify(model)}] must be an object`);
    checkPrice(model, p);
  }
  return Object.freeze({ ...DEFAULT_PRICES, ...overrides });
}

/** The price of `model`: exact key first, then the longest key that prefixes it. */
export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  const exact = table[model];
  if (exact !== undefined) return exact;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/** Dollars for `usage` at `price`. */
export function costOf(price: ModelPrice, usage: TokenUsage): number {
  const cacheRead = price.cacheRead ?? price.input * 0.1;
  const cacheWrite = price.cacheWrite ?? price.input * 1.25;
  const dollars = usage.input * price.input + usage.cacheRead * cacheRead + usage.cacheWrite * cacheWrite + usage.output * price.output;
  return dollars / 1_000_000;
}

/** Dollars a call could cost at most: all input at its dearest rate, all output tokens used. */
export function worstCaseCost(price: ModelPrice, inputTokens: number, maxOutputTokens: number): number {
  const dearestInput = Math.max(price.input, price.cacheWrite ?? price.input * 1.25, price.cacheRead ?? 0);
  return (inputTokens * dearestInput + maxOutputTokens * price.output) / 1_000_000;
}
