/**
 * Argument parsing with `node:util`'s parseArgs, turning its errors into one-line usage
 * errors that name the command.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** What a command's arguments parsed to. */
export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

function usageError(command: string, err: unknown): CliError {
  const e = err as { code?: string; message?: string };
  const quoted = /'([^']+)'/.exec(e.message ?? "")?.[1];
  const hint = "run `sluice --help` for usage";
  switch (e.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return new CliError(`unknown option ${quoted ?? ""} for \`sluice ${command}\`; ${hint}`.replace("  ", " "));
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const name = quoted?.split(" ")[0] ?? "an option";
      const what = /does not take an argument/.test(e.message ?? "") ? "takes no value" : "needs a value";
      return new CliError(`${name} ${what}; ${hint}`);
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return new CliError(`\`sluice ${command}\` takes no argument ${quoted === undefined ? "" : `"${quoted}"`}; ${hint}`.replace("  ", " "));
    default:
      return new CliError(`${(e.message ?? String(err)).split("\n")[0]}; ${hint}`);
  }
}

/** Parses `args` for `command`; every option is checked, unknown ones are errors. */
export function parse(command: string, args: readonly string[], options: Options, allowPositionals: boolean): Parsed {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals, strict: true });
    return { values: values as Parsed["values"], positionals };
  } catch (err) {
    throw usageError(command, err);
  }
}

/** The value of a `--name a|b|c` option, checked. */
export function choice<T extends string>(name: string, value: string | boolean | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`--${name} must be ${allowed.join(" or ")}, not ${JSON.stringify(value)}`);
}

/** The value of a `--name N` option that must be a positive number of US dollars. */
export function dollars(name: string, value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!(n > 0) || !Number.isFinite(n)) throw new CliError(`--${name} must be a positive number of US dollars, e.g. 0.50, not ${JSON.stringify(value)}`);
  return n;
}

/** The value of a `--name TEXT` option that must not be empty. */
export function text(name: string, value: string | boolean | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value.trim() === "") throw new CliError(`--${name} needs a non-empty value`);
  return value;
}
