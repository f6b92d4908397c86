/**
 * Runs whose cost grows with their work (issue 11): sequential tool calls through
 * `createRuntime`, in one process, labels on every value.
 *
 *   node benchmarks/calls.js            (after npm run build; npm run bench runs it too)
 *   BENCH_CALL_RUNS=7 node benchmarks/calls.js
 *
 * - N sequential calls in one loop: the interpreter's overhead per call is the run's time minus
 *   the tools' own time (measured inside the tools), divided by N; 10,000 calls against 1,000
 *   shows whether the cost is linear.
 * - The issue's user case: a plan lists files and reads each one in a `for…of` loop, the file
 *   tool labelling each result with its file.
 */
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const dist = process.env.SLUICE_DIST ? pathToFileURL(`${resolve(process.env.SLUICE_DIST)}/`) : new URL("../dist/", import.meta.url);
const { createRuntime, defineTool, Label } = await import(new URL("index.js", dist).href);

const RUNS = Number(process.env.BENCH_CALL_RUNS) > 0 ? Number(process.env.BENCH_CALL_RUNS) : 5;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** A tool whose own time is added up, so the interpreter's share can be told apart. */
function timedTool(spec, clock) {
  const run = spec.run;
  return defineTool({
    ...spec,
    run: async (args) => {
      const t0 = process.hrtime.bigint();
      try {
        return await run(args);
      } finally {
        clock.ns += process.hrtime.bigint() - t0;
      }
    },
  });
}

async function timed(runtime, source, clock, check) {
  clock.ns = 0n;
  const t0 = process.hrtime.bigint();
  const r = await runtime.run(source);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== "completed") throw new Error(`calls benchmark: ${r.status}: ${r.error?.message}`);
  check(r);
  return { ms, toolMs: Number(clock.ns) / 1e6 };
}

/** Median run time and tool time of `RUNS` runs after one warm-up run. */
async function measure(runtime, source, clock, check) {
  await timed(runtime, source, clock, check);
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(await timed(runtime, source, clock, check));
  return { ms: median(samples.map((s) => s.ms)), toolMs: median(samples.map((s) => s.toolMs)) };
}

/**
 * The bare cost of what each call rests on, with the pool's handshake (src/runtime/worker.ts,
 * pool.ts): a worker posts on its port, spins on the signal up to 0.25 ms and then sleeps in
 * Atomics.wait; the main thread answers from a promise and notifies only a worker that sleeps;
 * the worker reads the answer. Machine load moves
 * it a lot.
 */
export async function bareRoundTrip(n = 10000) {
  const { Worker } = await import("node:worker_threads");
  const code = `
    const { parentPort, workerData, receiveMessageOnPort } = require("node:worker_threads");
    const sig = new Int32Array(workerData.sab);
    parentPort.once("message", (n) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) {
        Atomics.store(sig, 0, 0);
        workerData.port.postMessage({ i });
        const until = performance.now() + 0.25;
        for (let k = 1; Atomics.load(sig, 0) === 0; k++) if ((k & 63) === 0 && performance.now() > until) break;
        if (Atomics.compareExchange(sig, 0, 0, 2) === 0) while (Atomics.load(sig, 0) === 2) Atomics.wait(sig, 0, 2);
        receiveMessageOnPort(workerData.port);
      }
      workerData.port.postMessage({ us: ((performance.now() - t0) * 1000) / n });
    });`;
  const { MessageChannel } = await import("node:worker_threads");
  const { port1, port2 } = new MessageChannel();
  const sab = new SharedArrayBuffer(4);
  const sig = new Int32Array(sab);
  const worker = new Worker(code, { eval: true, workerData: { port: port2, sab }, transferList: [port2] });
  const answer = (m) => {
    port1.postMessage({ v: m.i });
    if (Atomics.exchange(sig, 0, 1) === 2) Atomics.notify(sig, 0);
  };
  const us = await new Promise((done) => {
    port1.on("message", (m) => {
      if (m.us !== undefined) return done(m.us);
      void Promise.resolve().then(() => answer(m));
    });
    worker.postMessage(n);
  });
  await worker.terminate();
  port1.close();
  return us;
}

/** The tool of the sequential-call loop: each result labelled (one of 16 sources). */
const PING = {
  name: "ping",
  description: "Answers with a number.",
  parameters: { type: "object", properties: { i: { type: "integer" } }, required: ["i"] },
  label: (_result, args) => Label.untrusted(`ping:${args.i % 16}`),
  run: async ({ i }) => ({ n: i % 3 }),
};

/**
 * The host's own work per call, without the worker: the same requests the loop below makes
 * (validate, decide, key, the call layer, the result read and recorded) answered on this thread,
 * one after another, in CPU time (so machine load moves it less than the run times).
 */
