// Measures sluice's tool search on the labelled corpus in benchmarks/search (see README there).
// Run with `npm run search-eval` (builds first). Prints a Markdown table per split; with
// --misses, the requests whose tools were not in the top 10 for the full configuration.
import { readFileSync } from "node:fs";
import { createToolIndex, corpusTools, scoreRetrieval } from "../dist/index.js";
import { loadWordNet } from "./search/wordnet.js";

const read = (f) => JSON.parse(readFileSync(new URL(`./search/${f}`, import.meta.url), "utf8"));
const corpus = read("tools.json");
const { requests } = read("requests.json");
const { tools, notes } = corpusTools(corpus);
const wordnet = loadWordNet();
const KS = [1, 3, 5, 10];

export const CONFIGS = [
  { label: "BM25 over name, terse description, parameter names", options: { stem: false, lexicon: false } },
  { label: "+ server notes", options: { stem: false, lexicon: false, notes } },
  { label: "+ stemming", options: { lexicon: false, notes } },
  { label: "+ stemming + raw WordNet synonyms (instead of the lexicon)", options: { lexicon: false, notes, expandTerm: wordnet } },
  { label: "+ stemming + lexicon (sluice's default)", options: { notes } },
  { label: "+ stemming + lexicon + raw WordNet synonyms", options: { notes, expandTerm: wordnet } },
];

/** True when the request shares no (stemmed, non-stop) word with any of its tools' name, description or parameters. */
function sharesNoWord(index, r) {
  return !r.tools.some((t) => index.rank(r.request).some((h) => h.name === t));
}

const pct = (x) => (100 * x).toFixed(1);
const splits = [
  ["dev", requests.filter((r) => r.split === "dev")],
  ["held-out", requests.filter((r) => r.split === "heldout")],
  ["all", requests],
];
// A request shares no word with its tool when plain stemmed BM25 over name, description and
// parameters (no notes, no lexicon) gives that tool no score at all.
const bare = createToolIndex(tools, { lexicon: false });
for (const [name, set] of splits) {
  const disjoint = set.filter((r) => sharesNoWord(bare, r)).length;
  console.log(`\n### ${name}: ${set.length} requests, ${disjoint} (${pct(disjoint / set.length)}%) share no word with their tool\n`);
  console.log(`| configuration | ${KS.map((k) => `hit@${k}`).join(" | ")} | ${KS.map((k) => `recall@${k}`).join(" | ")} |`);
  console.log(`|---|${KS.map(() => "---:").join("|")}|${KS.map(() => "---:").join("|")}|`);
  for (const c of CONFIGS) {
    const index = createToolIndex(tools, c.options);
    const s = scoreRetrieval((q, k) => index.search(q, k), set, KS);
    console.log(`| ${c.label} | ${KS.map((k) => pct(s.hitRate[k])).join(" | ")} | ${KS.map((k) => pct(s.recall[k])).join(" | ")} |`);
  }
}
if (process.argv.includes("--misses")) {
  const split = process.argv.includes("--heldout") ? "heldout" : "dev";
  const index = createToolIndex(tools, { notes });
  for (const r of requests.filter((x) => x.split === split)) {
    const got = index.search(r.request, 5);
    if (!r.tools.some((t) => got.includes(t))) console.log(`miss@5 #${r.id} ${JSON.stringify(r.request)} want ${r.tools.join(",")} got ${got.join(",")}`);
  }
}
