/**
 * Benchmark suite (issue 2): the same programs on native V8, sval, quickjs-emscripten and
 * sluice, in one process. Checks every engine gives the same result, then prints the median
 * time per run and sluice's ratios to the others as a markdown table.
 *
 *   npm run bench                       (builds, then runs this file)
 *   BENCH_RUNS=21 BENCH_WARMUP=5 node benchmarks/run.js
 *   BENCH_ONLY=numeric node benchmarks/run.js      (cases whose name contains the text; "calls": the tool-call rows only; "labels": labels on / off only)
 *   SLUICE_DIST=/path/to/other/dist node benchmarks/run.js   (measure another build of sluice)
 */
import { positive, median, geomean } from "./stats.js";
import { buildPrograms } from "./programs.js";
import { native, sval, quickjs, sluice, sluiceTools, sluiceRecorded } from "./engines.js";
import { bareRoundTrip, hostWork, readEachFile, report as callsReport, sequentialCalls } from "./calls.js";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const RUNS = positive(process.env.BENCH_RUNS, 21);
const WARMUP = positive(process.env.BENCH_WARMUP, 5);
const ONLY = process.env.BENCH_ONLY ?? "";



/** One timed run of a prepared case; fails loudly when the result differs from `expected`. */
async function timeRun(entry, caseName, expected) {
  const { name, runner } = entry;
  runner.before();
  const t0 = process.hrtime.bigint();
  let value = runner.run();
  if (value instanceof Promise) value = await value;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  runner.after();
  if (value !== expected) {
    throw new Error(`${name} gave a different result for "${caseName}":\n  expected ${preview(expected)}\n  got      ${preview(value)}`);
  }
  return ms;
}

/**
 * Runs every engine on one case WARMUP + RUNS times, in rounds that take each engine in turn
 * (starting with a different one each round), so a change in machine load during the suite
 * falls on every engine alike. Returns the median ms of each engine.
 */
async function measure(entries, caseName, expected) {
  const samples = entries.map(() => []);
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (let k = 0; k < entries.length; k++) {
      const i = (round + k) % entries.length;
      const ms = await timeRun(entries[i], caseName, expected);
      if (round >= WARMUP) samples[i].push(ms);
    }
  }
  return samples.map(median);
}

const preview = (v) => {
  const s = typeof v === "string" ? JSON.stringify(v) : String(v);
  return s.length > 200 ? `${s.slice(0, 200)}… (${s.length} chars)` : s;
};

const fmtMs = (ms) => (ms === undefined ? "—" : ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0));
const fmtX = (r) => (r === undefined ? "—" : r < 0.1 ? r.toFixed(3) : r.toFixed(2));

