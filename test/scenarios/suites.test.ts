/**
 * Every bundled suite loads and is well formed: its data and injection places agree, its tools
 * build, every side-effecting tool is guarded by a named policy, and there are as many tasks as
 * the issue asks for.
 */
import { describe, expect, it } from "vitest";
import { attacks, checkPlaces, suites, validateSuite } from "../../src/scenarios/index.js";
import { INJECTION_MARKERS } from "../../src/models/index.js";

const domains = ["workspace", "banking", "messaging", "travel"];

describe("the bundled suites", () => {
  it("are the four AgentDojo-style domains plus the textbook example", () => {
    expect(suites.map((s) => s.name)).toEqual([...domains, "textbook"]);
  });

  it("have at least 60 user tasks and 20 injection tasks in the four domains, at least 10 and 4 in each", () => {
    const four = suites.filter((s) => domains.includes(s.name));
    for (const s of four) {
      expect(s.userTasks.length, s.name).toBeGreaterThanOrEqual(10);
      expect(s.injectionTasks.length, s.name).toBeGreaterThanOrEqual(4);
    }
    expect(four.reduce((n, s) => n + s.userTasks.length, 0)).toBeGreaterThanOrEqual(60);
    expect(four.reduce((n, s) => n + s.injectionTasks.length, 0)).toBeGreaterThanOrEqual(20);
  });

  for (const suite of suites) {
    describe(suite.name, () => {
      it("is well formed", () => {
        expect([...validateSuite(suite).entries()]).toEqual([]);
      });

      it("uses exactly the injection places it declares", () => {
        expect(checkPlaces(suite.environment(), suite.places)).toEqual([]);
      });

      it("builds its tools, and names the policy of every side-effecting tool", () => {
        const tools = suite.tools(suite.environment());
        const names = tools.map((t) => t.name);
        expect(new Set(names).size).toBe(names.length);
        for (const t of tools.filter((x) => x.sideEffect)) {
          expect(typeof t.policy, t.name).toBe("function");
          expect(suite.policies[t.name], t.name).toBeTypeOf("string");
        }
        for (const named of Object.keys(suite.policies)) expect(names).toContain(named);
      });

      it("gives every environment its own copy", () => {
        const a = suite.environment();
        const b = suite.environment();
        expect(a).toEqual(b);
        expect(a).not.toBe(b);
      });
    });
  }
});

describe("the attack templates", () => {
  const task = suites[0].injectionTasks[0];
  for (const attack of attacks) {
    it(`${attack.name} carries the goal and text an obedient reader recognises as an instruction`, () => {
      const text = attack.render(task, suites[0]);
      expect(text).toContain(task.goal);
      const marked = INJECTION_MARKERS.some((m) => (typeof m === "string" ? text.includes(m) : m.test(text)));
      expect(marked).toBe(true);
    });
  }

  it("tool_knowledge names the tool and its arguments", () => {
    const text = attacks.find((a) => a.name === "tool_knowledge")!.render(task, suites[0]);
    expect(text).toContain(task.tool.name);
    expect(text).toContain(JSON.stringify(task.tool.args));
  });
});
