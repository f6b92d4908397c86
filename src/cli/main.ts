#!/usr/bin/env node
/**
 * The `sluice` command. {@link main} takes the arguments and an {@link CliIo} and returns the
 * exit code, so every command can run in-process; run as a script, this file wires it to the
 * real process. No error leaves as a stack trace: each is one line on stderr.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { choice, dollars, parse, text } from "./args.js";
import { ask, DEFAULT_MODEL, DEFAULT_READER_MODEL } from "./commands/ask.js";
import { demo } from "./commands/demo.js";
import { runFile } from "./commands/run.js";
import { mcpList, mcpPin } from "./commands/mcp.js";
import { portOf, serve } from "./commands/serve.js";
import { OFFLINE_READERS } from "./example-readers.js";
import { HELP, version } from "./help.js";
import { CliError, EXIT, type CliIo } from "./io.js";
import { main as scenarios } from "../scenarios/cli.js";

export type { CliIo } from "./io.js";
export { EXIT } from "./io.js";

const APPROVE = ["yes", "no"] as const;
const HELP_FLAG = { help: { type: "boolean", short: "h" } } as const;
const JSON_FLAG = { json: { type: "boolean" } } as const;
const MCP_FLAGS = { mcp: { type: "string" }, pins: { type: "string" } } as const;

/** `--mcp FILE` and `--pins FILE`, checked. */
function mcpOptions(values: Record<string, string | boolean | undefined>): { mcp?: string; pins?: string } {
  const mcp = values.mcp === undefined ? undefined : text("mcp", values.mcp, "");
  const pins = values.pins === undefined ? undefined : text("pins", values.pins, "");
  if (pins !== undefined && mcp === undefined) throw new CliError("--pins needs --mcp CONFIG.json: it names the lock file of that configuration's tools");
  return { ...(mcp === undefined ? {} : { mcp }), ...(pins === undefined ? {} : { pins }) };
}

async function demoCommand(args: readonly string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parse("demo", args, { ...HELP_FLAG, ...JSON_FLAG }, false);
  if (values.help === true) return help(io);
  return demo({ json: values.json === true }, io, cwd);
}

async function runCommand(args: readonly string[], io: CliIo, cwd: string): Promise<number> {
  const options = { ...HELP_FLAG, ...JSON_FLAG, ...MCP_FLAGS, reader: { type: "string" }, approve: { type: "string" } } as const;
  const { values, positionals } = parse("run", args, options, true);
  if (values.help === true) return help(io);
  if (positionals.length !== 1) {
    throw new CliError(positionals.length === 0 ? "`sluice run` needs a plan file, e.g. `sluice run plan.js`" : "`sluice run` takes one plan file");
  }
  return runFile(
    {
      file: positionals[0],
      json: values.json === true,
      reader: choice("reader", values.reader, OFFLINE_READERS, "adversarial"),
      approve: choice("approve", values.approve, APPROVE, "no"),
      ...mcpOptions(values),
    },
    io,
    cwd,
  );
}

async function askCommand(args: readonly string[], io: CliIo): Promise<number> {
  const options = {
    ...HELP_FLAG,
    ...JSON_FLAG,
    ...MCP_FLAGS,
    model: { type: "string" },
    "reader-model": { type: "string" },
    reader: { type: "string" },
    approve: { type: "string" },
    "max-cost": { type: "string" },
  } as const;
  const { values, positionals } = parse("ask", args, options, true);
  if (values.help === true) return help(io);
  // Words after `ask` form the request, so quoting it is optional.
  const request = positionals.join(" ").trim();
  if (request === "") throw new CliError('`sluice ask` needs a request, e.g. `sluice ask "summarise my newest email and send it to boss@corp.com"`');
  return ask(
    {
      request,
      json: values.json === true,
      model: text("model", values.model, DEFAULT_MODEL),
      readerModel: text("reader-model", values["reader-model"], DEFAULT_READER_MODEL),
      reader: choice("reader", values.reader, ["anthropic", ...OFFLINE_READERS] as const, "anthropic"),
      approve: choice("approve", values.approve, APPROVE, "no"),
      maxCost: dollars("max-cost", values["max-cost"]),
      ...mcpOptions(values),
    },
    io,
  );
}

