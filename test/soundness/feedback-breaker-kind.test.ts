/**
 * Attack round r10 (reviewer b): the failure kind the planner is told of a trusted call
 * (RunError.failedCall, docs/security-model.md "What a program sees of a failed call", point 5)
 * can be decided by this run's own untrusted or secret data, not only by the remote side:
 * earlier calls of the same tool inside a try, with data-chosen arguments, fail or not as the
 * data says, and so open the tool's circuit breaker or not. The last call, trusted in both runs,
 * then fails as `circuit_open` in one run and `tool_error` in the other. The planner must be told
 * the same in both: the failures the data decided raise the try's pending throw, which the
 * failed call's label carries, so the kind is withheld in both.
 */
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool, failureTurn } from "../../src/index.js";
import { soundnessTools, type InputRecord } from "../../src/testing/index.js";
import { input } from "./support.js";


/** A trusted read-only tool that fails when asked about 1, and answers otherwise. */
function picky() {
  return defineTool({
    name: "picky",
    description: "Looks a number up; fails for 1.",
    parameters: { type: "object", properties: { v: { type: "number" } } },
    label: () => Label.trusted(),
    run: (args: { v?: number }) => {
      if (args.v === 1) throw new Error("picky is down for 1");
      return { ok: true };
    },
  });
}

async function told(program: string, parts: { u?: Partial<InputRecord>; s?: Partial<InputRecord> }) {
  const tools = [...soundnessTools(input(parts)), picky()];
  const runtime = createRuntime({ tools, approve: () => true, retry: { attempts: 1 }, breaker: { failures: 3, cooldownMs: 60_000 } });
  const r = await runtime.run(program);
  return { r, turn: r.error === undefined ? "" : failureTurn(r.error, { program, tools }) };
}

const PROGRAMS: Array<[string, string, [{ u?: Partial<InputRecord>; s?: Partial<InputRecord> }, { u?: Partial<InputRecord>; s?: Partial<InputRecord> }]]> = [
  [
    "untrusted",
    "const u = read_untrusted();\nfor (let i = 0; i < 3; i++) {\n  try { picky({ v: u.a }); } catch (e) { }\n}\npicky({ v: 1 });",
    [{ u: { a: 1 } }, { u: { a: 0 } }],
  ],
  [
    "secret",
    "const s = read_secret();\nfor (let i = 0; i < 3; i++) {\n  try { picky({ v: s.a }); } catch (e) { }\n}\npicky({ v: 1 });",
    [{ s: { a: 1 } }, { s: { a: 0 } }],
  ],
];

describe("a trusted call's failure kind is decided by earlier calls with data-chosen arguments", () => {
  for (const [name, program, inputs] of PROGRAMS) {
    it(`${name}: the planner is told the same in both runs`, async () => {
      const a = await told(program, inputs[0]);
      const b = await told(program, inputs[1]);
      // Both runs fail with a runtime error on the last call, a tool failure either way.
      expect([a.r.status, a.r.error?.kind, b.r.status, b.r.error?.kind]).toEqual(["failed", "runtime", "failed", "runtime"]);
      expect(a.r.calls.at(-1)?.failure).toBe("circuit_open");
      expect(b.r.calls.at(-1)?.failure).toBe("tool_error");
      expect(a.turn, `A:\n${a.turn}\nB:\n${b.turn}`).toBe(b.turn);
    });
  }
});
