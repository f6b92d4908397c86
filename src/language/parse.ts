import * as acorn from "acorn";
import { ProgramError } from "./errors.js";

/** Source size beyond which parsing is refused; plans are short. */
export const MAX_SOURCE_LENGTH = 1_000_000;

/**
 * Parses a plan with acorn as a script in which top-level `await` and `return` are allowed.
 * Every node carries `loc`, so later stages can name the line and column of a problem.
 */
export function parseProgram(source: string): acorn.Program {
  if (typeof source !== "string") throw new ProgramError("syntax", "the program must be a string of JavaScript", 1, 1);
  if (source.length > MAX_SOURCE_LENGTH) {
    throw new ProgramError("syntax", `the program is ${source.length} characters long; at most ${MAX_SOURCE_LENGTH} are accepted`, 1, 1);
  }
  try {
    return acorn.parse(source, {
      ecmaVersion: 2024,
      sourceType: "script",
      locations: true,
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: false,
      allowHashBang: false,
    });
  } catch (err) {
    if (err instanceof RangeError) throw new ProgramError("syntax", "the program nests too deeply to parse", 1, 1);
    const e = err as { message?: string; loc?: { line: number; column: number } };
    const message = String(e.message ?? err).replace(/ \(\d+:\d+\)$/, "");
    const line = e.loc?.line ?? 1;
    const column = (e.loc?.column ?? 0) + 1;
    throw new ProgramError("syntax", message, line, column);
  }
}
