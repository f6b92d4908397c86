/**
 * The end of a run is not before the end of its calls: however a run ends while a slow
 * side-effecting call is in flight (a budget refusal in the same Promise.all batch, the host
 * failing on a later call of the batch), the record handed back says what the call did, and a
 * retry with `previous` replays it instead of paying twice (attack round 4, finding 2).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Label, createRuntime, defineTool } from "../../src/index.js";
import type { Permissions } from "../../src/policy/index.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function payTools() {
  const paid: number[] = [];
  const pay = defineTool({
    name: "pay", description: "Pays.", sideEffect: true, parameters: { type: "object" }, policy: () => ({ kind: "allow" }), label: () => Label.trusted(),
    run: async (a: { amount: number }) => {
      await sleep(120);
      paid.push(a.amount);
      return { paid: a.amount };
    },
  });
  const quote = defineTool({ name: "quote", description: "A price.", parameters: { type: "object" }, label: () => Label.trusted(), run: async () => ({ eur: 3 }) });
  return { tools: [pay, quote], paid };
}

const BATCH = `const [p, q] = await Promise.all([pay({ amount: 10 }), quote({})]);\np;`;

describe("a run that ends while a call of its batch is in flight", () => {
  it("a budget refusal in the batch: the payment that went through is recorded as done, and the retry does not pay again", async () => {
    const { tools, paid } = payTools();
    const rt = createRuntime({ tools, budget: { steps: 1 } });
    const first = await rt.run(BATCH);
    expect(first.status).toBe("failed");
    expect(first.error?.kind).toBe("limit");
    // What the caller is handed already says the payment was made; nothing changes it later.
    expect(paid).toEqual([10]);
    const pay = first.calls.find((c) => c.tool === "pay")!;
    expect(pay.result).toEqual({ paid: 10 });
    expect(pay.error).toBeUndefined();
    const shown = JSON.stringify(first.calls);
    await sleep(200);
    expect(JSON.stringify(first.calls)).toBe(shown);
    const retry = await rt.run(`pay({ amount: 10 });`, { previous: first });
    expect(retry.calls[0].replayed).toBe(true);
    expect(paid).toEqual([10]);
  });

  it("the host failing on a later call of the batch: the call already running is still recorded with its result", async () => {
    const { tools, paid } = payTools();
    const later = defineTool({ name: "note", description: "Notes.", sideEffect: true, parameters: { type: "object" }, policy: () => ({ kind: "allow" }), run: () => ({ ok: true }) });
    let seen = 0;
    const rt = createRuntime({
      tools: [...tools, later],
      // The first call of the batch passes; the second breaks the host while the first pays.
      permissions: {
        decide: () => {
          if (++seen > 1) throw new Error("the permission engine failed");
          return { kind: "allow" };
        },
        rules: [],
        defaults: [],
      } as Permissions,
    });
    const first = await rt.run(`const [p, n] = await Promise.all([pay({ amount: 7 }), note({ text: "x" })]);\np;`);
    expect(first.status).toBe("failed");
    expect(paid).toEqual([7]);
    expect(first.calls.find((c) => c.tool === "pay")?.result).toEqual({ paid: 7 });
  });

  it("property: for any batch and budget, every payment made is in the record handed back, and a retry makes each payment once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 40 }), { minLength: 2, maxLength: 5 }), fc.nat({ max: 4 }), async (delays, steps) => {
        const paid: number[] = [];
        const pay = defineTool({
          name: "pay", description: "Pays.", sideEffect: true, parameters: { type: "object" }, policy: () => ({ kind: "allow" }), label: () => Label.trusted(),
          run: async (a: { amount: number; ms: number }) => {
            await sleep(a.ms);
            paid.push(a.amount);
            return { paid: a.amount };
          },
        });
        const program = `await Promise.all([${delays.map((ms, i) => `pay({ amount: ${i}, ms: ${ms} })`).join(", ")}]);`;
        const first = await createRuntime({ tools: [pay], budget: { steps: steps + 1 } }).run(program);
        const recorded = first.calls.filter((c) => c.result !== undefined).map((c) => (c.result as { paid: number }).paid);
        if (JSON.stringify([...recorded].sort()) !== JSON.stringify([...paid].sort())) return false;
        const again = await createRuntime({ tools: [pay] }).run(program, { previous: first });
        return again.status === "completed" && JSON.stringify([...paid].sort()) === JSON.stringify(delays.map((_, i) => i));
      }),
      { numRuns: 8 },
    );
  });
});
