/**
 * Loads a corpus of live plans: `<dir>/<suite>/<task>.<variant>.<ext>` (or `<task>.<ext>`),
 * each file a planner's answer kept as it was given. The program is taken out of the answer as
 * the agent takes it (one fenced block); a file without fences is the program itself.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { extractProgram } from "../../models/index.js";
import type { ScenarioSuite } from "../types.js";

/** One plan of the corpus. */
export interface CorpusPlan {
  suite: string;
  task: string;
  variant: string;
  /** The file, relative to the corpus folder. */
  file: string;
  /** The program, when one could be taken out of the answer. */
  program?: string;
  /** Why no program could be taken out of the answer. */
  problem?: string;
}

const FILE = /^(user_task_\d+)(?:\.([^.]+))?\.(md|js|txt)$/;

/** The program of a planner's answer, or why there is none. */
export function programOf(answer: string): { program: string } | { problem: string } {
  if (!answer.includes("```")) return answer.trim() === "" ? { problem: "the file is empty" } : { program: answer };
  const got = extractProgram(answer);
  return got.ok ? { program: got.program } : { problem: got.problem };
}

/** Loads every plan under `dir` for `suites`; files that name no known task are listed as problems. */
export async function loadCorpus(dir: string, suites: readonly ScenarioSuite[]): Promise<{ plans: CorpusPlan[]; problems: string[] }> {
  const plans: CorpusPlan[] = [];
  const problems: string[] = [];
  let folders: string[];
  try {
    folders = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch (err) {
    throw new Error(`cannot read the corpus folder ${dir}: ${(err as Error).message}`);
  }
  for (const folder of folders) {
    const suite = suites.find((s) => s.name === folder);
    if (suite === undefined) {
      problems.push(`${folder}/: no suite of that name is selected (suites: ${suites.map((s) => s.name).join(", ")})`);
      continue;
    }
    for (const name of (await readdir(join(dir, folder))).sort()) {
      const file = `${folder}/${name}`;
      // Prompt files written next to the plans are not plans.
      if (/\.(system|user)\.txt$/.test(name)) continue;
      const m = FILE.exec(name);
      if (m === null) {
        problems.push(`${file}: not a plan file (name it <task>.<variant>.md, e.g. user_task_3.a.md)`);
        continue;
      }
      if (!suite.userTasks.some((t) => t.id === m[1])) {
        problems.push(`${file}: ${suite.name} has no ${m[1]}`);
        continue;
      }
      const answer = await readFile(join(dir, file), "utf8");
      plans.push({ suite: suite.name, task: m[1], variant: m[2] ?? "1", file, ...programOf(answer) });
    }
  }
  return { plans, problems };
}
