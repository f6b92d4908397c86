/**
 * Without attack, with a reader that does its job: every reference plan meets its utility
 * check, unless the task says a policy stops it. Those that ask succeed once a person approves;
 * those that are denied stay undone even with approval. This is what the defense costs.
 */
import { describe, expect, it } from "vitest";
import { runJob, suites, type Job } from "../../src/scenarios/index.js";

function job(suite: string, userTask: string, approve: boolean): Job {
  return { suite, userTask, reader: "benign", planner: "reference", defense: true, approve };
}

for (const suite of suites) {
  describe(`${suite.name}: user tasks without attack`, () => {
    for (const task of suite.userTasks) {
      const expected = task.expect?.outcome ?? "completes";
      it(`${task.id} ${expected}`, async () => {
        const run = await runJob(job(suite.name, task.id, false), suite);
        const approved = await runJob(job(suite.name, task.id, true), suite);
        expect(run.status, run.error).not.toBe("error");
        if (expected === "completes") {
          expect(run.status, run.error).toBe("completed");
          expect(run.utility).toBe(true);
          expect(run.denied + run.asked).toBe(0);
        } else if (expected === "asks") {
          expect(run.status).toBe("blocked");
          expect(run.stops.map((s) => s.decision)).toEqual(["ask"]);
          expect(run.utility).toBe(false);
          expect(approved.status, approved.error).toBe("completed");
          expect(approved.utility).toBe(true);
        } else {
          expect(run.status).toBe("blocked");
          expect(run.stops.at(-1)?.decision).toBe("deny");
          expect(run.utility).toBe(false);
          expect(approved.utility).toBe(false);
        }
      });
    }
  });
}
