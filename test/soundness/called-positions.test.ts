/**
 * The rule of the positions a builtin may call (issue 15, precision): the upgrade of a part not
 * run (a branch not taken, a helper's early return) reaches the functions at the positions a
 * builtin may call (JSON.parse's reviver, map's callback, replace's replacement) and no others,
 * so a helper that parses its argument no longer raises the run-wide floor, while a callback at
 * a called position is still upgraded and an unknown one still raises the floor. Each case runs
 * with the part taken and not taken; the generated plans of gen-positions.ts check the rule
 * against both runs (library.test.ts, and the mutant calledPositionShifted).
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { askingSink, untrustedSource } from "../support/tools.js";

const EMAIL = { body: "hello", json: "[1, 2]", n: 2, list: [1, 2] };

/** Runs with the sends a person would be asked about declined. */
async function run(program: string, data: Record<string, unknown> = EMAIL) {
  const seen: unknown[] = [];
  const runtime = createRuntime({ tools: [untrustedSource(data), askingSink("send", seen)], approve: () => false });
  const r = await runtime.run(`const e = read_untrusted();\n${program}`);
  return { trusted: r.label?.trusted, seen, error: r.error?.message };
}

const PARSE_IF = `function parse(v) { if (typeof v === "string") { return JSON.parse(v); } return v; }`;
const PARSE_NOT = `function parse(v) { if (typeof v !== "string") { return JSON.parse(v); } return v; }`;

describe("a helper with an early return around an effect-free call", () => {
  it.each([
    ["the issue's parse, applied to JSON text (the call runs)", `${PARSE_IF} parse(e.json);`],
    ["the issue's parse, applied to a number (the call does not run)", `${PARSE_IF} parse(e.n);`],
    ["parse with the test reversed, applied to text (the call does not run)", `${PARSE_NOT} parse(e.body);`],
    ["the same logic written with ?:", `function parse(v) { return typeof v === "string" ? JSON.parse(v) : v; } parse(e.json);`],
    ["JSON.stringify of the argument", `function show(v) { if (typeof v === "number") { return v; } return JSON.stringify(v, null, 2); } show(e.n);`],
    ["map's thisArg is never called", `const xs = [1]; function each(v) { if (typeof v !== "number") { return xs.map((x) => x, v); } return v; } each(e.n);`],
    ["reduce's initial value is never called", `const xs = [1]; function sum(v) { if (typeof v !== "number") { return xs.reduce((a, x) => a + x, v); } return v; } sum(e.n);`],
    ["Array.from's third argument is never called", `const id = (x) => x; function from(v) { if (typeof v !== "number") { return Array.from([1], id, v); } return v; } from(e.n);`],
    ["a builtin method of a local, by name", `function f(v) { if (typeof v !== "number") { const xs = [1]; const q = v.x; return xs.map((x) => x, q); } return v; } f(e.n);`],
  ])("%s: a later send to the boss is allowed", async (_what, helper) => {
    const { trusted, seen, error } = await run(`${helper}\nsend({ value: "boss@corp.com" });\n"done"`);
    expect(error).toBeUndefined();
    expect(seen).toEqual(["boss@corp.com"]);
    expect(trusted).toBe(true);
  });
});

describe("what the upgrade still reaches", () => {
  const BUMP = `let x = 0; const bump = (k, val) => { x = 1; return val; };`;
  it.each([
    ["a reviver made outside the helper", `${BUMP} function parse(v) { if (typeof v !== "string") { return JSON.parse(v, bump); } return v; }`, "parse(e.body)", "parse(e.n)"],
    ["a replacer made outside the helper", `${BUMP} function show(v) { if (typeof v !== "number") { return JSON.stringify(v, bump); } return v; }`, "show(e.n)", "show(e.body)"],
    ["a callback made outside the branch", `${BUMP} const xs = [1];`, "if (e.n > 5) { xs.map(bump); }", "if (e.n < 5) { xs.map(bump); }"],
    ["a replacement function of a string method", `${BUMP} const st = "a1";`, "if (e.n > 5) { st.replace('1', bump); }", "if (e.n < 5) { st.replace('1', bump); }"],
    ["a comparator given to sort", `${BUMP} const xs = [2, 1];`, "if (e.n > 5) { xs.sort(bump); }", "if (e.n < 5) { xs.sort(bump); }"],
  ])("%s: what it writes carries the decision, run or not", async (_what, before, notRun, runs) => {
    for (const call of [notRun, runs]) {
      const { trusted, error } = await run(`${before}\n${call};\nx`);
      expect(error).toBeUndefined();
      expect(trusted, `${before} ${call}`).toBe(false);
    }
  });

  it.each([
    ["a reviver passed in (unknown at the upgrade)", `function parse(v, f) { if (typeof v !== "string") { return JSON.parse(v, f); } return v; } parse(e.body, (k, v) => v);`],
    ["a spread argument (positions unknown)", `function parse(v) { if (typeof v !== "string") { return JSON.parse(...v); } return v; } parse(e.body);`],
    ["a callback as the first of spread arguments", `const xs = [1]; function each(v) { if (typeof v !== "string") { return xs.map(...v); } return v; } each(e.body);`],
    ["map's callback from the argument", `const xs = [1]; function each(v) { if (typeof v !== "string") { return xs.map(v.f); } return v; } each(e.body);`],
  ])("%s: the floor is raised", async (_what, helper) => {
    const { seen, error } = await run(`${helper}\nsend({ value: "boss@corp.com" });\n"done"`);
    expect(seen).toEqual([]);
    expect(error).toMatch(/not approved: send/);
  });
});
