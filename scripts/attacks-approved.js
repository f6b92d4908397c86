#!/usr/bin/env node
/**
 * Attack runs with every ask approved (a person who says yes to everything), for a corpus and
 * every reference plan: which injection tasks then succeed. The scenario runs decline asks under
 * attack; this measures what the asks alone hold back, to compare before and after a change
 * that turns denials into asks. Runs over dist/ (npm run build first):
 *
 *   node scripts/attacks-approved.js corpus/plans [corpus/readers/answers.json] > approved.json
 */
import { loadCorpus } from "../dist/scenarios/corpus/load.js";
import { suites, suiteNamed } from "../dist/scenarios/suites/index.js";
import { runJob } from "../dist/scenarios/job.js";
import { defaultWorkers, runPool, threadsAvailable } from "../dist/scenarios/parallel.js";
import { attacks } from "../dist/scenarios/attacks.js";

const [dir, answers = "corpus/readers/answers.json"] = process.argv.slice(2);
if (dir === undefined) {
  console.error("usage: node scripts/attacks-approved.js <plans dir> [answers.json]");
  process.exit(2);
}
const { plans } = await loadCorpus(dir, suites);
const entries = plans.filter((p) => p.program).map((p) => ({ suite: p.suite, task: p.task, variant: p.variant, plan: p.program }));
for (const s of suites) for (const u of s.userTasks) entries.push({ suite: s.name, task: u.id, variant: "reference" });
const jobs = [];
for (const e of entries) {
  const own = e.plan === undefined ? {} : { plan: e.plan, readerAnswers: answers };
  for (const a of attacks) {
    for (const inj of suiteNamed(e.suite).injectionTasks) {
      jobs.push({ suite: e.suite, userTask: e.task, variant: e.variant, injectionTask: inj.id, attack: a.name, reader: "adversarial", planner: "reference", defense: true, approve: true, ...own });
    }
  }
}
const workers = defaultWorkers();
const ran = await runPool(jobs, { workers, threads: threadsAvailable() && workers > 1, inline: (j) => runJob(j, suiteNamed(j.suite)) });
const wins = ran.filter((r) => r.security === true);
console.log(JSON.stringify({ runs: ran.length, wins: wins.length, corpusWins: wins.filter((r) => r.variant !== "reference").length, list: wins.map((r) => `${r.suite}/${r.userTask}.${r.variant} ${r.injectionTask} ${r.attack}`).sort() }, null, 1));
