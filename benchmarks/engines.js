/**
 * One adapter per engine. `prepare(body)` does the one-time work an embedder would do once per
 * program (compile, parse) and returns a case runner:
 *   compileMs() median ms of that one-time work, measured on demand (after the timed runs,
 *             when every engine is warm),
 *   before()  untimed per-run setup: a fresh global scope where the engine needs one,
 *   run()     timed: executes the program and returns the value left in `result`,
 *   after()   untimed per-run teardown.
 * Every engine starts each run from a clean global scope, so no run sees another's state.
 */
import Sval from "sval";
import { getQuickJS } from "quickjs-emscripten";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

// The built package; SLUICE_DIST points at another build (a candidate change) to compare.
const dist = process.env.SLUICE_DIST ? pathToFileURL(`${resolve(process.env.SLUICE_DIST)}/`) : new URL("../dist/", import.meta.url);
const { createRuntime, defineTool, labeled, Label, allow, deny } = await import(new URL("index.js", dist).href);
const { compileProgram } = await import(new URL("interpreter/program.js", dist).href);
const { DEFAULT_LIMITS } = await import(new URL("interpreter/state.js", dist).href);
const { readHostData } = await import(new URL("interpreter/convert.js", dist).href);

const noop = () => {};

/** Milliseconds `f` takes, as the median of `times` calls (one-off costs such as compiling). */
function timeOnce(f, times = 15) {
  const samples = [];
  for (let i = 0; i < times; i++) {
    const t0 = process.hrtime.bigint();
    f();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[samples.length >> 1] };
}

/** Native V8: the program as a function body, compiled once and called each run (JIT warm). */
export const native = {
  name: "native V8",
  prepare(body) {
    const compile = () => new Function(`${body}\nreturn result;`);
    const fn = compile();
    return { compileMs: () => timeOnce(compile).ms, before: noop, run: () => fn(), after: noop };
  },
};

/** sval: parsed once; each run gets a fresh sandboxed interpreter and runs the parsed tree. */
export const sval = {
  name: "sval",
  prepare(body) {
    const source = `${body}\nexports.result = result;`;
    const options = { ecmaVer: "latest", sandBox: true };
    const compile = () => new Sval(options).parse(source);
    const ast = compile();
    let interpreter;
    return {
      compileMs: () => timeOnce(compile).ms,
      before: () => { interpreter = new Sval(options); },
      run: () => {
        interpreter.run(ast);
        return interpreter.exports.result;
      },
      after: () => { interpreter = undefined; },
    };
  },
};

/**
 * quickjs-emscripten (release, sync build): a fresh context per run. Its API has no way to run
 * precompiled bytecode, so a timed run includes parsing; `compileMs` is that parse, measured
 * separately with `compileOnly`, so a reader can subtract it.
 */
export async function quickjs() {
  const QuickJS = await getQuickJS();
  const runtime = QuickJS.newRuntime();
  const unwrap = (ctx, res) => {
    if (res.error) {
      const err = ctx.dump(res.error);
      res.error.dispose();
      throw new Error(`quickjs: ${JSON.stringify(err)}`);
    }
    return res.value;
  };
  return {
    name: "quickjs-emscripten",
    prepare(body) {
      const source = `${body}\nresult`;
      const compileMs = () => {
        const probe = runtime.newContext();
        const { ms } = timeOnce(() => unwrap(probe, probe.evalCode(source, "bench.js", { type: "global", compileOnly: true })).dispose());
        probe.dispose();
        return ms;
      };
      let ctx;
      return {
        compileMs,
        before: () => { ctx = runtime.newContext(); },
        run: () => {
          const handle = unwrap(ctx, ctx.evalCode(source, "bench.js", { type: "global" }));
          const value = ctx.dump(handle);
          handle.dispose();
          return value;
        },
        after: () => { ctx.dispose(); ctx = undefined; },
      };
    },
    dispose: () => runtime.dispose(),
  };
}

