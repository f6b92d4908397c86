import { describe, expect, it } from "vitest";
import { createAgent, createRuntime, scoreRetrieval, scriptedPlanner, searchTools, type PlannerRequest, type Tool } from "../../src/index.js";
import { independentRequests, notes, requests, tools } from "../support/search-corpus.js";

/**
 * With tool search in front of the planner, a task can only succeed when its tool was
 * retrieved: the planner sees, and the runtime offers, only the top k. The planner here is an
 * oracle (it knows each task's tool and calls it whenever it is declared), so what fails is
 * retrieval alone, and accuracy equals the hit rate.
 */

const K = 5;
const byName = new Map(tools.map((t) => [t.name, t]));

/** Arguments that satisfy a tool's schema: every required parameter with a value of its type. */
function argsFor(tool: Tool): Record<string, unknown> {
  const schema = tool.parameters as { properties: Record<string, { type: string }>; required: string[] };
  const sample: Record<string, unknown> = { string: "x", number: 1, boolean: false, array: [] };
  return Object.fromEntries(schema.required.map((p) => [p, sample[schema.properties[p].type]]));
}

/**
 * The oracle's program: a call of one of the task's tools that the prompt declares; when none
 * is declared, of the first tool declared, or (`insist`) of the task's tool all the same.
 */
function oracle(wants: readonly string[], insist = false) {
  return (request: PlannerRequest) => {
    const declared = [...request.system.matchAll(/declare function (\w+)\(/g)].map((m) => m[1]).filter((n) => n !== "query_ai_assistant");
    const name = wants.find((w) => declared.includes(w)) ?? (insist ? wants[0] : declared[0] ?? wants[0]);
    return `${name}(${JSON.stringify(argsFor(byName.get(name)!))});`;
  };
}

async function attempt(request: string, wants: readonly string[], offered: string[], insist = false) {
  const runtime = createRuntime({ tools: offered.map((n) => byName.get(n)!) });
  const agent = createAgent({ runtime, planner: scriptedPlanner([oracle(wants, insist)]), maxRuns: 1 });
  const result = await agent.run(request);
  return { result, called: result.result?.calls.filter((c) => c.decision === "allow").map((c) => c.tool) ?? [] };
}

describe("a scripted planner behind tool search", () => {
  it("succeeds on a task whose tool was retrieved and fails on one whose tool was not", async () => {
    const found = "give Bob his money back for order 55";
    const offered = searchTools(tools, found, K, { notes });
    expect(offered).toContain("stripe_create_refund");
    const ok = await attempt(found, ["stripe_create_refund"], offered);
    expect(ok.result.status).toBe("completed");
    expect(ok.called).toEqual(["stripe_create_refund"]);

    const lost = "what folders do I have in my mail";
    const shown = searchTools(tools, lost, K, { notes });
    expect(shown).not.toContain("gmail_list_email_labels");
    const bad = await attempt(lost, ["gmail_list_email_labels"], shown);
    expect(bad.called).not.toContain("gmail_list_email_labels");
    // A planner that calls the tool all the same fails: the runtime offers only what was retrieved.
    const blind = await attempt(lost, ["gmail_list_email_labels"], shown, true);
    expect(blind.result.status).toBe("failed");
    expect(blind.called).toEqual([]);
  });

  it.each([
    ["the phase-1 set", requests],
    ["the independent set", independentRequests],
  ])("has an accuracy equal to the hit rate at k over %s", async (_name, set) => {
    let solved = 0;
    for (const r of set) {
      const offered = searchTools(tools, r.request, K, { notes });
      const { called } = await attempt(r.request, r.tools, offered);
      if (called.some((c) => r.tools.includes(c))) solved += 1;
    }
    const hitRate = scoreRetrieval((q, k) => searchTools(tools, q, k, { notes }), set, [K]).hitRate[K];
    expect(solved / set.length).toBe(hitRate);
    expect(hitRate).toBeGreaterThan(0.9);
  });
});
