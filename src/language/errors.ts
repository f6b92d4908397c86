/** The stage a program error comes from, as reported in a run's `error.kind`. */
export type ProgramErrorKind = "syntax" | "unsupported";

/**
 * A problem with the program's text, found before it runs: a syntax error, or a construct
 * outside the supported subset. `line` is 1-based, `column` is 1-based.
 */
export class ProgramError extends Error {
  readonly kind: ProgramErrorKind;
  readonly line: number;
  readonly column: number;

  constructor(kind: ProgramErrorKind, message: string, line: number, column: number) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = kind === "syntax" ? "SyntaxError" : "UnsupportedError";
    this.kind = kind;
    this.line = line;
    this.column = column;
  }

  /** The message without the position suffix. */
  get reason(): string {
    return this.message.replace(/ \(line \d+, column \d+\)$/, "");
  }
}
