/** `Promise.all` over tool calls runs them concurrently; everything else runs in program order. */
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool } from "../../src/index.js";

function slowTools() {
  let running = 0;
  let peak = 0;
  const order: string[] = [];
  const fetch = defineTool({
    name: "fetch_item",
    description: "Fetches an item slowly.",
    parameters: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
    label: () => Label.trusted(),
    run: async (args: { id: number }) => {
      running++;
      peak = Math.max(peak, running);
      order.push(`start ${args.id}`);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      return { id: args.id, next: args.id + 10 };
    },
  });
  return { fetch, peak: () => peak, order };
}

describe("Promise.all", () => {
  it("runs independent tool calls together and keeps their results in order", async () => {
    const t = slowTools();
    const r = await createRuntime({ tools: [t.fetch] }).run(`const items = await Promise.all([1, 2, 3, 4].map((id) => fetch_item({ id }))); items.map((x) => x.id)`);
    expect(r.value).toEqual([1, 2, 3, 4]);
    expect(t.peak()).toBe(4);
    expect(r.calls.map((c) => c.args.id)).toEqual([1, 2, 3, 4]);
  });

  it("a call that needs an earlier result of the same batch waits for it", async () => {
    const t = slowTools();
    const r = await createRuntime({ tools: [t.fetch] }).run(`await Promise.all([fetch_item({ id: 1 }), fetch_item({ id: fetch_item({ id: 2 }).next })]).map((x) => x.id)`);
    expect(r.value).toEqual([1, 12]);
    expect(r.calls.map((c) => c.args.id)).toEqual([1, 2, 12]);
  });

  it("throws the first call in program order that failed, as JavaScript's Promise.all over calls that all start", async () => {
    const failing = defineTool({
      name: "fail_item",
      description: "Fails with the id it was given.",
      parameters: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
      run: (args: { id: number }) => {
        throw new Error(`item ${args.id} is gone`);
      },
    });
    const runtime = createRuntime({ tools: [failing, slowTools().fetch] });
    const r = await runtime.run(`let seen = "none";\ntry { await Promise.all([fetch_item({ id: 0 }), fail_item({ id: 1 }), fail_item({ id: 2 })]); } catch (e) { seen = e.message; }\nseen`);
    expect(r.status).toBe("completed");
    expect(r.calls.map((c) => c.tool)).toEqual(["fetch_item", "fail_item", "fail_item"]);
    expect(r.value).toBe("fail_item failed: item 1 is gone");
  });

  it("outside Promise.all, calls run one after another", async () => {
    const t = slowTools();
    await createRuntime({ tools: [t.fetch] }).run(`for (const id of [1, 2, 3]) { fetch_item({ id }); }`);
    expect(t.peak()).toBe(1);
  });
});
