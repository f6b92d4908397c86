import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { costOf, DEFAULT_PRICES, priceOf } from "../../src/models/index.js";
import { worstCaseCost } from "../../src/models/prices.js";
import { DEFAULT_MODELS } from "../../src/scenarios/job.js";
import { DEFAULT_MODEL, DEFAULT_READER_MODEL } from "../../src/cli/commands/ask.js";

/** The model ids the installed SDK lists in its `Model` type. */
function sdkModels(): string[] {
  const require = createRequire(import.meta.url);
  // The package's exports map hides package.json: find its folder from its main entry.
  let root = dirname(require.resolve("@anthropic-ai/sdk"));
  while (!root.endsWith(join("node_modules", "@anthropic-ai", "sdk"))) root = dirname(root);
  const text = readFileSync(join(root, "resources/messages/messages.d.ts"), "utf8");
  const union = /export type Model = ([^;]+);/.exec(text)?.[1] ?? "";
  return [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

const usage = (u: Partial<{ input: number; cacheRead: number; cacheWrite: number; output: number }>) => ({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0, ...u });

describe("default models", () => {
  test("the planner and the reader are the newest Sonnet and Haiku in the SDK's model list, and have prices", () => {
    const models = sdkModels();
    const newest = (family: string) => models.filter((m) => m.startsWith(`claude-${family}-`) && !/\d{8}$/.test(m))[0];
    expect(DEFAULT_MODELS.planner).toBe(newest("sonnet"));
    expect(DEFAULT_MODELS.reader).toBe(newest("haiku"));
    expect([DEFAULT_MODEL, DEFAULT_READER_MODEL]).toEqual([DEFAULT_MODELS.planner, DEFAULT_MODELS.reader]);
    expect(priceOf(DEFAULT_PRICES, DEFAULT_MODELS.planner)).toMatchObject({ input: 2, output: 10 });
    expect(priceOf(DEFAULT_PRICES, DEFAULT_MODELS.reader)).toMatchObject({ input: 0.1, output: 0.5 });
  });

  test("a prompt past the long-prompt threshold is billed at the dearer rates, output included", () => {
    const haiku = DEFAULT_PRICES["claude-haiku-5-5"];
    expect(costOf(haiku, usage({ input: 100_000, output: 1_000_000 }))).toBeCloseTo(0.01 + 0.5);
    expect(costOf(haiku, usage({ input: 100_001, output: 1_000_000 }))).toBeCloseTo(0.0500005 + 2.5);
    expect(costOf(haiku, usage({ input: 60_000, cacheRead: 50_000 }))).toBeCloseTo((60_000 * 0.5 + 50_000 * 0.05) / 1e6);
    expect(worstCaseCost(haiku, 200_000, 1000)).toBeCloseTo((200_000 * 0.625 + 1000 * 2.5) / 1e6);
  });
});
