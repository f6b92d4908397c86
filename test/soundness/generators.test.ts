/**
 * The generators themselves: plans are scope-correct and in the supported language, they reach
 * every construct, they branch on untrusted and secret data and reach sinks there, and a
 * counterexample shrinks to something a person can read.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { checkNoninterference, inputPairArb, planArb, soundnessProgramArb, soundnessTools } from "../../src/testing/index.js";
import { generatorCoverage, missingPositions } from "../../src/testing/coverage.js";
import { RUNTIME, runs } from "./support.js";

/** Constructs every batch of plans must contain, each a pattern of the generated source. */
const CONSTRUCTS: Record<string, RegExp> = {
  "if/else": /\bif \(.*\} else \{/, "else if": /else if \(/, "for-of": /for \(const \w+ of /, "for-of destructuring": /for \(const [{[]/,
  "for (;;)": /for \(let \w+ = 0;/, "for-in": /for \(const \w+ in /, while: /while \(\w+ < 3/, "do-while": /do \{/, switch: /switch \(/,
  "case fallthrough": /case 1: .* default:/, break: /break;/, continue: /continue;/, "labelled break": /break [LB]\d/, "labelled continue": /continue L\d/,
  "try/catch": /try \{.*\} catch \(err/, "catch without binding": /catch \{/, "catch destructuring": /catch \(\{ message/, finally: /finally \{/,
  throw: /throw new \w*Error/, "throw a value": /throw [^n]/, return: /return /, "function declaration": /function f\(x\)/, "function expression": /function \(p/,
  arrow: /=>/, closure: /const g\d+ = \(y/, "object destructuring + default + rest": /const \{ a: c\d+ = .*\.\.\.r/, "array destructuring + hole + rest": /const \[c\d+ = 0, , \.\.\.r/,
  spread: /\[\.\.\./, "object spread": /\{ \.\.\./, "computed key": /\{ \[/, "optional chain": /\?\./, "optional call": /\?\.\(/, "nullish": /\?\?/,
  "logical assignment": /(\|\||&&|\?\?)= /, "compound assignment": /(\+|-|\*|%|\||\^|<<)= /, "update": /\+\+|--/, conditional: / \? .* : /, template: /`[^`]*\$\{/,
  typeof: /typeof /, void: /void /, delete: /delete o/, in: /" in /, instanceof: /instanceof Error/, sequence: /\(v\d\+\+, /, "regex literal": /\/e\/g|\/y\//,
  "data-chosen function": /\? f : h\)\(/, "data-chosen object": /\? o : o2\)\.k =/, "new Error": /new (Type|Range)?Error\(/, "new Date": /new Date\(/,
  await: /await /, "Promise.all": /Promise\.all\(\[/, query: /query_ai_assistant\(/, "console.log": /console\.log\(/, "labelled list": /m\[\d\]\.(n|tag)/,
  "Math": /Math\.\w+\(/, "JSON.stringify": /JSON\.stringify\(/, "JSON replacer": /JSON\.stringify\([^)]*, \(key/, "JSON reviver": /JSON\.parse\([^)]*, \(key/,
  "Object.keys/values/entries": /Object\.(keys|values|entries)\(/, "Object.assign": /Object\.assign\(/, "Object.fromEntries": /Object\.fromEntries\(/, "Object.hasOwn": /Object\.hasOwn\(/,
  "Array.from with a map": /Array\.from\([^)]*, \(/, "Array.of": /Array\.of\(/, "Array.isArray": /Array\.isArray\(/, "Number/parseInt/String": /(Number|parseInt|String)\(/,
  "map/filter/reduce": /\.(map|filter|reduce)\(/, "find/findLast/findIndex": /\.find(Last)?(Index)?\(/, "some/every": /\.(some|every)\(/, "sort comparator": /\.sort\(\(/,
  forEach: /\.forEach\(/, "forEach(f)": /\.forEach\(f\)/, flatMap: /\.flatMap\(/, flat: /\.flat\(\)/, join: /\.join\(/, "push/pop/unshift/splice/reverse": /\.(push|pop|unshift|splice|reverse)\(/,
  "replace with a function": /\.replace\([^)]*, \(mm\)/, replaceAll: /\.replaceAll\(/, split: /\.split\(/, "string methods": /\.(padStart|toUpperCase|trim|slice|concat|localeCompare|search|match)\(/,
  "number methods": /\.(toFixed|toString)\(/, "exponent": /\*\* 2/, "shifts": />>>|<</,
  // The shapes of the leak mechanisms (gen-mechanisms.ts).
  "case test after the first": /case \(\w/, "case test that throws": /case JSON\.parse\(/, "chain tail": /: null\)\?\.\[/, "default parameter": /\(\(q = \(v1 = /,
  "destructuring target": /\[b0\.go\] = /, "loop-head target": /for \(b0\.go of /, "spread count": /\.\.\.\(\S+ \? \[/, "TDZ reference": /let later0 = 0;/,
  "shadowing block": /\{ const o = \{\}; o\.k = 1; \}/, "object key": /o\[\[/, "object number": /dd0\+\+/, "spread overwrite": /\{ k: 1, \.\.\.src0 \}/,
  "rest computed": /\.\.\.r0 \} = \{ k: 1/, "Error name": /e0\.name = /, "factory closures": /const c1 = mk0\(\)/, "chosen callback": /\? Math\.random : Math\.abs/,
  "builtin as callback": /\.forEach\(Math\.random\)/, "throwing write": /arr\.length = \S+ \? 1 : -1/, "tool call in try": /try \{ read_trusted\(\);/, "replacer walk": /j0\.b = /,
  "reduceRight/findLastIndex/sort callbacks": /\.(reduceRight|findLastIndex)\(/, "fresh deep path": /h0\.t\.k = /, "fresh argument": /forEach\(h0\.f\)/,
  "write before its declaration": /let h0 = \{\}; set0\(o\)/, "function declaration written first": /f0 = bump0; function f0/, "function name shadowed": /function g0\(g0\)/, "for…in removing a later key": /delete fo0\.c|fa0\.pop\(\)/, "callback chosen by data": /\? f0 : g0\)|\? f0 : "b"\)/, "builtin chosen instead": /\? Array\.from : (Array\.of|\(p0, q0\) => p0)\)/, "Error options chosen by data": /\? \{ cause: 1 \} : undefined\)/, "optional call of a builtin method": /bx0\.push\?\.\(/, "comparator reshaping its array": /if \(first0\) \{ first0 = false; xs0\./, "a function put where a region calls later": /Object\.assign\(ob0, \{ f: g0 \}\)|fs0\[0\] = g0/, "delete's answer": /delete dl0\.b \?/, "stringify space as an object": /JSON\.stringify\(\{ a: 1 \}, null, \[/, "loop head TDZ": /for \(const \[a0 = \S+ \? later0 : 0, later0\] of/, "replacer closing a cycle": /\? cy0 : val\)/, "a path's prefix replaced after a write through it": /o\.n = \{ d: 2 \}|Object\.assign\(ob0, \{ p:/, "logical assignment not made": /[us]\.n\.x (&&|\|\||\?\?)= |lo0\[key0\] (&&|\|\||\?\?)= /, "outside object under a chosen key": /gr0\[[^\]]+\] = it0/, "finally deciding the completion": /\} finally \{ if \(\S+\) \{ (return 2|break); \} \}/,
  "a key added and written through": /fk0\.p = \{\}; fk0\.p\.q = |fk0\.p\.r = \[\]/, "a match's groups written": /mt0\.groups\.g = /, "a callback path filled by the region": /cbo0\.cb = \(p0\) => p0; \[1\]\./,
  "a logical assignment whose write would throw": /ls0(\[[^\]]+\]|\.a) (&&|\|\||\?\?)= /, "a replacer cutting its array": /if \(key === "0" && \S+\) rc0\./, "a finally after a catch that may throw": /catch \{ \} finally \{ (if|for) \(|catch \{ read_trusted\(\); \} \} finally/,
  "a callback path swapped between a builtin and a closure": /cs0\.cb = (\(p0\) => p0|Math\.abs); \[1\]\./, "a callback-only method on a receiver the region makes": /uc0\.arr = \[1, 2\]; uc0\.arr\.|delete uc0\.list; uc0\.list\?\.map/,
};

describe("plan generators", () => {
  it("cover every statement, operator, builtin and callback form in a few thousand plans", () => {
    const text = fc.sample(soundnessProgramArb, { numRuns: 4000, seed: 7 }).join("\n");
    const missing = Object.entries(CONSTRUCTS).filter(([, re]) => !re.test(text)).map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it("build every position a leak hid in (a case test, a chain's tail, a finally block, …)", () => {
    expect(missingPositions(generatorCoverage(3000))).toEqual([]);
  });

  it("make scope-correct plans in the supported language (no syntax, unsupported or undeclared-name error)", async () => {
    await fc.assert(
      fc.asyncProperty(soundnessProgramArb, inputPairArb("integrity"), async (program, [input]) => {
        const r = await createRuntime({ ...RUNTIME, tools: soundnessTools(input) }).run(program);
        expect(["syntax", "unsupported"]).not.toContain(r.error?.kind);
        expect(r.error?.message ?? "").not.toMatch(/is not defined|before initialization/);
      }),
      { numRuns: runs(150) },
    );
  });

  it("branch on untrusted or secret data and reach sinks there in most plans", async () => {
    let tainted = 0;
    let completed = 0;
    const n = runs(200);
    await fc.assert(
      fc.asyncProperty(soundnessProgramArb, inputPairArb("integrity"), async (program, [input]) => {
        const r = await createRuntime({ ...RUNTIME, tools: soundnessTools(input) }).run(program);
        if (r.status === "completed") completed++;
        if (r.calls.some((c) => ["send", "publish"].includes(c.tool) && c.context !== undefined && (!c.context.trusted || !c.context.isPublic))) tainted++;
      }),
      { numRuns: n, seed: 11 },
    );
    console.log(`generated plans: ${((100 * tainted) / n).toFixed(0)}% reach a sink under an untrusted or secret context; ${((100 * completed) / n).toFixed(0)}% run to the end`);
    // Guards that end the run leave the sinks after them clean (issue 15): 35% before them, 30% at seed 11 after.
    expect(tainted / n).toBeGreaterThan(0.25);
    expect(completed / n).toBeGreaterThan(0.7);
  });

  it("shrink a counterexample to a plan a person can read", async () => {
    const report = await checkNoninterference({
      programs: planArb(),
      inputs: inputPairArb("integrity"),
      tools: (i) => soundnessTools(i, { guard: "integrity" }),
      observe: ["send", "publish"],
      varying: "untrusted",
      numRuns: 2000,
      seed: 3,
      runtime: { ...RUNTIME, mutants: { binaryDropsRight: true } },
    });
    expect(report.failed).toBe(true);
    const lines = report.counterexample!.program.split("\n");
    console.log(`shrunk counterexample (${lines.length} lines):\n${report.counterexample!.program}`);
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(report.counterexample!.traces[0]).not.toEqual(report.counterexample!.traces[1]);
  });
});
