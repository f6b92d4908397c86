/**
 * Runs one benchmark program on sluice alone, many times, for a CPU profile:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/sluice-prof benchmarks/profile.js numeric 30
 *   node --cpu-prof --cpu-prof-dir=/tmp/sluice-prof benchmarks/profile.js tools 20
 *
 * The first argument picks the case whose name contains it ("tools" picks the plan through
 * createRuntime with real tools); the second is the number of runs. Then open the .cpuprofile
 * in Chrome DevTools, or summarise it with `node benchmarks/hotspots.js <file>`.
 */
import { buildPrograms } from "./programs.js";
import { sluice, sluiceTools } from "./engines.js";

const [which = "numeric", countText = "20"] = process.argv.slice(2);
const count = Number(countText);
if (!Number.isInteger(count) || count < 1) throw new Error(`run count must be a positive integer, not ${countText}`);

const { cases, planWithTools, mails } = buildPrograms();
let runner;
if (which === "tools") {
  runner = sluiceTools.prepare(planWithTools, mails);
} else {
  const c = cases.find((x) => x.name.includes(which));
  if (c === undefined) throw new Error(`no case named like "${which}"; cases: ${cases.map((x) => x.name).join("; ")}`);
  runner = sluice.prepare(c.body);
}
const t0 = process.hrtime.bigint();
for (let i = 0; i < count; i++) {
  runner.before();
  await runner.run();
  runner.after();
}
console.log(`${count} runs of "${which}" in ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms`);
