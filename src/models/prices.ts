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
  /**
   * Dearer prices for a call whose prompt (input, cache reads and cache writes together) is
   * longer than `aboveTokens`: they apply to every token of that call, output included.
   */
  longPrompt?: { aboveTokens: number; input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

/** Prices by model identifier. A key also covers longer identifiers it prefixes (dated versions). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Published list prices at the time of writing, for convenience only: check them and pass your
 * own with `prices` (they are merged over these). Offline models cost nothing.
 *
 * Where they come from (stored copies of Anthropic's documentation, platform.claude.com):
 * - claude-sonnet-5-5: the model overview page (docs/.../models/sonnet-5-5/overview): $2 input,
 *   $10 output, $2.50 5-minute cache write, $0.20 cache read per million tokens. Two price
 *   trackers report a cut of cache reads to $0.10 from 2026-10-07 that the stored page does not
 *   show yet; the page's figure is kept (it can only overstate the cost).
 * - claude-haiku-5-5: the model overview page (docs/.../models/haiku-5-5/overview): $0.10 input,
 *   $0.50 output, $0.125 5-minute cache write for prompts up to 100,000 tokens, and $0.50,
 *   $2.50, $0.625 above; cache reads $0.01 and $0.05 as the Haiku 5.5 API guides give them
 *   (the stored page's excerpt stops before that line).
 * - the older models: Anthropic's pricing page as it was when they were added.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  "claude-sonnet-5-5": { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
  "claude-haiku-5-5": {
    input: 0.1,
    output: 0.5,
    cacheWrite: 0.125,
    cacheRead: 0.01,
    longPrompt: { aboveTokens: 100_000, input: 0.5, output: 2.5, cacheWrite: 0.625, cacheRead: 0.05 },
  },
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-opus-4-1": { input: 15, output: 75 },
  "claude-opus-4-0": { input: 15, output: 75 },
  "claude-sonnet-4-5": { input: 3, output: 15 },
  "claude-sonnet-4-0": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  scripted: { input: 0, output: 0 },
  adversarial: { input: 0, output: 0 },
});

function checkRates(where: string, p: Omit<ModelPrice, "longPrompt">): void {
  for (const key of ["input", "output", "cacheRead", "cacheWrite"] as const) {
    const v = p[key];
    if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v >= 0)) {
      throw new TypeError(`${where}.${key} must be a non-negative number, got ${JSON.stringify(v)}`);
    }
  }
  if (p.input === undefined || p.output === undefined) throw new TypeError(`${where} needs both input and output prices`);
}

function checkPrice(model: string, p: ModelPrice): void {
  const where = `prices[${JSON.stringify(model)}]`;
  checkRates(where, p);
  if (p.longPrompt === undefined) return;
  const long = p.longPrompt;
  if (long === null || typeof long !== "object") throw new TypeError(`${where}.longPrompt must be an object`);
  if (!(typeof long.aboveTokens === "number" && long.aboveTokens >= 0)) throw new TypeError(`${where}.longPrompt.aboveTokens must be a non-negative number`);
  checkRates(`${where}.longPrompt`, long);
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

/** The rates that apply to a call whose prompt has `promptTokens` tokens. */
function ratesFor(price: ModelPrice, promptTokens: number): Omit<ModelPrice, "longPrompt"> {
  const long = price.longPrompt;
  return long !== undefined && promptTokens > long.aboveTokens ? long : price;
}

/** Dollars for `usage` at `price`, the usage of one call (the prompt length picks the rates). */
export function costOf(price: ModelPrice, usage: TokenUsage): number {
  const rates = ratesFor(price, usage.input + usage.cacheRead + usage.cacheWrite);
  const cacheRead = rates.cacheRead ?? rates.input * 0.1;
  const cacheWrite = rates.cacheWrite ?? rates.input * 1.25;
  const dollars = usage.input * rates.input + usage.cacheRead * cacheRead + usage.cacheWrite * cacheWrite + usage.output * rates.output;
  return dollars / 1_000_000;
}

/** Dollars a call could cost at most: all input at its dearest rate, all output tokens used. */
export function worstCaseCost(price: ModelPrice, inputTokens: number, maxOutputTokens: number): number {
  const rates = ratesFor(price, inputTokens);
  const dearestInput = Math.max(rates.input, rates.cacheWrite ?? rates.input * 1.25, rates.cacheRead ?? 0);
  return (inputTokens * dearestInput + maxOutputTokens * rates.output) / 1_000_000;
}