async function main() {
  const { cases, planWithTools, mails } = buildPrograms();
  const qjs = await quickjs();
  const engines = [native, sval, qjs, sluice];
  const rows = [];
  for (const c of cases.filter((x) => x.name.includes(ONLY))) {
    const expected = native.prepare(c.body).run();
    const entries = engines.map((e) => ({ name: e.name, runner: e.prepare(c.body) }));
    const isPlan = c.name.startsWith("plan");
    if (isPlan) {
      entries.push({ name: sluiceTools.name, runner: sluiceTools.prepare(planWithTools, mails) });
      entries.push({ name: sluiceRecorded.name, runner: sluiceRecorded.prepare(planWithTools, mails) });
    }
    const medians = await measure(entries, c.name, expected);
    const row = { name: c.name, ms: {}, compileMs: {} };
    entries.forEach((e, i) => {
      row.ms[e.name] = medians[i];
      row.compileMs[e.name] = e.runner.compileMs();
      process.stderr.write(`  ${c.name} / ${e.name}: ${fmtMs(medians[i])} ms\n`);
    });
    rows.push(row);
    if (isPlan) {
      rows.push({ name: `${c.name}, sluice via createRuntime + 2 tools ¹`, ms: { ...row.ms, sluice: row.ms[sluiceTools.name] }, compileMs: row.compileMs, extra: true, tools: true });
      rows.push({ name: `${c.name}, sluice in-process, the 2 tools' answers given ³`, ms: { ...row.ms, sluice: row.ms[sluiceRecorded.name] }, compileMs: row.compileMs, extra: true, recorded: true });
    }
  }
  qjs.dispose();
  console.log(report(rows, engines));
  if (ONLY === "" || ONLY === "calls") {
    const bare = await bareRoundTrip();
    const host = await hostWork();
    const seq = await sequentialCalls();
    const files = await readEachFile();
    console.log("");
    console.log(callsReport(seq, files, bare, host));
  }
  if (ONLY === "" || ONLY === "labels") {
    // In a process of its own: the build measured here has run every row above in this process,
    // and its closures' type feedback with it; a copy loaded fresh beside it would start cleaner
    // and win for that reason alone (1.46x in this process, 1.07x in its own, the same code).
    console.log("");
    const script = fileURLToPath(new URL("./labels-off.js", import.meta.url));
    console.log(execFileSync(process.execPath, [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trimEnd());
  }
}

function report(rows, engines) {
  const names = engines.map((e) => e.name);
  const out = [];
  out.push(`Median ms per run (${RUNS} runs after ${WARMUP} warm-up runs, one Node ${process.version} process); ratio = sluice time / other engine's time, lower is better.`);
  out.push("");
  out.push(`| program | ${names.map((n) => `${n} ms`).join(" | ")} | sluice/native | sluice/sval | sluice/quickjs | sluice/quickjs, its parse excluded ² |`);
  out.push(`|---|${names.map(() => "---:").join("|")}|---:|---:|---:|---:|`);
  const ratios = { native: [], sval: [], quickjs: [], quickjsExec: [] };
  for (const r of rows) {
    const s = r.ms.sluice;
    const q = r.ms["quickjs-emscripten"];
    const rn = s / r.ms["native V8"], rs = s / r.ms.sval, rq = s / q;
    const rqx = s / Math.max(q - r.compileMs["quickjs-emscripten"], 1e-3);
    if (!r.extra) {
      ratios.native.push(rn);
      ratios.sval.push(rs);
      ratios.quickjs.push(rq);
      ratios.quickjsExec.push(rqx);
    }
    const cells = names.map((n) => (r.extra && n !== "sluice" ? "″" : fmtMs(r.ms[n])));
    out.push(`| ${r.name} | ${cells.join(" | ")} | ${fmtX(rn)} | ${fmtX(rs)} | ${fmtX(rq)} | ${fmtX(rqx)} |`);
  }
  const g = Object.fromEntries(Object.entries(ratios).map(([k, xs]) => [k, geomean(xs)]));
  out.push(`| **geometric mean** (the ${ratios.sval.length} shared programs) | ${names.map(() => "").join(" | ")} | **${fmtX(g.native)}** | **${fmtX(g.sval)}** | **${fmtX(g.quickjs)}** | **${fmtX(g.quickjsExec)}** |`);
  out.push("");
  out.push("¹ The same plan, but the inbox comes from a `get_inbox` tool (each email `labeled` with its sender) and the draft goes out through a `send_email` tool with a policy; the run executes once, in a worker thread that waits for each tool call. Ratios compare with the other engines' times on the row above.");
  out.push("");
  out.push("³ The createRuntime row's program and data, in-process: one synchronous `execute` given the two tools' answers as its record (the inbox `labeled` per sender). It has the same labels to track; what it leaves out is the worker, the host side (validation, policies, the record) and the tool calls.");
  const tools = rows.find((r) => r.tools);
  const recorded = rows.find((r) => r.recorded);
  if (tools !== undefined && recorded !== undefined) {
    const plain = rows[rows.indexOf(tools) - 1].ms.sluice;
    out.push("");
    out.push(`createRuntime with tools / the same plan and answers in-process (³): **${(tools.ms.sluice / recorded.ms.sluice).toFixed(2)}×** (target ≤ 1.5×); / the plan over unlabelled JSON in-process: ${(tools.ms.sluice / plain).toFixed(2)}×.`);
  }
  out.push("");
  out.push("² quickjs-emscripten can only run source text, so its times include parsing the program (and the data literal inside it); this column subtracts its parse time, measured alone with `compileOnly`. The sluice and sval times never include compiling or parsing (see the last table).");
  out.push("");
  out.push(`Targets: sluice at least 2x faster than sval (sluice/sval ≤ 0.50): **${g.sval <= 0.5 ? "met" : "missed"}** (${fmtX(g.sval)}); within 2x of quickjs-emscripten (sluice/quickjs ≤ 2.00): **${g.quickjs <= 2 ? "met" : "missed"}** (${fmtX(g.quickjs)}; ${fmtX(g.quickjsExec)} with quickjs's parse excluded).`);
  out.push("");
  out.push("One-time compile / parse, ms (not in the times above, except quickjs, whose API can only run source text):");
  out.push("");
  out.push(`| program | ${names.join(" | ")} |`);
  out.push(`|---|${names.map(() => "---:").join("|")}|`);
  for (const r of rows.filter((x) => !x.extra)) out.push(`| ${r.name} | ${names.map((n) => fmtMs(r.compileMs[n])).join(" | ")} |`);
  return out.join("\n");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
