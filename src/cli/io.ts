/**
 * What the CLI needs of its surroundings, passed in so tests can run every command in-process:
 * two writers, the environment and the working directory.
 */

/** The CLI's view of the process. */
export interface CliIo {
  /** Writes to standard output. */
  stdout: (text: string) => void;
  /** Writes to standard error. */
  stderr: (text: string) => void;
  /** Environment variables (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths are resolved against. Default `process.cwd()`. */
  cwd?: string;
}

/** Exit codes: 0 completed, 1 failed, 2 usage error, 3 blocked. */
export const EXIT = Object.freeze({ completed: 0, failed: 1, usage: 2, blocked: 3 });

/**
 * An error the CLI reports as one line on stderr, exiting with `code`: usage mistakes and
 * unreadable inputs (2) or failures outside any plan (1).
 */
export class CliError extends Error {
  readonly code: number;
  constructor(message: string, code: number = EXIT.usage) {
    super(message);
    this.name = "CliError";
    this.code = code;
  }
}
