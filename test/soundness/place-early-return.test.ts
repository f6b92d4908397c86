/**
 * Attack round 5b: a return decided by secret or untrusted data skips code that may throw, so
 * whether the run fails inside the function or at a later, trusted line tells the planner the data
 * (failureTurn shows a place and message only when their labels are trusted). A function's exit
 * joins what decided it into the place the run may end at (rules.ts exitFunction), as a region's
 * exit does. Each case runs on both inputs: what the planner is told must be the same.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { failureTurn } from "../../src/models/planner-messages.js";
import { obedientReader, soundnessTools, type InputRecord } from "../../src/testing/index.js";
import { input } from "./support.js";

type Parts = Partial<Record<"u" | "s" | "t", Partial<InputRecord>>>;

const CASES: Array<[string, string, [Parts, Parts], "integrity" | "confidentiality"]> = [
  ["early-return-secret", "const s = read_secret();\nfunction f() {\n  if (s.c) { return 0; }\n  null.k;\n}\nf();\nnull.j;", [{ s: { c: true } }, { s: { c: false } }], "confidentiality"],
  ["early-return-untrusted", "const u = read_untrusted();\nfunction f() {\n  if (u.c) { return 0; }\n  null.k;\n}\nf();\nnull.j;", [{ u: { c: true } }, { u: { c: false } }], "integrity"],
  ["early-return-arrow-secret", "const s = read_secret();\nconst f = () => {\n  if (s.c) return 0;\n  return null.k;\n};\nconst r = f();\nnull.j;", [{ s: { c: true } }, { s: { c: false } }], "confidentiality"],
  ["callback-return-secret", "const s = read_secret();\n[1].forEach((x) => {\n  if (s.c) { return; }\n  null.k;\n});\nnull.j;", [{ s: { c: true, a: 5 } }, { s: { c: false, a: 0 } }], "confidentiality"],
  ["method-return-secret", "const s = read_secret();\nconst o = { m() { if (s.c) return 1; return null.k; } };\no.m();\nnull.j;", [{ s: { c: true, a: 5 } }, { s: { c: false, a: 0 } }], "confidentiality"],
  ["nested-return-secret", "const s = read_secret();\nfunction g() { if (s.c) return 0; return 1; }\nfunction f() {\n  if (g() === 0) { return 0; }\n  null.k;\n}\nf();\nnull.j;", [{ s: { c: true, a: 5 } }, { s: { c: false, a: 0 } }], "confidentiality"],
  ["reduce-callback-secret", "const s = read_secret();\nconst r = [1, 2].reduce((acc, x) => { if (s.c) return acc; return acc + null.k; }, 0);\nnull.j;", [{ s: { c: true, a: 5 } }, { s: { c: false, a: 0 } }], "confidentiality"],
  ["return-then-parse-secret", "const s = read_secret();\nfunction f() {\n  if (s.c) return 0;\n  return JSON.parse(\"{\");\n}\nf();\nnull.j;", [{ s: { c: true } }, { s: { c: false } }], "confidentiality"],
];

async function told(program: string, parts: Parts, guard: "integrity" | "confidentiality"): Promise<string> {
  const rt = createRuntime({ tools: soundnessTools(input(parts), { guard }), approve: () => true, quarantined: obedientReader(), limits: { timeMs: 5000 } });
  const r = await rt.run(program);
  expect(r.status).toBe("failed");
  return failureTurn(r.error);
}

describe("an early return on data, before code that may throw", () => {
  it.each(CASES)("%s: the planner is told the same in both runs", async (_name, program, [a, b], guard) => {
    expect(await told(program, a, guard)).toBe(await told(program, b, guard));
  });
});
