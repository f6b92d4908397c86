/**
 * What label tracking costs on all-trusted data (issue 11): the four programs on sluice as
 * built, and on a benchmark-only build of the same interpreter with label tracking switched
 * off, alternating in one process. Every label of these programs is the bottom already; the
 * difference is the bookkeeping that still runs (joins, pc checks, deep-label walks).
 *
 * The labels-off build is a copy of dist/ (in dist-labels-off/, under the repository so its
 * imports resolve) whose label rules (interpreter/rules.js) answer at once: every join is the
 * bottom, every label is under the pc, no container is walked for its contents. It exists for
 * this measurement only and is never what `npm start` or the package runs.
 *
 *   node benchmarks/labels-off.js       (after npm run build; npm run bench runs it too)
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { buildPrograms } from "./programs.js";
import { positive } from "./stats.js";
import { alternate, engine } from "./builds.js";

const RUNS = positive(process.env.BENCH_RUNS, 21);

const root = new URL("../", import.meta.url);
const dist = process.env.SLUICE_DIST ? resolve(process.env.SLUICE_DIST) : new URL("dist", root).pathname;

/** The label rules that switch tracking off, each replacing one function's body in rules.js. */
const OFF = [
  ["export function join2(a, b) {", "return BOT;"],
  ["export function underPc(l) {", "return true;"],
  ["export function deepLabel(v, seen = new Set()) {", "return BOT;"],
  ["export function withContents(v, l) {", "return l;"],
];

/** Copies the build and switches its label rules off; fails loudly when a rule is not where expected. */
export function buildLabelsOff() {
  const out = new URL("dist-labels-off", root).pathname;
  rmSync(out, { recursive: true, force: true });
  cpSync(dist, out, { recursive: true });
  const file = `${out}/interpreter/rules.js`;
  let text = readFileSync(file, "utf8");
  for (const [head, body] of OFF) {
    const at = text.indexOf(head);
    if (at < 0) throw new Error(`labels-off build: ${head} not found in interpreter/rules.js`);
    text = `${text.slice(0, at + head.length)}\n    ${body}\n${text.slice(at + head.length)}`;
  }
  writeFileSync(file, text);
  return out;
}

/** Median ms of each program with labels on and off, alternating runs. */
export async function labelsOff() {
  const on = await engine(dist);
  const off = await engine(buildLabelsOff());
  const rows = [];
  for (const c of buildPrograms().cases) {
    const a = on(c.body);
    const b = off(c.body);
    if (a() !== b()) throw new Error(`labels-off build gave a different result for "${c.name}"`);
    const [on_, off_] = alternate(a, b);
    rows.push({ name: c.name, on: on_, off: off_ });
    process.stderr.write(`  ${c.name}: labels on ${on_.toFixed(2)} ms, off ${off_.toFixed(2)} ms\n`);
  }
  return rows;
}

export function report(rows) {
  const out = [];
  out.push(`All-trusted data: sluice as built / the same interpreter with label tracking switched off (benchmark-only build, benchmarks/labels-off.js; median of ${RUNS} alternating runs):`);
  out.push("");
  out.push("| program | labels on ms | labels off ms | on / off |");
  out.push("|---|---:|---:|---:|");
  for (const r of rows) out.push(`| ${r.name} | ${r.on.toFixed(2)} | ${r.off.toFixed(2)} | ${(r.on / r.off).toFixed(2)} |`);
  const worst = Math.max(...rows.map((r) => r.on / r.off));
  out.push("");
  out.push(`Largest ratio: **${worst.toFixed(2)}×** (target ≤ 1.3×).`);
  return out.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(report(await labelsOff()));
