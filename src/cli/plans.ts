/**
 * Plan files: reading one with clear errors, the metadata in its leading comment, and the
 * bundled example plans.
 *
 * A plan's leading `//` comment lines describe it: the lines before `// expect: ...` are its
 * title, and that line (`completed`, `blocked` or `failed`) says how the run should end.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join, relative, isAbsolute } from "node:path";
import type { RunResult } from "../runtime/types.js";
import { CliError } from "./io.js";

/** Plans are short; a file much larger than this is almost surely not one. */
export const MAX_PLAN_BYTES = 1_000_000;

/** A plan read from a file. */
export interface PlanFile {
  /** The path as shown to the user. */
  file: string;
  source: string;
  title?: string;
  expect?: RunResult["status"];
}

const STATUSES = new Set(["completed", "blocked", "failed"]);

/** The title and expected status from the plan's leading comment lines. */
export function planHeader(source: string): { title?: string; expect?: RunResult["status"] } {
  const out: { title?: string; expect?: RunResult["status"] } = {};
  const title: string[] = [];
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("//")) break;
    const text = line.slice(2).trim();
    const expect = /^expect:\s*(\w+)\s*$/i.exec(text);
    if (expect !== null && STATUSES.has(expect[1].toLowerCase())) out.expect = expect[1].toLowerCase() as RunResult["status"];
    else if (text !== "" && out.expect === undefined) title.push(text);
  }
  if (title.length > 0) out.title = title.join(" ");
  return out;
}

function reason(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a directory, not a plan file";
    default:
      return err.message;
  }
}

/** Reads a plan file; a missing, unreadable, oversized or binary file is a {@link CliError}. */
export async function readPlan(path: string, cwd: string): Promise<PlanFile> {
  const full = isAbsolute(path) ? path : join(cwd, path);
  let source: string;
  try {
    const info = await stat(full);
    if (info.isDirectory()) throw Object.assign(new Error("directory"), { code: "EISDIR" });
    if (!info.isFile()) throw new CliError(`cannot run ${path}: it is not a regular file`);
    if (info.size > MAX_PLAN_BYTES) throw new CliError(`cannot run ${path}: it is ${info.size} bytes; a plan file is at most ${MAX_PLAN_BYTES} bytes`);
    source = await readFile(full, "utf8");
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${path}: ${reason(err as NodeJS.ErrnoException)}`);
  }
  if (source.includes("\u0000")) throw new CliError(`cannot run ${path}: it is a binary file, not a JavaScript plan`);
  return { file: path, source, ...planHeader(source) };
}

/** The folder of the bundled example plans: `examples/` at the package root. */
export function examplesDir(): string {
  // This file is src/cli/plans.ts or dist/cli/plans.js; both sit two levels below the root.
  return fileURLToPath(new URL("../../examples/", import.meta.url));
}

/** A path for display: relative to `cwd` when it lies inside it. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/** The bundled example plans, in file-name order. */
export async function bundledPlans(cwd: string, dir = examplesDir()): Promise<PlanFile[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".js")).sort();
  } catch (err) {
    throw new CliError(`cannot find the bundled example plans in ${dir}: ${reason(err as NodeJS.ErrnoException)}`, 1);
  }
  if (names.length === 0) throw new CliError(`there are no example plans (*.js) in ${dir}`, 1);
  const plans: PlanFile[] = [];
  for (const name of names) {
    const plan = await readPlan(join(dir, name), cwd);
    plans.push({ ...plan, file: displayPath(join(dir, name), cwd) });
  }
  return plans;
}
