#!/usr/bin/env node
/**
 * `npm run mutants`: for every planted leak (a mutant switch of the label rules), runs the
 * integrity and confidentiality properties on generated plans with the mutant on, over several
 * seeds, until the first counterexample, and prints a markdown table: whether it was caught,
 * the median number of generated plans and the median time to the first counterexample.
 *
 * Runs over dist/ (npm run build first). Environment: MUTANT_SEEDS (default 5), MUTANT_RUNS
 * (most plans per hunt, default 3000), MUTANTS (comma-separated names to run only those).
 */
import { MUTANTS, huntMutant, median } from "../dist/testing/mutants.js";

const seeds = Number(process.env.MUTANT_SEEDS ?? 5);
const maxRuns = Number(process.env.MUTANT_RUNS ?? 3000);
const only = process.env.MUTANTS ? new Set(process.env.MUTANTS.split(",")) : null;

const rows = [];
const started = Date.now();
for (const m of MUTANTS) {
  if (only && !only.has(m.name)) continue;
  const results = [];
  // An equivalent mutant is never caught; a shorter hunt shows that as well as a long one.
  const budget = m.equivalent ? Math.min(maxRuns, 1000) : maxRuns;
  for (let seed = 1; seed <= seeds; seed++) results.push(await huntMutant(m.name, { seed, maxRuns: budget }));
  const caught = results.filter((r) => r.caught);
  const kinds = [...new Set(caught.map((r) => r.kind))].join(", ");
  rows.push({
    name: m.name,
    breaks: m.breaks,
    caught: `${caught.length}/${results.length}${m.equivalent ? " (equivalent)" : ""}`,
    plans: caught.length > 0 ? String(median(caught.map((r) => r.runs))) : `> ${budget}`,
    ms: caught.length > 0 ? String(Math.round(median(caught.map((r) => r.ms)))) : "-",
    by: kinds || "-",
  });
  process.stderr.write(`${m.name}: ${rows.at(-1).caught} caught, median ${rows.at(-1).plans} plans, ${rows.at(-1).ms} ms\n`);
}

console.log(`| mutant | what it breaks | caught (seeds) | median plans to first counterexample | median ms | caught by |`);
console.log(`|---|---|---|---|---|---|`);
for (const r of rows) console.log(`| \`${r.name}\` | ${r.breaks.replace(/\|/g, "\\|")} | ${r.caught} | ${r.plans} | ${r.ms} | ${r.by} |`);
const live = MUTANTS.filter((m) => !m.equivalent && (!only || only.has(m.name))).length;
const all = rows.filter((r) => !r.caught.includes("equivalent") && r.caught.startsWith(`${seeds}/`)).length;
console.log(`\n${all}/${live} non-equivalent mutants caught in every seed (${seeds} seeds, at most ${maxRuns} plans each), in ${Math.round((Date.now() - started) / 1000)} s.`);
for (const m of MUTANTS.filter((x) => x.equivalent && (!only || only.has(x.name)))) console.log(`\`${m.name}\` is equivalent at the sinks: ${m.equivalent}.`);
