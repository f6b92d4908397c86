/**
 * The static plan check on the suites' reference plans: what it predicts before anything runs,
 * and that every predicted refusal happens, without attack and under every injection task (one
 * attack per pair, rotating), whenever the run reaches the call.
 */
import { describe, expect, it } from "vitest";
import { checkPlan } from "../../src/plancheck/index.js";
import { adversarialReader, createRuntime, scriptedReader, type RunResult } from "../../src/index.js";
import { attackNamed, attacks, fillPlaces, suites, type InjectionTask, type ScenarioSuite, type UserTask } from "../../src/scenarios/index.js";
import { copyJson, everywhere } from "../../src/scenarios/environment.js";

function sites(plan: string, tool: string): number {
  return plan.split(new RegExp(`\\b${tool}\\(`)).length - 1;
}

async function run(suite: ScenarioSuite, task: UserTask<unknown>, injection?: InjectionTask<unknown>, attack?: string): Promise<RunResult> {
  const texts = injection === undefined ? {} : everywhere(suite.places, attackNamed(attack!).render(injection, suite));
  const env = fillPlaces(suite.environment(), suite.places, texts);
  const benign = scriptedReader(task.reader ?? []);
  const reader = injection === undefined ? benign : adversarialReader({ attackerValues: injection.attacker, fallback: benign });
  return createRuntime({ tools: suite.tools(env), quarantined: reader, approve: () => false }).run(task.plan);
}

describe("the static plan check on the reference plans", () => {
  it("predicts refusals that the runs then make", async () => {
    const predicted: string[] = [];
    let reached = 0;
    let i = 0;
    for (const suite of suites) {
      const tools = suite.tools(copyJson(suite.environment()));
      for (const task of suite.userTasks) {
        const { findings, error } = checkPlan(task.plan, tools);
        expect(error).toBeUndefined();
        predicted.push(...findings.map((f) => `${suite.name}/${task.id} line ${f.line}: ${f.tool} ${f.decision} ${f.argument ?? "(control flow)"}`));
        // A tool called from one place only: its calls in the record are that place's.
        const checked = findings.filter((f) => sites(task.plan, f.tool) === 1);
        if (checked.length === 0) continue;
        const results = [await run(suite, task), ...(await Promise.all(suite.injectionTasks.map((inj) => run(suite, task, inj, attacks[i++ % attacks.length].name))))];
        for (const r of results) {
          for (const f of checked) {
            for (const c of r.calls.filter((x) => x.tool === f.tool)) {
              reached++;
              if (f.decision === "deny") expect(c.decision, f.message).toBe("deny");
              else expect(c.decision, f.message).not.toBe("allow");
            }
          }
        }
      }
    }
    expect(reached).toBeGreaterThan(20);
    expect(predicted).toMatchInlineSnapshot(`
      [
        "workspace/user_task_4 line 6: add_event_participants ask participants",
        "workspace/user_task_11 line 4: send_email ask to",
        "workspace/user_task_13 line 4: create_file ask content",
        "messaging/user_task_11 line 4: get_webpage ask url",
        "travel/user_task_7 line 3: send_email ask body",
        "travel/user_task_13 line 4: reserve_hotel ask hotel",
        "textbook/user_task_1 line 5: send_email deny to",
        "textbook/user_task_1 line 5: send_email deny body",
        "textbook/user_task_2 line 5: send_email deny (control flow)",
        "textbook/user_task_2 line 7: send_email deny (control flow)",
      ]
    `);
  }, 120_000);
});
