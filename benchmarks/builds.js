/**
 * Two builds of sluice on the four programs, alternating runs in one process: the measure of
 * "no slower than before" for a change to the interpreter (issue 14 asked for at most 10 %).
 * The base build is any other dist/ (a worktree of the commit to compare with, `npm run build`
 * there); its imports resolve from its own node_modules.
 *
 *   SLUICE_BASE=/path/to/base/dist node benchmarks/builds.js     (after npm run build)
 *   BENCH_PROCESSES=15 SLUICE_BASE=… node benchmarks/builds.js   (each build in its own processes)
 *   BENCH_CASES=plan …                                            (only the programs named like it)
 *
 * In one process the two builds share a heap, the JIT and the dependencies they both import, and
 * disturb each other: two copies of the same build, alternating, have differed by 10 % and more on
 * the 3 ms plan. BENCH_PROCESSES=N instead runs N rounds; in each, one child process per build
 * (the order swapping) takes WARMUP + RUNS runs of a program alone, and the ratio reported is the
 * median of the N rounds' ratios. Comparing a build with a copy of itself (SLUICE_BASE=dist-copy)
 * shows either mode's noise.
 *
 * labels-off.js uses the same two helpers to compare the build with a copy whose label rules
 * are switched off.
 */
import { execFileSync } from "node:child_process";
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

/** A child process of BENCH_PROCESSES mode: one build, one program, its median ms on stdout. */
async function child(dir, index) {
  const c = buildPrograms().cases[index];
  const run = (await engine(dir))(c.body);
  const times = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = process.hrtime.bigint();
    run();
    if (i >= WARMUP) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  process.stdout.write(`${median(times)}\n`);
}

/** Median of `rounds` rounds' ratios, each round one child process per build, the order swapping. */
function inProcesses(currentDir, baseDir, index, rounds) {
  const script = new URL(import.meta.url).pathname;
  const time = (dir) => Number(execFileSync(process.execPath, [script, "--child", dir, String(index)], { encoding: "utf8" }));
  const ratios = [];
  const now = [];
  const before = [];
  for (let r = 0; r < rounds; r++) {
    let a;
    let b;
    if (r % 2) (a = time(currentDir)), (b = time(baseDir));
    else (b = time(baseDir)), (a = time(currentDir));
    now.push(a);
    before.push(b);
    ratios.push(a / b);
  }
  return { now: median(now), before: median(before), ratio: median(ratios) };
}

async function main() {
  if (process.argv[2] === "--child") return child(process.argv[3], Number(process.argv[4]));
  const baseDir = process.env.SLUICE_BASE;
  if (!baseDir) throw new Error("set SLUICE_BASE to the dist/ of the build to compare with");
  const currentDir = process.env.SLUICE_DIST ?? new URL("../dist", import.meta.url).pathname;
  const current = await engine(currentDir);
  const base = await engine(baseDir);
  const rounds = positive(process.env.BENCH_PROCESSES, 0);
  const rows = [];
  const only = process.env.BENCH_CASES;
  for (const [index, c] of buildPrograms().cases.entries()) {
    if (only !== undefined && !c.name.includes(only)) continue;
    const a = current(c.body);
    const b = base(c.body);
    if (a() !== b()) throw new Error(`the two builds gave different results for "${c.name}"`);
    let row;
    if (rounds > 0) row = { name: c.name, ...inProcesses(currentDir, baseDir, index, rounds) };
    else {
      const [now, before] = alternate(a, b);
      row = { name: c.name, now, before, ratio: now / before };
    }
    rows.push(row);
    process.stderr.write(`  ${c.name}: this build ${row.now.toFixed(2)} ms, base ${row.before.toFixed(2)} ms\n`);
  }
  const how = rounds > 0 ? `median of ${rounds} rounds' ratios, each build in its own process for ${RUNS} runs a round` : `median of ${RUNS} alternating runs in one process`;
  const out = [`This build / the base build (${baseDir}), ${how}, Node ${process.version}:`, ""];
  out.push("| program | this build ms | base ms | this / base |", "|---|---:|---:|---:|");
  for (const r of rows) out.push(`| ${r.name} | ${r.now.toFixed(2)} | ${r.before.toFixed(2)} | ${r.ratio.toFixed(2)} |`);
  out.push("", `Geometric mean: **${geomean(rows.map((r) => r.ratio)).toFixed(2)}×**; largest: ${Math.max(...rows.map((r) => r.ratio)).toFixed(2)}×.`);
  console.log(out.join("\n"));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