async function mcpCommand(args: readonly string[], io: CliIo, cwd: string): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "--help" || sub === "-h") return help(io);
  if (sub !== "list" && sub !== "pin") throw new CliError(`unknown command \`sluice mcp ${sub}\`; the mcp commands are list and pin`);
  const { values, positionals } = parse(`mcp ${sub}`, rest, { ...HELP_FLAG, ...JSON_FLAG, ...MCP_FLAGS }, sub === "pin");
  if (values.help === true) return help(io);
  const { mcp, pins } = mcpOptions(values);
  if (mcp === undefined) throw new CliError(`\`sluice mcp ${sub}\` needs --mcp CONFIG.json, the file with your mcpServers`);
  const options = { config: mcp, json: values.json === true, ...(pins === undefined ? {} : { pins }) };
  return sub === "list" ? mcpList(options, io, cwd) : mcpPin({ ...options, tools: positionals }, io, cwd);
}

async function serveCommand(args: readonly string[], io: CliIo, cwd: string): Promise<number> {
  const options = { ...HELP_FLAG, ...MCP_FLAGS, http: { type: "string" }, approve: { type: "string" }, principal: { type: "string" } } as const;
  const { values } = parse("serve", args, options, false);
  if (values.help === true) return help(io);
  const principal = principalOf(values.principal);
  return serve({ ...mcpOptions(values), http: portOf(values.http), approve: choice("approve", values.approve, APPROVE, "no"), ...(principal === undefined ? {} : { principal }) }, io, cwd);
}

/** `--principal P`: one name as labels write readers (`me`, `alice@example.com`), not empty. */
function principalOf(value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "" || value !== value.trim()) throw new CliError(`--principal needs a principal's name as labels write readers (e.g. me or alice@example.com), not ${JSON.stringify(value)}`);
  return value;
}

function help(io: CliIo): number {
  io.stdout(HELP);
  return EXIT.completed;
}

async function dispatch(argv: readonly string[], io: CliIo, cwd: string): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      throw new CliError("no command given; try `sluice demo`, or `sluice --help` for all commands");
    case "help":
    case "--help":
    case "-h":
      return help(io);
    case "--version":
      io.stdout(`sluice ${version()}\n`);
      return EXIT.completed;
    case "demo":
      return demoCommand(rest, io, cwd);
    case "run":
      return runCommand(rest, io, cwd);
    case "ask":
      return askCommand(rest, io);
    case "mcp":
      return mcpCommand(rest, io, cwd);
    case "serve":
      return serveCommand(rest, io, cwd);
    case "scenarios":
      return scenarios(rest, { stdout: io.stdout, stderr: io.stderr, env: io.env, cwd, isTTY: process.stderr.isTTY === true });
    default:
      throw new CliError(`unknown command ${JSON.stringify(command)}; the commands are scenarios, demo, run, ask, mcp, serve and help`);
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** Runs the CLI with `argv` (the arguments after `sluice`); resolves to the exit code. Never rejects. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io, io.cwd ?? process.cwd());
  } catch (err) {
    if (err instanceof CliError) {
      io.stderr(`sluice: ${oneLine(err.message)}\n`);
      return err.code;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`sluice: unexpected error: ${oneLine(message)}\n`);
    return EXIT.failed;
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  // `sluice demo | head` closes the pipe early; that is not an error worth a stack trace.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    process.stderr.write(`sluice: cannot write the output: ${err.message}\n`);
    process.exit(EXIT.failed);
  });
  const io: CliIo = {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    env: process.env,
  };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
