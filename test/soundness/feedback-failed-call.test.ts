/**
 * Attack round r10 (reviewer b): the planner as a sink after a run that ended on a tool call's
 * failure. Each program runs on two inputs that differ only in the untrusted (or secret) record;
 * when both runs fail with the same kind, the planner's failure turn must be the same.
 */
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool, failureTurn } from "../../src/index.js";
import { soundnessTools, type InputRecord } from "../../src/testing/index.js";
import { input } from "./support.js";
import type { Tool } from "../../src/tools/types.js";

const PRELUDE = "const u = read_untrusted();\nconst s = read_secret();\nconst t = read_trusted();\n";

function failing(name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}): Tool {
  return defineTool({
    name,
    description: `Always fails (${name}).`,
    parameters: { type: "object" },
    policy: () => ({ kind: "allow" }),
    label: () => Label.trusted(),
    run: () => {
      throw new Error(`${name} broke`);
    },
    ...extra,
  });
}

async function told(program: string, parts: { u?: Partial<InputRecord>; s?: Partial<InputRecord> }): Promise<{ kind?: string; turn: string; status: string; msg?: string }> {
  const tools = [...soundnessTools(input(parts)), failing("fail_a"), failing("fail_b"), failing("fail_own", { failureLabel: Label.trusted() })];
  const runtime = createRuntime({ tools, approve: () => true, retry: { attempts: 1 } });
  const src = PRELUDE + program;
  const r = await runtime.run(src);
  return { kind: r.error?.kind, status: r.status, msg: r.error?.message, turn: r.error === undefined ? "" : failureTurn(r.error, { program: src, tools }) };
}

interface Case {
  id: string;
  program: string;
  inputs: [{ u?: Partial<InputRecord>; s?: Partial<InputRecord> }, { u?: Partial<InputRecord>; s?: Partial<InputRecord> }];
}

const C: Case["inputs"] = [{ u: { c: true } }, { u: { c: false } }];
const SC: Case["inputs"] = [{ s: { c: true } }, { s: { c: false } }];

