/**
 * The pool: records come back in job order, and when worker threads cannot start (here: the
 * TypeScript sources have no built worker script) the jobs still run, in this thread.
 */
import { describe, expect, it } from "vitest";
import { runJob, suites, type Job } from "../../src/scenarios/index.js";
import { runPool, threadsAvailable } from "../../src/scenarios/parallel.js";

const textbook = suites.find((s) => s.name === "textbook")!;
const jobs: Job[] = textbook.userTasks.flatMap((u) =>
  [true, false].map((approve) => ({ suite: "textbook", userTask: u.id, reader: "benign", planner: "reference", defense: true, approve }) as Job),
);

describe("runPool", () => {
  it("uses threads only from the built JavaScript", () => {
    expect(threadsAvailable()).toBe(false);
  });

  it("keeps job order in this thread", async () => {
    const seen: string[] = [];
    const records = await runPool(jobs, { threads: false, inline: (j) => runJob(j, textbook), onRecord: (r) => seen.push(r.userTask) });
    expect(records.map((r) => [r.userTask, r.approve])).toEqual(jobs.map((j) => [j.userTask, j.approve]));
    expect(seen).toHaveLength(jobs.length);
  });

  it("falls back to this thread when no worker can start, losing no job", async () => {
    const records = await runPool(jobs, { threads: true, workers: 2, inline: (j) => runJob(j, textbook) });
    expect(records.map((r) => [r.userTask, r.approve])).toEqual(jobs.map((j) => [j.userTask, j.approve]));
    expect(records.filter((r) => r.status === "error")).toEqual([]);
    expect(records.find((r) => r.userTask === "user_task_0")?.utility).toBe(true);
  });
});
