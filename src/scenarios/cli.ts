#!/usr/bin/env node
/**
 * `sluice scenarios`: runs the scenario suites and prints the utility and attack-success table.
 * {@link main} takes the arguments and an io object and returns the exit code, so the CLI can
 * call it in-process; run as a script, this file wires it to the real process.
 * Exit codes: 0 no attack succeeded and nothing is broken, 1 otherwise, 2 usage error.
 */
import { realpathSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { attacks } from "./attacks.js";
import type { PlannerKind, ReaderKind } from "./job.js";
import { createProgress } from "./progress.js";
import { formatHtml } from "./report-html.js";
import { formatMarkdown } from "./report-md.js";
import { runScenarios, type ScenarioOptions } from "./runner.js";
import { formatCorpusMarkdown } from "./corpus/report.js";
import { writePrompts } from "./corpus/prompts.js";
import { runCorpus } from "./corpus/run.js";
import { importAnswers } from "./corpus/reader-requests.js";
import { suites } from "./suites/index.js";

/** What the command needs of its surroundings. */
export interface ScenarioIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether standard error is a terminal: the progress bar is drawn only then. */
  isTTY?: boolean;
  /** Environment variables (ANTHROPIC_API_KEY for real-model runs). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Directory --html paths are resolved against. */
  cwd?: string;
}

export const SCENARIOS_HELP = `Usage: sluice scenarios [options]

Runs the AgentDojo-style scenario suites: every user task without attack, and every pair of
user task and injection task under every attack, with the reference plans and the adversarial
reader (it obeys any instruction it reads). Prints utility, utility under attack and attack
success per suite.

Options:
  --suite NAME        only this suite (repeatable, or comma-separated): ${suites.map((s) => s.name).join(", ")}
  --attack NAME       only this attack (repeatable, or comma-separated): ${attacks.map((a) => a.name).join(", ")}
  --reader KIND       adversarial (default), benign, or model (a real quarantined model; needs ANTHROPIC_API_KEY)
  --planner KIND      reference (default) or model (a real planner writes the plans; needs ANTHROPIC_API_KEY)
  --model NAME        planner model for --planner model
  --reader-model NAME reader model for --reader model
  --jobs N            worker threads (default: one per core)
  --repeat K          run every task K times (default 1): the operator figures give pass^K
                      and the p50/p99 of run time and tool attempts over them
  --no-baseline       skip the runs with the policies switched off
  --json              print the full report as JSON instead of the table
  --html FILE         also write a self-contained HTML report to FILE
  --write-prompts DIR write, for every user task, the planner's exact system prompt and first
                      user turn into DIR (to have models or people write plans for a corpus)
  --plans DIR         run a corpus of plans (DIR/<suite>/<task>.<variant>.md, each a planner's
                      answer, unedited) next to the reference plans of the same tasks, and
                      print both side by side (with --suite, --attack, --jobs, --json)
  --reader-answers FILE
                      with --plans: the played reader's answers, which answer the corpus
                      plans' reader requests (default: DIR/../readers/answers.json)
  --reader-requests DIR2
                      with --plans: where requests with no played answer are written
                      (default: DIR/../reader-requests)
  --import-answers DIR2
                      check every <key>.answer.json in DIR2 against its request's schema and
                      record it in the --reader-answers file (default corpus/readers/answers.json)
  -h, --help          show this help
`;

class UsageError extends Error {}

/** The played reader's answers file and requests folder. */
export interface PlayedPaths {
  answers: string;
  requests: string;
}

const DEFAULT_ANSWERS = join("corpus", "readers", "answers.json");

function names(values: unknown, known: readonly string[], what: string): string[] | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const list = values.flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter((v) => v !== "");
  for (const n of list) if (!known.includes(n)) throw new UsageError(`unknown ${what} ${JSON.stringify(n)}; known: ${known.join(", ")}`);
  return list;
}

function choice<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be ${allowed.join(", ")}; got ${JSON.stringify(value)}`);
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        suite: { type: "string", multiple: true },
        attack: { type: "string", multiple: true },
        reader: { type: "string" },
        planner: { type: "string" },
        model: { type: "string" },
        "reader-model": { type: "string" },
        jobs: { type: "string" },
        repeat: { type: "string" },
        "no-baseline": { type: "boolean" },
        json: { type: "boolean" },
        html: { type: "string" },
        plans: { type: "string" },
        "write-prompts": { type: "string" },
        "reader-answers": { type: "string" },
        "reader-requests": { type: "string" },
        "import-answers": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split("\n")[0]}; run with --help for usage`);
  }
}

