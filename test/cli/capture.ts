/** Runs the CLI in-process with captured output. */
import { fileURLToPath } from "node:url";
import { main } from "../../src/cli/main.js";

/** The repository root, where examples/ is. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

/** `sluice ...argv` with the given environment (empty by default: no API key). */
export async function sluice(argv: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), env, cwd });
  return { code, stdout, stderr };
}

/** True when `text` is exactly one line ending in a newline, with no stack frame in it. */
export function isOneLine(text: string): boolean {
  return /^[^\n]+\n$/.test(text) && !/\n\s+at /.test(text);
}
