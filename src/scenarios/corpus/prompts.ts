/**
 * The exact prompts a live planner gets for each user task: the system prompt of the suite's
 * tools and the first user turn (today's date and the request), as `createAgent` sends them.
 * Written to a folder, they let people or models play the planner and hand back plans for the
 * corpus, without any tool data.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { EXTENDED_LANGUAGE, plannerSystemPrompt, requestTurn, todayText } from "../../models/index.js";
import { copyJson } from "../environment.js";
import type { ScenarioSuite } from "../types.js";

/** The prompts of one user task. */
export interface TaskPrompt {
  suite: string;
  task: string;
  /** The planner's system prompt. */
  system: string;
  /** The planner's first user turn. */
  user: string;
}

/** The prompts of every user task of `suites`. */
export function taskPrompts(suites: readonly ScenarioSuite[]): TaskPrompt[] {
  const out: TaskPrompt[] = [];
  for (const suite of suites) {
    const system = plannerSystemPrompt(suite.tools(copyJson(suite.environment())));
    const today = suite.today === undefined ? undefined : todayText(suite.today);
    for (const task of suite.userTasks) out.push({ suite: suite.name, task: task.id, system, user: requestTurn(task.prompt, today) });
  }
  return out;
}

const README = `# Planner prompts for the live-plan corpus

One folder per suite; for each user task, \`<task>.system.txt\` is the planner's system prompt
and \`<task>.user.txt\` its first user turn, byte for byte what \`createAgent\` sends (the
system prompt is the same for every task of a suite). \`index.json\` lists them.

To add a plan to the corpus: give a model the system prompt as its system prompt and the user
turn as the only message, and save its answer, unedited, as
\`<corpus>/<suite>/<task>.<variant>.md\` (variant: any name without dots, e.g. \`a\`, \`sonnet-1\`).
Then \`npm run corpus\` (or \`sluice scenarios --plans <corpus>\`) runs every plan and prints it
side by side with the reference plans.
`;

/** Writes the prompts of `suites` under `dir`; returns how many tasks it wrote. */
export async function writePrompts(dir: string, suites: readonly ScenarioSuite[]): Promise<number> {
  const prompts = taskPrompts(suites);
  for (const suite of new Set(prompts.map((p) => p.suite))) await mkdir(join(dir, suite), { recursive: true });
  for (const p of prompts) {
    await writeFile(join(dir, p.suite, `${p.task}.system.txt`), p.system, "utf8");
    await writeFile(join(dir, p.suite, `${p.task}.user.txt`), p.user, "utf8");
  }
  const index = prompts.map((p) => ({ suite: p.suite, task: p.task, system: `${p.suite}/${p.task}.system.txt`, user: `${p.suite}/${p.task}.user.txt` }));
  await writeFile(join(dir, "index.json"), JSON.stringify({ language: EXTENDED_LANGUAGE ? "extended" : "current", tasks: index }, null, 2) + "\n", "utf8");
  await writeFile(join(dir, "README.md"), README, "utf8");
  return prompts.length;
}
