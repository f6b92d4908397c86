// Speed of sluice's tool search over 1,000 tools (the 85 corpus tools under 12 server names),
// against lunr (another BM25 engine) given the same terms, in one process. Also the planner
// prompt's size with every declaration against the top 5. Run: `npm run search-bench`.
import { readFileSync } from "node:fs";
import lunr from "lunr";
import { createToolIndex, corpusTools, estimateTokens, plannerSystemPrompt } from "../dist/index.js";
import { terms } from "../dist/search/text.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const read = (f) => JSON.parse(readFileSync(new URL(`./search/${f}`, import.meta.url), "utf8"));
const corpus = read("tools.json");
const { requests } = read("requests.json");

// 12 copies of each server, e.g. github0_create_issue … github11_create_issue: 1,020 tools.
const servers = {};
const many = [];
for (let i = 0; i < 12; i++) {
  for (const [s, v] of Object.entries(corpus.servers)) servers[`${s}${i}`] = v;
  for (const t of corpus.tools) many.push({ ...t, server: `${t.server}${i}` });
}
const { tools, notes } = corpusTools({ servers, tools: many });
const queries = requests.map((r) => r.request);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function time(fn) {
  const t = process.hrtime.bigint();
  const out = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, out };
}

const docs = tools.map((t, id) => ({
  id: String(id),
  name: terms(t.name, { stem: true }).join(" "),
  description: terms(t.description, { stem: true }).join(" "),
  parameters: terms(Object.keys(t.parameters.properties).join(" "), { stem: true }).join(" "),
}));
function lunrIndex() {
  return lunr(function () {
    this.pipeline.reset();
    this.searchPipeline.reset();
    this.ref("id");
    this.field("name", { boost: 2 });
    this.field("description");
    this.field("parameters", { boost: 0.5 });
    for (const d of docs) this.add(d);
  });
}
// lunr's query syntax treats some characters specially; it is given the same terms sluice searches for.
const lunrQueries = queries.map((q) => terms(q, { stem: true }).join(" "));

const rows = { sluiceBuild: [], lunrBuild: [], sluiceQuery: [], lunrQuery: [] };
for (let run = 0; run < RUNS; run++) {
  const s = time(() => createToolIndex(tools, { notes }));
  rows.sluiceBuild.push(s.ms);
  const l = time(lunrIndex);
  rows.lunrBuild.push(l.ms);
  rows.sluiceQuery.push(time(() => queries.forEach((q) => s.out.search(q, 5))).ms / queries.length);
  rows.lunrQuery.push(time(() => lunrQueries.forEach((q) => l.out.search(q).slice(0, 5))).ms / lunrQueries.length);
}
const f = (x) => x.toFixed(3);
console.log(`${tools.length} tools, ${queries.length} queries, median of ${RUNS} runs\n`);
console.log("| step | sluice (minisearch + stems + lexicon) ms | lunr (same terms, no lexicon) ms | sluice/lunr |");
console.log("|---|---:|---:|---:|");
const b = [median(rows.sluiceBuild), median(rows.lunrBuild)];
const q = [median(rows.sluiceQuery), median(rows.lunrQuery)];
console.log(`| build the index | ${f(b[0])} | ${f(b[1])} | ${(b[0] / b[1]).toFixed(2)} |`);
console.log(`| one query, top 5 | ${f(q[0])} | ${f(q[1])} | ${(q[0] / q[1]).toFixed(2)} |`);

const index = createToolIndex(tools, { notes });
const all = estimateTokens(plannerSystemPrompt(tools));
const top = median(queries.map((qq) => estimateTokens(plannerSystemPrompt(index.search(qq, 5).map((n) => tools.find((t) => t.name === n))))));
console.log(`\nPlanner system prompt, estimated tokens: ${all} with all ${tools.length} declarations, ${top} (median) with the top 5.`);