export const CASES: Case[] = [
  { id: "baseline", program: "fail_b({});", inputs: C },
  { id: "baseline-null", program: "null.y;", inputs: C },
  { id: "pall-order", program: "await Promise.all([u.c ? fail_a({}) : 1, fail_b({})]);", inputs: C },
  { id: "pall-order-map", program: "await Promise.all([1, 2].map((x) => (x === 1 && u.c ? fail_a({}) : fail_b({}))));", inputs: C },
  { id: "callee-choice", program: "const f = () => fail_a({});\nconst g = () => fail_b({});\n(u.c ? f : g)();", inputs: C },
  { id: "host-fn-choice", program: "const h = u.c ? fail_a : fail_b;\nh({});", inputs: C },
  { id: "host-fn-array", program: "[fail_a, fail_b][u.c ? 0 : 1]({});", inputs: C },
  { id: "host-fn-obj", program: "const o = { k: fail_a };\nif (u.c) o.k = fail_b;\no.k({});", inputs: C },
  { id: "catch-entered", program: "try { JSON.parse(u.b); } catch (e) { fail_a({}); }\nfail_b({});", inputs: [{ u: { b: "{" } }, { u: { b: "1" } }] },
  { id: "finally-data-call", program: "try { fail_a({}); } finally { if (u.c) fail_b({}); }", inputs: C },
  { id: "early-guard", program: "if (u.c) fail_a({});\nfail_b({});", inputs: C },
  { id: "early-guard-null", program: "if (u.c) null.x;\nfail_b({});", inputs: C },
  { id: "loop-count", program: "for (const x of u.list) fail_a({});\nfail_b({});", inputs: [{ u: { list: [1] } }, { u: { list: [] } }] },
  { id: "forEach-count", program: "u.list.forEach(() => fail_a({}));\nfail_b({});", inputs: [{ u: { list: [1] } }, { u: { list: [] } }] },
  { id: "some-stop", program: "[1, 2].some((x) => { if (x === 2) fail_a({}); return x === u.a; });\nfail_b({});", inputs: [{ u: { a: 1 } }, { u: { a: 0 } }] },
  { id: "try-caught-then", program: "try { if (u.c) fail_a({}); } catch (e) { }\nfail_b({});", inputs: C },
  { id: "catch-rethrow", program: "try { fail_a({}); } catch (e) { if (u.c) throw e; }\nfail_b({});", inputs: C },
  { id: "catch-rethrow-err", program: "try { fail_a({}); } catch (e) { if (u.c) throw new Error(\"alpha\"); }\nfail_b({});", inputs: C },
  { id: "untrusted-arg-shape", program: "fail_a(u.c ? {} : { k: 1 });", inputs: C },
  { id: "args-validation-vs-failure", program: "fail_a(u.c ? 1 : {});", inputs: C },
  { id: "own-failure-data", program: "if (u.c) fail_own({});\nfail_a({});", inputs: C },
  { id: "own-failure-msg", program: "try { fail_own({}); } catch (e) { throw new Error(e.message); }", inputs: C },
  { id: "caught-own-then", program: "let m = \"\";\ntry { fail_own({}); } catch (e) { m = e.message; }\nif (u.c) null.x;\nfail_a({});", inputs: C },
  { id: "fn-return-early", program: "function f() { if (u.c) return; fail_a({}); }\nf();\nfail_b({});", inputs: C },
  { id: "async-fn", program: "async function f() { if (u.c) await fail_a({}); return 1; }\nawait f();\nawait fail_b({});", inputs: C },
  { id: "pall-second-data", program: "await Promise.all([fail_a({}), u.c ? fail_b({}) : 1]);", inputs: C },
  { id: "pall-nested-data", program: "await Promise.all([Promise.all([u.c ? fail_a({}) : 1]), fail_b({})]);", inputs: C },
  { id: "pall-elem-throw", program: "await Promise.all([u.c ? null.x : 1, fail_b({})]);", inputs: C },
  { id: "pall-map-list", program: "await Promise.all(u.list.map(() => fail_a({})));\nfail_b({});", inputs: [{ u: { list: [1] } }, { u: { list: [] } }] },
  { id: "secret-guard", program: "if (s.c) fail_a({});\nfail_b({});", inputs: SC },
  { id: "secret-host-fn", program: "(s.c ? fail_a : fail_b)({});", inputs: SC },
  { id: "query-then-call", program: "const r = await query_ai_assistant(\"x\" + u.b, { type: \"boolean\" });\nif (r) fail_a({});\nfail_b({});", inputs: [{ u: { b: "1" } }, { u: { b: "2" } }] },
  { id: "switch-call", program: "switch (u.a) { case 1: fail_a({}); }\nfail_b({});", inputs: [{ u: { a: 1 } }, { u: { a: 0 } }] },
  { id: "ternary-call", program: "u.c ? fail_a({}) : fail_b({});", inputs: C },
  { id: "logical-call", program: "u.c && fail_a({});\nfail_b({});", inputs: C },
  { id: "default-param", program: "function f(x = fail_a({})) { return x; }\nf(u.c ? undefined : 1);\nfail_b({});", inputs: C },
  { id: "getter-call", program: "const o = { get g() { return fail_a({}); }, h: 1 };\no[u.c ? \"g\" : \"h\"];\nfail_b({});", inputs: C },
  { id: "finally-return-swallow", program: "function f() { try { fail_a({}); } finally { if (u.c) return 1; } }\nf();\nfail_b({});", inputs: C },
  { id: "finally-break-swallow", program: "for (const x of [1]) { try { fail_a({}); } finally { if (u.c) break; } }\nfail_b({});", inputs: C },
  { id: "finally-return-cb", program: "[1].forEach(() => { try { fail_a({}); } finally { if (u.c) return; } });\nfail_b({});", inputs: C },
  { id: "catch-data-return", program: "function f() { try { fail_a({}); } catch (e) { if (u.c) return 1; throw e; } }\nf();\nfail_b({});", inputs: C },
  { id: "pall-catch", program: "try { await Promise.all([fail_a({}), u.c ? 1 : null.x]); } catch (e) { }\nfail_b({});", inputs: C },
  { id: "fn-result-choice", program: "function g() { return fail_a({}); }\nconst r = u.c ? 1 : g();\nfail_b({});", inputs: C },
  { id: "stored-promise", program: "const p = u.c ? fail_a({}) : 1;\nawait p;\nfail_b({});", inputs: C },
];

describe("the planner is told the same of a failed call whatever the data", () => {
  for (const c of CASES) {
    it(c.id, async () => {
      const [a, b] = [await told(c.program, c.inputs[0]), await told(c.program, c.inputs[1])];
      const same = a.kind === undefined || b.kind === undefined || a.kind !== b.kind || a.turn === b.turn;
      expect(same, `${c.program}\n[A ${a.status} ${a.msg}]\n${a.turn}\n[B ${b.status} ${b.msg}]\n${b.turn}`).toBe(true);
    });
  }
});
