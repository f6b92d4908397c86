import { describe, expect, test } from "vitest";
import { defineTool, emailPolicy } from "../../src/index.js";
import { createAgent, scriptedPlanner } from "../../src/models/index.js";
import { fakeRuntime } from "./fake-runtime.js";

const search = defineTool({
  name: "search_emails",
  description: "Emails matching a query.",
  parameters: { type: "object", properties: { query: { type: "string" } } },
  output: { trusted: false, sources: ["inbox"] },
  run: () => [],
});
const contacts = defineTool({ name: "find_contact", description: "A contact.", parameters: { type: "object", properties: { name: { type: "string" } } }, output: { trusted: true }, run: () => ({}) });
const send = defineTool({
  name: "send_email",
  description: "Sends an email.",
  sideEffect: true,
  parameters: { type: "object", properties: { to: { type: "array", items: { type: "string" } }, body: { type: "string" } } },
  policy: emailPolicy(),
  run: () => ({}),
});
const TOOLS = [search, contacts, send];
const REFUSED = `const [m] = search_emails({ query: "Jonas" });\nsend_email({ to: [m.from], body: "See you Friday" });`;
const FIXED = `const c = find_contact({ name: "Jonas" });\nsend_email({ to: [c.email], body: "See you Friday" });`;

describe("createAgent: the static plan check before a program runs", () => {
  test("a program with a call refused whatever the data goes back to the planner before anything runs", async () => {
    const runtime = fakeRuntime(TOOLS, () => ({ status: "completed" }));
    const planner = scriptedPlanner([REFUSED, FIXED]);
    const out = await createAgent({ runtime, planner, today: "2025-07-14" }).run("Tell Jonas I will see him Friday.");
    expect(out.status).toBe("completed");
    expect(runtime.runs.map((r) => r.source)).toEqual([FIXED]);
    const feedback = planner.requests[1].messages.at(-1)!.content;
    expect(feedback).toMatch(/^Before running your program, sluice checked it/);
    expect(feedback).toContain("Line 2, column 1: send_email(...) will be denied: `to` must be trusted");
    expect(feedback).toContain("the result of search_emails (line 1, declared untrusted)");
    expect(feedback).toContain("or one that find_contact returns");
    expect(out.usage.planCheckRounds).toBe(1);
    expect(out.usage.steps).toBe(2);
    expect(out.planChecks.map((c) => [c.findings.length, c.sent])).toEqual([[1, true], [0, false]]);
  });

  test("a planner that answers with the same program gets it run: the runtime still decides", async () => {
    const runtime = fakeRuntime(TOOLS, () => ({ status: "blocked", error: { kind: "policy", message: "denied" } }));
    const planner = scriptedPlanner([REFUSED, REFUSED]);
    const out = await createAgent({ runtime, planner }).run("Reply to the latest email from Jonas.");
    expect(runtime.runs).toHaveLength(1);
    expect(out.status).toBe("blocked");
    expect(out.usage.planCheckRounds).toBe(1);
  });

  test("the rounds are bounded, and the check can be turned off", async () => {
    const always = () => scriptedPlanner([REFUSED, REFUSED.replace("Friday", "Monday"), REFUSED.replace("Friday", "Sunday"), FIXED]);
    const bounded = fakeRuntime(TOOLS, () => ({ status: "completed" }));
    const out = await createAgent({ runtime: bounded, planner: always(), planCheck: { rounds: 1 } }).run("Tell Jonas.");
    expect(out.usage.planCheckRounds).toBe(1);
    expect(bounded.runs).toHaveLength(1);
    const off = fakeRuntime(TOOLS, () => ({ status: "completed" }));
    const none = await createAgent({ runtime: off, planner: always(), planCheck: false }).run("Tell Jonas.");
    expect(none.usage.planCheckRounds).toBe(0);
    expect(none.planChecks).toEqual([]);
    expect(off.runs.map((r) => r.source)).toEqual([REFUSED]);
    expect(() => createAgent({ runtime: off, planner: always(), planCheck: { rounds: -1 } })).toThrow(/planCheck.rounds/);
  });

  test("the planner is told today's date from the runtime's clock, in its first user turn", async () => {
    const runtime = { ...fakeRuntime(TOOLS, () => ({ status: "completed" })), now: "2025-12-20T09:30:00Z" };
    const planner = scriptedPlanner([FIXED]);
    await createAgent({ runtime, planner }).run("Tell Jonas.");
    expect(planner.requests[0].messages[0].content).toBe("Today is 2025-12-20 (Saturday).\n\nUser request:\n\nTell Jonas.");
    expect(() => createAgent({ runtime, planner, today: "soon" })).toThrow(/today must be/);
  });
});
