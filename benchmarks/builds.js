/**
 * Two builds of sluice on the four programs, alternating runs in one process: the measure of
 * "no slower than before" for a change to the interpreter (issue 14 asked for at most 10 %).
 * The base build is any other dist/ (a worktree of the commit to compare with, `npm run build`
 * there); its imports resolve from its own node_modules.
 *
 *   SLUICE_BASE=/path/to/base/dist node benchmarks/builds.js     (after npm run build)
 *
 * labels-off.js uses the same two helpers to compare the build with a copy whose label rules
 * are switched off.
 */
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { buildPrograms } from "./programs.js";
import { geomean, median, positive } from "./stats.js";

const RUNS = positive(process.env.BENCH_RUNS, 21);
const WARMUP = positive(process.env.BENCH_WARMUP, 5);

/** A build's low-level interpreter: `body` compiled once, each call one synchronous run. */
export async function engine(dir) {
  const base = pathToFileURL(`${resolve(dir)}/`);
  const { compileProgram } = await import(new URL("interpreter/program.js", base).href);
  const { DEFAULT_LIMITS } = await import(new URL("interpreter/state.js", base).href);
  return (body) => {
    const program = compileProgram(`${body}\nresult`, { hostFunctions: [] });
    return () => {
      const ex = program.execute([], DEFAULT_LIMITS);
      if (ex.kind !== "completed") throw new Error(`${dir}: ${ex.kind}: ${ex.message ?? ex.reason ?? ""}`);
      return ex.value;
    };
  };
}

/** Median ms of `a` and `b`, WARMUP + RUNS rounds, each round taking them in turn (the order swapping). */
export function alternate(a, b) {
  const ta = [];
  const tb = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const [run, into] of i % 2 ? [[a, ta], [b, tb]] : [[b, tb], [a, ta]]) {
      const t0 = process.hrtime.bigint();
      run();
      if (i >= WARMUP) into.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return [median(ta), median(tb)];
}

async function main() {
  const baseDir = process.env.SLUICE_BASE;
  if (!baseDir) throw new Error("set SLUICE_BASE to the dist/ of the build to compare with");
  const current = await engine(process.env.SLUICE_DIST ?? new URL("../dist", import.meta.url).pathname);
  const base = await engine(baseDir);
  const rows = [];
  for (const c of buildPrograms().cases) {
    const a = current(c.body);
    const b = base(c.body);
    if (a() !== b()) throw new Error(`the two builds gave different results for "${c.name}"`);
    const [now, before] = alternate(a, b);
    rows.push({ name: c.name, now, before });
    process.stderr.write(`  ${c.name}: this build ${now.toFixed(2)} ms, base ${before.toFixed(2)} ms\n`);
  }
  const out = [`This build / the base build (${baseDir}), median of ${RUNS} alternating runs, Node ${process.version}:`, ""];
  out.push("| program | this build ms | base ms | this / base |", "|---|---:|---:|---:|");
  for (const r of rows) out.push(`| ${r.name} | ${r.now.toFixed(2)} | ${r.before.toFixed(2)} | ${(r.now / r.before).toFixed(2)} |`);
  out.push("", `Geometric mean: **${geomean(rows.map((r) => r.now / r.before)).toFixed(2)}×**; largest: ${Math.max(...rows.map((r) => r.now / r.before)).toFixed(2)}×.`);
  console.log(out.join("\n"));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