/** sluice, low level: compiled once, each run a synchronous execute with labels on every value. */
export const sluice = {
  name: "sluice",
  prepare(body) {
    const source = `${body}\nresult`;
    const compile = () => compileProgram(source, { hostFunctions: [] });
    const program = compile();
    return {
      compileMs: () => timeOnce(compile).ms,
      before: noop,
      run: () => {
        const ex = program.execute([], DEFAULT_LIMITS);
        if (ex.kind !== "completed") throw new Error(`sluice: ${ex.kind}: ${ex.message ?? ex.reason ?? ""}`);
        return ex.value;
      },
      after: noop,
    };
  },
};

/** The two tools of the plan: an inbox listing labeled per sender, and a guarded send. */
function planTools(mails) {
  const getInbox = defineTool({
    name: "get_inbox",
    description: "Lists the newest emails of the user's inbox.",
    parameters: { type: "object", properties: { limit: { type: "integer", minimum: 1 } }, required: [] },
    label: () => Label.trusted(),
    run: async ({ limit }) => mails.slice(0, limit ?? mails.length).map((m) => labeled(m, Label.untrusted(`email:${m.from}`))),
  });
  const sent = [];
  const sendEmail = defineTool({
    name: "send_email",
    description: "Sends an email.",
    parameters: {
      type: "object",
      properties: { to: { type: "string" }, subject: { type: "string" }, body: { type: "string" } },
      required: ["to", "subject", "body"],
    },
    sideEffect: true,
    // The user's own address only. (A label check, `call.label("to").trusted`, would deny
    // here: the plan's loops over untrusted mail raise its context; see README.md.)
    policy: (call) => (call.args.to === "me@corp.io" ? allow() : deny("may only send to the user")),
    run: async (args) => {
      sent.push(args);
      return { ok: true };
    },
  });
  return { tools: [getInbox, sendEmail], sent };
}

/**
 * sluice through the public API: createRuntime with real tools. The run executes once in a
 * worker thread that blocks on each tool call while this thread decides and makes it.
 */
export const sluiceTools = {
  name: "sluice createRuntime + tools",
  prepare(source, mails) {
    const { tools, sent } = planTools(mails);
    const runtime = createRuntime({ tools });
    return {
      compileMs: () => undefined,
      before: () => { sent.length = 0; },
      run: async () => {
        const res = await runtime.run(`${source}\nresult`);
        if (res.status !== "completed") throw new Error(`sluice runtime: ${res.status}: ${res.error?.message}`);
        const decisions = res.calls.map((c) => `${c.tool}:${c.decision}`).join(",");
        if (decisions !== "get_inbox:allow,send_email:allow" || sent.length !== 1) throw new Error(`sluice runtime: unexpected calls ${decisions}`);
        return res.value;
      },
      after: noop,
    };
  },
};

/**
 * The same plan with tools, in-process: one synchronous execute given the two tools' answers
 * as a record (the inbox `labeled` per sender, as get_inbox returns it). Labels and data are
 * those of the createRuntime row; the difference is the worker, the host and the policies.
 */
export const sluiceRecorded = {
  name: "sluice in-process, tools' answers given",
  prepare(source, mails) {
    const program = compileProgram(`${source}\nresult`, { hostFunctions: ["get_inbox", "send_email", "query_ai_assistant"] });
    const inbox = readHostData(mails.map((m) => labeled(m, Label.untrusted(`email:${m.from}`))), { labels: "keep" });
    const record = [
      { kind: "value", value: inbox, label: Label.trusted() },
      { kind: "value", value: { ok: true }, label: Label.untrusted("send_email") },
    ];
    return {
      compileMs: () => undefined,
      before: noop,
      run: () => {
        const ex = program.execute(record, DEFAULT_LIMITS);
        if (ex.kind !== "completed") throw new Error(`sluice recorded: ${ex.kind}: ${ex.message ?? ex.reason ?? ""}`);
        return ex.value;
      },
      after: noop,
    };
  },
};