export async function hostWork(n = 10000) {
  const internal = (path) => import(new URL(path, dist).href);
  const { answerAll, openRun } = await internal("runtime/host.js");
  const { compileHostSchema, createProgramSchemas } = await internal("tools/schema.js");
  const { createCallLayer } = await internal("calls/index.js");
  const { otelCallObserver } = await internal("tracing/index.js");
  const ping = defineTool(PING);
  const tools = new Map([["ping", { tool: ping, parameters: compileHostSchema(ping.parameters) }]]);
  const host = { tools, schemas: createProgramSchemas(), config: {}, maxBytes: 64 << 20, results: new WeakMap(), layer: createCallLayer({ observer: otelCallObserver() }) };
  const t = Label.trusted();
  const samples = [];
  for (let round = 0; round <= RUNS; round++) {
    const log = openRun(host);
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await answerAll([{ name: "ping", args: [{ i }], parts: [[{ path: "i", label: t }]], argLabels: [t], context: t }], host, log);
    const c = process.cpuUsage(c0);
    // The first round warms up.
    if (round > 0) samples.push((c.user + c.system) / n);
  }
  return median(samples);
}

export async function sequentialCalls(counts = [1000, 10000]) {
  const clock = { ns: 0n };
  const ping = timedTool(PING, clock);
  const runtime = createRuntime({ tools: [ping] });
  const rows = [];
  for (const n of counts) {
    const source = `let s = 0;\nfor (let i = 0; i < ${n}; i++) { s += ping({ i }).n; }\ns`;
    const expected = Array.from({ length: n }, (_, i) => i % 3).reduce((a, b) => a + b, 0);
    const m = await measure(runtime, source, clock, (r) => {
      if (r.value !== expected || r.calls.length !== n) throw new Error(`calls benchmark: ${n} calls gave ${r.value} with ${r.calls.length} calls`);
    });
    rows.push({ n, ...m, perCallUs: ((m.ms - m.toolMs) * 1000) / n });
    process.stderr.write(`  ${n} sequential calls: ${m.ms.toFixed(1)} ms (tools ${m.toolMs.toFixed(1)} ms)\n`);
  }
  return rows;
}

export async function readEachFile(counts = [100, 1000, 3000]) {
  const clock = { ns: 0n };
  const rows = [];
  for (const n of counts) {
    const names = Array.from({ length: n }, (_, i) => `docs/file-${i}.txt`);
    const listFiles = timedTool({
      name: "list_files",
      description: "Lists the files of a folder.",
      parameters: { type: "object", properties: { folder: { type: "string" } }, required: ["folder"] },
      label: () => Label.trusted(),
      run: async () => names,
    }, clock);
    const readFile = timedTool({
      name: "read_file",
      description: "Reads a file.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      label: (_result, args) => Label.untrusted(`file:${args.path}`),
      run: async ({ path }) => ({ path, text: `contents of ${path}\n`.repeat(4) }),
    }, clock);
    const runtime = createRuntime({ tools: [listFiles, readFile] });
    const source = `const files = list_files({ folder: "docs" });\nlet total = 0;\nfor (const f of files) {\n  const file = read_file({ path: f });\n  total += file.text.length;\n}\ntotal`;
    const m = await measure(runtime, source, clock, (r) => {
      if (r.calls.length !== n + 1) throw new Error(`files benchmark: ${r.calls.length} calls for ${n} files`);
    });
    rows.push({ n, ...m });
    process.stderr.write(`  read ${n} files: ${m.ms.toFixed(1)} ms\n`);
  }
  return rows;
}

export function report(seq, files, bareUs, hostUs) {
  const out = [];
  out.push(`Sequential tool calls through \`createRuntime\` (median of ${RUNS} runs after a warm-up; each result labelled): overhead per call = (run time − the tools' own time) / calls.`);
  out.push("");
  out.push("| calls in one loop | run ms | tools' own ms | overhead per call µs |");
  out.push("|---:|---:|---:|---:|");
  for (const r of seq) out.push(`| ${r.n.toLocaleString("en")} | ${r.ms.toFixed(1)} | ${r.toolMs.toFixed(1)} | ${r.perCallUs.toFixed(1)} |`);
  if (bareUs !== undefined) out.push(`\nThe bare worker → main → worker round trip each call rests on (the worker's spin-then-sleep handshake, a promise), measured alone just before: ${bareUs.toFixed(1)} µs.`);
  if (hostUs !== undefined) out.push(`The host's own work per call (the same requests answered on the main thread, no worker; CPU time, median of ${RUNS}): ${hostUs.toFixed(1)} µs.`);
  if (seq.length === 2) out.push(`\nTime for ${seq[1].n.toLocaleString("en")} / time for ${seq[0].n.toLocaleString("en")}: **${(seq[1].ms / seq[0].ms).toFixed(2)}×** (target ≤ 12×); overhead per call at ${seq[1].n.toLocaleString("en")}: **${seq[1].perCallUs.toFixed(1)} µs** (target ≤ 50 µs).`);
  out.push("");
  out.push("List a folder, then read each file in a `for…of` loop (each file's content labelled with its path):");
  out.push("");
  out.push("| files | run ms |");
  out.push("|---:|---:|");
  for (const r of files) out.push(`| ${r.n.toLocaleString("en")} | ${r.ms.toFixed(1)} |`);
  return out.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bare = await bareRoundTrip();
  const host = await hostWork();
  const seq = await sequentialCalls();
  const files = await readEachFile();
  console.log(report(seq, files, bare, host));
}
