/**
 * Robustness: no generated plan, however hostile (endless loops and recursion, unbounded
 * strings and arrays, tool calls in a loop, bad arguments, refused syntax, plans cut short),
 * makes a run throw, hang past its limits or end in anything but a result of a known kind.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { HOSTILE_STATEMENTS, REFUSED_FRAGMENTS, hostilePlanArb, inputPairArb, obedientReader, soundnessTools } from "../../src/testing/index.js";
import { runs, seed } from "./support.js";

const LIMITS = { steps: 100_000, timeMs: 1_000, memoryBytes: 32 * 1024 * 1024, stringLength: 100_000, arrayLength: 10_000, callDepth: 100, hostCalls: 50 };
const KINDS = ["syntax", "unsupported", "runtime", "limit", "policy"];
/** The documented guarantee is "in seconds"; this bound is generous, to catch a limit that does not hold, not to time anything. */
const WALL_MS = LIMITS.timeMs + 10_000;

async function runHostile(program: string, input: Parameters<typeof soundnessTools>[0]) {
  const started = Date.now();
  const result = await createRuntime({ tools: soundnessTools(input), quarantined: obedientReader(), approve: () => true, limits: LIMITS }).run(program);
  return { result, ms: Date.now() - started };
}

function expectWellFormed(result: Awaited<ReturnType<typeof runHostile>>["result"], ms: number, program: string): void {
  expect(["completed", "blocked", "failed"], program).toContain(result.status);
  if (result.status !== "completed") {
    expect(KINDS, program).toContain(result.error?.kind);
    expect(result.error?.message ?? "", program).not.toMatch(/^internal error/);
    expect(typeof result.error?.message, program).toBe("string");
  }
  if (result.status === "blocked") expect(result.error?.kind).toBe("policy");
  // The step that crosses the budget is counted before the run stops.
  expect(result.steps, program).toBeLessThanOrEqual(LIMITS.steps + 1);
  expect(result.calls.length + result.queries.length, program).toBeLessThanOrEqual(LIMITS.hostCalls);
  expect(ms, program).toBeLessThan(WALL_MS);
}

describe("robustness over hostile generated plans", () => {
  it("every run ends with a result of a known kind, within its limits", async () => {
    await fc.assert(
      fc.asyncProperty(hostilePlanArb(), inputPairArb("integrity"), async (program, [input]) => {
        const { result, ms } = await runHostile(program, input);
        expectWellFormed(result, ms, program);
      }),
      { numRuns: runs(300), seed: seed() },
    );
  });

  it("each hostile statement alone ends well, and each refused fragment fails before it runs", async () => {
    const [input] = fc.sample(inputPairArb("integrity"), { numRuns: 1, seed: 1 })[0];
    const prelude = `const S = { type: "object" }; let v0 = 0; let v1 = 1; let w = ""; const o = { k: 0 }; const arr = [1, 2];\n`;
    for (const stmt of HOSTILE_STATEMENTS) {
      const { result, ms } = await runHostile(prelude + stmt, input);
      expectWellFormed(result, ms, stmt);
    }
    for (const frag of REFUSED_FRAGMENTS) {
      const { result } = await runHostile(prelude + frag, input);
      expect(result.status, frag).toBe("failed");
      expect(["syntax", "unsupported", "runtime"], frag).toContain(result.error?.kind);
      expect(result.calls, frag).toEqual([]);
    }
  });
});
