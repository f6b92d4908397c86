// Measures sluice's tool search on the labelled corpus in benchmarks/search (see README there).
// Run with `npm run search-eval` (builds first). Prints a Markdown table per request set; with
// --summary, one line per configuration and set (hit@1/3/5/10); with --misses SET, the requests
// of SET (dev or odd: the sets studied while tuning) missed at 5 by the default configuration.
// The held-out sets (phase-1 held-out, independent even ids) are only ever reported in aggregate.
import { readFileSync } from "node:fs";
import { createToolIndex, corpusTools, scoreRetrieval } from "../dist/index.js";
import { loadWordNet } from "./search/wordnet.js";

const read = (f) => JSON.parse(readFileSync(new URL(`./search/${f}`, import.meta.url), "utf8"));
const corpus = read("tools.json");
const { requests } = read("requests.json");
const independent = read("requests-independent.json").requests;
const { tools, notes } = corpusTools(corpus);
const wordnet = loadWordNet();
const KS = [1, 3, 5, 10];

// Each layer of phase 2 can be turned off; the phase-1 configuration has them all off.
const phase1 = { shareExpansion: false, identifiers: false, intent: false, shorthand: false, servers: false };

export const CONFIGS = [
  { label: "BM25 over name, terse description, parameter names", options: { ...phase1, stem: false, lexicon: false } },
  { label: "+ server notes", options: { ...phase1, stem: false, lexicon: false, notes } },
  { label: "+ stemming", options: { ...phase1, lexicon: false, notes } },
  { label: "+ stemming + raw WordNet synonyms (instead of the lexicon)", options: { ...phase1, lexicon: false, notes, expandTerm: wordnet } },
  { label: "+ lexicon (phase 1's default)", options: { ...phase1, notes } },
  { label: "+ an entry's weight shared among its words", options: { ...phase1, notes, shareExpansion: true } },
  { label: "+ names by shape (paths, repos, links, ...)", options: { ...phase1, notes, shareExpansion: true, identifiers: 0.5 } },
  { label: "+ intent (the action of the request and of the tool's verb)", options: { ...phase1, notes, shareExpansion: true, identifiers: 0.5, intent: 0.5 } },
  { label: "+ shorthand spelled out", options: { ...phase1, notes, shareExpansion: true, identifiers: 0.5, intent: 0.5, shorthand: true } },
  { label: "+ server fit (sluice's default)", options: { notes } },
  { label: "sluice's default + raw WordNet synonyms", options: { notes, expandTerm: wordnet } },
];

/** The independent set's numeric id. */
const idNumber = (r) => Number(String(r.id).replace(/^\D+/, ""));
export const SETS = [
  ["phase-1 dev (tuned on)", requests.filter((r) => r.split === "dev")],
  ["phase-1 held-out", requests.filter((r) => r.split === "heldout")],
  ["independent, odd ids (studied)", independent.filter((r) => idNumber(r) % 2 === 1)],
  ["independent, even ids (held out)", independent.filter((r) => idNumber(r) % 2 === 0)],
];

/** True when plain stemmed BM25 over name, description and parameters gives none of the request's tools any score. */
function sharesNoWord(index, r) {
  return !r.tools.some((t) => index.rank(r.request).some((h) => h.name === t));
}

const pct = (x) => (100 * x).toFixed(1);
const bare = createToolIndex(tools, { ...phase1, lexicon: false });
const indexes = CONFIGS.map((c) => createToolIndex(tools, c.options));

if (process.argv.includes("--summary")) {
  console.log(`| configuration | ${SETS.map(([n]) => n).join(" | ")} |`);
  console.log(`|---|${SETS.map(() => "---:").join("|")}|`);
  CONFIGS.forEach((c, i) => {
    const cells = SETS.map(([, set]) => {
      const s = scoreRetrieval((q, k) => indexes[i].search(q, k), set, KS);
      return KS.map((k) => pct(s.hitRate[k])).join(" / ");
    });
    console.log(`| ${c.label} | ${cells.join(" | ")} |`);
  });
} else if (process.argv.includes("--misses")) {
  const which = process.argv[process.argv.indexOf("--misses") + 1];
  const set = which === "odd" ? SETS[2][1] : which === "dev" ? SETS[0][1] : undefined;
  if (set === undefined) throw new Error("--misses dev|odd: the held-out sets are reported in aggregate only");
  const index = indexes[CONFIGS.findIndex((c) => c.label.includes("(sluice's default)"))];
  for (const r of set) {
    const got = index.search(r.request, 10);
    const at = Math.min(...r.tools.map((t) => (got.includes(t) ? got.indexOf(t) + 1 : Infinity)));
    if (at > 5) console.log(`#${r.id} [${at === Infinity ? "-" : at}] ${JSON.stringify(r.request)}\n   want ${r.tools.join(", ")}\n   got  ${got.slice(0, 5).join(", ")}`);
  }
} else {
  for (const [name, set] of SETS) {
    const disjoint = set.filter((r) => sharesNoWord(bare, r)).length;
    console.log(`\n### ${name}: ${set.length} requests, ${disjoint} (${pct(disjoint / set.length)}%) share no word with their tool\n`);
    console.log(`| configuration | ${KS.map((k) => `hit@${k}`).join(" | ")} | ${KS.map((k) => `recall@${k}`).join(" | ")} |`);
    console.log(`|---|${KS.map(() => "---:").join("|")}|${KS.map(() => "---:").join("|")}|`);
    CONFIGS.forEach((c, i) => {
      const s = scoreRetrieval((q, k) => indexes[i].search(q, k), set, KS);
      console.log(`| ${c.label} | ${KS.map((k) => pct(s.hitRate[k])).join(" | ")} | ${KS.map((k) => pct(s.recall[k])).join(" | ")} |`);
    });
  }
}
