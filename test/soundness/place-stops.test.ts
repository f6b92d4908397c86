/**
 * A security stop whose firing depends on which function or object data chose (a state-changing
 * function, a builtin that writes, an object whose label does not carry the reference's) ends one
 * run and lets the other go on to fail at a later, trusted line. The place the planner is told
 * must then be withheld in both: the stop's deciding label joins where the run may end, whether
 * or not it fired (found by the error-places property in CI: a forEach given `u.c ? f0 : g0`,
 * where f0 assigns a captured variable). Each case runs on both inputs.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { failureTurn } from "../../src/models/planner-messages.js";
import { obedientReader, soundnessTools, type InputRecord } from "../../src/testing/index.js";
import { input } from "./support.js";

type Parts = Partial<Record<"u" | "s", Partial<InputRecord>>>;
type Kind = "integrity" | "confidentiality";

const SHAPES: Array<[string, (v: string) => string]> = [
  ["a callback data chose that assigns a captured variable", (v) => `let a0 = 0;\nconst f0 = () => { a0 = a0 + 1; };\nconst g0 = () => 0;\n${v}.list.forEach(${v}.c ? f0 : g0);`],
  ["a closure data chose, called directly", (v) => `let a0 = 0;\nconst f0 = () => { a0 = a0 + 1; };\nconst g0 = () => 0;\n(${v}.c ? f0 : g0)();`],
  ["a function data chose by key that writes an object", (v) => `const o = { n: 0 };\nconst fns = { inc: () => { o.n = o.n + 1; }, get: () => 0 };\nfns[${v}.c ? "inc" : "get"]();`],
  ["a builtin data chose that writes its receiver", (v) => `const a = [1];\nconst f = ${v}.c ? a.push : a.indexOf;\nf(2);`],
  ["a write through a reference to an object data chose", (v) => `const o = ${v}.c ? {} : ${v}.n;\no.x = 1;`],
  ["a regular expression data chose, global or not", (v) => `const r = ${v}.c ? /a/g : /a/;\nr.exec("a");`],
  ["a write through an element data chose", (v) => `const o = [{}, ${v}.n][${v}.c ? 0 : 1];\no.x = 1;`],
];

const KINDS: Array<[Kind, "u" | "s"]> = [["integrity", "u"], ["confidentiality", "s"]];

async function told(program: string, parts: Parts, guard: Kind): Promise<string> {
  const rt = createRuntime({ tools: soundnessTools(input(parts), { guard }), approve: () => true, quarantined: obedientReader(), limits: { timeMs: 5000 } });
  const r = await rt.run(program);
  expect(r.status).toBe("failed");
  return failureTurn(r.error);
}

describe("a stop decided by which function or object data chose, before a later failure", () => {
  const cases = SHAPES.flatMap(([name, body]) => KINDS.map(([kind, v]) => [`${name} (${kind})`, `const ${v} = read_${v === "u" ? "untrusted" : "secret"}();\n${body(v)}\nwhile (null.k) {}`, kind, v] as const));
  it.each(cases)("%s: the planner is told the same in both runs", async (_name, program, kind, v) => {
    const parts = (c: boolean): Parts => ({ [v]: { c, list: [0] } });
    expect(await told(program, parts(true), kind)).toBe(await told(program, parts(false), kind));
  });
});

describe("a write a logical assignment did not make, before a later failure", () => {
  // Found by the error-place property (seed 993658960): the write made joined the reference's
  // label to where the run may end, the write not made did not, so only one run showed line 3.
  it.each(KINDS)("%s: the planner is told the same in both runs", async (kind, v) => {
    const program = `const ${v} = read_${v === "u" ? "untrusted" : "secret"}();\n${v}.n.x &&= 0;\nwhile (null.k) {}`;
    const parts = (x: number): Parts => ({ [v]: { n: { x, tag: "" } } });
    expect(await told(program, parts(1), kind)).toBe(await told(program, parts(0), kind));
  });
});

describe("a callback that cannot throw, called as many times as data decided, before a later failure", () => {
  // Precision: whether it ran changes nothing about where the run ends, so the planner is still
  // told the failing line (a Stryker survivor joined it to where the run may end regardless).
  it.each([[[0]], [[]]])("the planner is told the failing line (list %j)", async (list) => {
    const program = `const u = read_untrusted();\nconst xs = u.list;\nlet a = 0;\nxs.forEach((x) => { a = x; });\nwhile (null.k) {}`;
    expect(await told(program, { u: { list } }, "integrity")).toContain("failed at line 5");
  });
});