/** The runner options the arguments ask for. */
export function optionsFrom(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): { options: ScenarioOptions; json: boolean; html?: string; help: boolean; plans?: string; writePrompts?: string; played?: PlayedPaths; importAnswers?: string } {
  const v = parse(argv);
  const reader = choice<ReaderKind>("reader", v.reader, ["adversarial", "benign", "model"], "adversarial");
  const planner = choice<PlannerKind>("planner", v.planner, ["reference", "model"], "reference");
  if ((reader === "model" || planner === "model") && !env.ANTHROPIC_API_KEY && !env.ANTHROPIC_BASE_URL) {
    throw new UsageError("real-model runs need ANTHROPIC_API_KEY; without one, use --reader adversarial or benign with the reference plans");
  }
  let jobs: number | undefined;
  if (v.jobs !== undefined) {
    jobs = /^\d+$/.test(v.jobs) ? Number(v.jobs) : NaN;
    if (!(jobs >= 1)) throw new UsageError(`--jobs must be a whole number of at least 1; got ${JSON.stringify(v.jobs)}`);
  }
  let repeat: number | undefined;
  if (v.repeat !== undefined) {
    repeat = /^\d+$/.test(v.repeat) ? Number(v.repeat) : NaN;
    if (!(repeat >= 1 && repeat <= 1000)) throw new UsageError(`--repeat must be a whole number from 1 to 1000; got ${JSON.stringify(v.repeat)}`);
  }
  if (v.html !== undefined && v.html.trim() === "") throw new UsageError("--html needs a file name");
  for (const flag of ["plans", "write-prompts", "import-answers", "reader-requests"] as const) {
    if (v[flag] !== undefined && v[flag]!.trim() === "") throw new UsageError(`--${flag} needs a folder`);
  }
  if (v["reader-answers"] !== undefined && v["reader-answers"].trim() === "") throw new UsageError("--reader-answers needs a file");
  const modes = (["plans", "write-prompts", "import-answers"] as const).filter((f) => v[f] !== undefined);
  if (modes.length > 1) throw new UsageError(`--${modes.join(" and --")} do different things; give one`);
  if (modes.length > 0 && (reader !== "adversarial" || planner !== "reference" || v.html !== undefined || v.repeat !== undefined)) {
    throw new UsageError("--plans and --write-prompts take only --suite, --attack, --jobs and --json");
  }
  if (v.plans === undefined && v["reader-requests"] !== undefined) throw new UsageError("--reader-requests goes with --plans");
  if (v.plans === undefined && v["import-answers"] === undefined && v["reader-answers"] !== undefined) throw new UsageError("--reader-answers goes with --plans or --import-answers");
  const played = v.plans === undefined ? undefined : {
    answers: v["reader-answers"] ?? join(dirname(v.plans.replace(/[\\/]+$/, "")), "readers", "answers.json"),
    requests: v["reader-requests"] ?? join(dirname(v.plans.replace(/[\\/]+$/, "")), "reader-requests"),
  };
  const models = v.model !== undefined || v["reader-model"] !== undefined ? { ...(v.model ? { planner: v.model } : {}), ...(v["reader-model"] ? { reader: v["reader-model"] } : {}) } : undefined;
  const options: ScenarioOptions = {
    suites: names(v.suite, suites.map((s) => s.name), "suite"),
    attacks: names(v.attack, attacks.map((a) => a.name), "attack"),
    reader,
    planner,
    ...(models ? { models } : {}),
    ...(jobs === undefined ? {} : { jobs }),
    ...(repeat === undefined ? {} : { repeat }),
    undefended: v["no-baseline"] !== true,
  };
  return {
    options,
    json: v.json === true,
    ...(v.html === undefined ? {} : { html: v.html }),
    ...(v.plans === undefined ? {} : { plans: v.plans }),
    ...(v["write-prompts"] === undefined ? {} : { writePrompts: v["write-prompts"] }),
    ...(played === undefined ? {} : { played }),
    ...(v["import-answers"] === undefined ? {} : { importAnswers: v["import-answers"], played: { answers: v["reader-answers"] ?? DEFAULT_ANSWERS, requests: v["import-answers"] } }),
    help: v.help === true,
  };
}

/** Runs the command; returns the exit code. Never throws. */
export async function main(argv: readonly string[], io: ScenarioIo): Promise<number> {
  let parsed: ReturnType<typeof optionsFrom>;
  try {
    parsed = optionsFrom(argv, io.env ?? {});
  } catch (err) {
    io.stderr(`sluice scenarios: ${(err as Error).message}\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(SCENARIOS_HELP);
    return 0;
  }
  if (parsed.writePrompts !== undefined) return prompts(parsed.writePrompts, parsed.options, io);
  if (parsed.plans !== undefined) return corpus(parsed.plans, parsed, io);
  if (parsed.importAnswers !== undefined) return imports(parsed.played!, io);
  try {
    let progress: ReturnType<typeof createProgress> | undefined;
    const report = await runScenarios({
      ...parsed.options,
      onRecord: (r, done, total) => {
        progress ??= createProgress({ total, write: io.stderr, isTTY: io.isTTY === true });
        progress.tick(`${r.suite}/${r.userTask}${r.attack ? ` ${r.attack}` : ""}`);
      },
    });
    progress?.done();
    if (parsed.html !== undefined) {
      const file = resolve(io.cwd ?? process.cwd(), parsed.html);
      await writeFile(file, formatHtml(report), "utf8");
      if (!parsed.json) io.stderr(`HTML report written to ${file}\n`);
    }
    io.stdout(parsed.json ? JSON.stringify(report, null, 2) + "\n" : formatMarkdown(report));
    return report.overall.attackSuccess.count === 0 && report.errors.length === 0 ? 0 : 1;
  } catch (err) {
    io.stderr(`sluice scenarios: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  }
}

function selectedSuites(options: ScenarioOptions) {
  const names = (options.suites ?? suites.map((s) => s.name)) as string[];
  return suites.filter((s) => names.includes(s.name));
}

async function prompts(dir: string, options: ScenarioOptions, io: ScenarioIo): Promise<number> {
  const where = resolve(io.cwd ?? process.cwd(), dir);
  try {
    const n = await writePrompts(where, selectedSuites(options));
    io.stdout(`Wrote the planner prompts of ${n} user tasks to ${where}\n`);
    return 0;
  } catch (err) {
    io.stderr(`sluice scenarios: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  }
}

async function corpus(dir: string, parsed: ReturnType<typeof optionsFrom>, io: ScenarioIo): Promise<number> {
  try {
    let progress: ReturnType<typeof createProgress> | undefined;
    const report = await runCorpus({
      dir: resolve(io.cwd ?? process.cwd(), dir),
      ...(parsed.options.suites ? { suites: parsed.options.suites as string[] } : {}),
      ...(parsed.options.attacks ? { attacks: parsed.options.attacks } : {}),
      ...(parsed.options.jobs === undefined ? {} : { jobs: parsed.options.jobs }),
      readerAnswers: resolve(io.cwd ?? process.cwd(), parsed.played!.answers),
      readerRequests: resolve(io.cwd ?? process.cwd(), parsed.played!.requests),
      onRecord: (r, _done, total) => {
        progress ??= createProgress({ total, write: io.stderr, isTTY: io.isTTY === true });
        progress.tick(`${r.suite}/${r.userTask}${r.variant ? `.${r.variant}` : ""}`);
      },
    });
    progress?.done();
    io.stdout(parsed.json ? JSON.stringify(report, null, 2) + "\n" : formatCorpusMarkdown(report));
    const safe = report.corpus.attackSuccess.count === 0 && report.reference.attackSuccess.count === 0;
    return safe && report.corpus.errors + report.reference.errors === 0 ? 0 : 1;
  } catch (err) {
    io.stderr(`sluice scenarios: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  }
}

async function imports(paths: PlayedPaths, io: ScenarioIo): Promise<number> {
  const dir = resolve(io.cwd ?? process.cwd(), paths.requests);
  const answers = resolve(io.cwd ?? process.cwd(), paths.answers);
  try {
    const report = await importAnswers(dir, answers);
    io.stdout(`Imported ${report.imported} reader answers into ${answers}\n`);
    for (const p of report.problems) io.stderr(`refused ${p}\n`);
    return report.problems.length === 0 ? 0 : 1;
  } catch (err) {
    io.stderr(`sluice scenarios: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  }
}

function runAsScript(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (runAsScript()) {
  const io: ScenarioIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), isTTY: process.stderr.isTTY === true, env: process.env };
  void main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
