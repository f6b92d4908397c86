/**
 * Planted leaks, one at a time: each mutant switch breaks one label rule, and a small witness
 * plan shows it: the two runs' sink traces agree with the switch off and differ with it on.
 * (mutants.test.ts checks that the generated-plan properties find each one from scratch.)
 */
import { describe, expect, it } from "vitest";
import { MUTANTS } from "../../src/testing/mutants.js";
import { cleanFor, runPair, soundnessTools, type SoundnessInput } from "../../src/testing/index.js";
import { RUNTIME, input } from "./support.js";

const Q = `{ type: "object", properties: { n: { type: "number" } }, required: ["n"] }`;
const U = "const u = read_untrusted();\nconst t = read_trusted();\nlet v = 0;\nconst o = { k: 0 };\nconst o2 = { k: 0 };\nconst arr = [1];\n";

/** Per mutant: a plan, and two untrusted records it tells apart only when the mutant is on. */
const WITNESSES: Record<string, { plan: string; u: [Partial<SoundnessInput["u"]>, Partial<SoundnessInput["u"]>]; feedback?: true }> = {
  stopNoEnd: { plan: `const f0 = () => { v = v + 1; };\nconst g0 = () => 0;\n[0].forEach(u.c ? f0 : g0);\nwhile (null.k) {}`, u: [{ c: true }, { c: false }], feedback: true },
  finallyDropsPc: { plan: `v = ((q) => { try { return 1; } finally { if (u.c) { return 2; } } })(0);\nsend({ value: v });`, u: [{ c: true }, { c: false }] },
  finallyDropsThr: { plan: `try { if (u.c) throw new Error("x"); } catch { } finally { for (const x of u.list) { v = 1; } }\nsend({ value: v });`, u: [{ list: [] }, { list: [1] }] },
  noThrowPc: { plan: `try { if (u.c) throw new Error("x"); v = 1; } catch { v = 2; }\nsend({ value: v });`, u: [{ c: true }, { c: false }] },
  noContainerLabel: { plan: `arr.push(2);\nif (u.c) arr.reverse();\nsend({ value: arr[0] });`, u: [{ c: true }, { c: false }] },
  noAliasFloor: { plan: `(u.c ? o : o2).k = 1;\nsend({ value: o.k });`, u: [{ c: true }, { c: false }] },
  noHeapUpgrade: { plan: `if (u.c) { o.k = 1; }\nsend({ value: o.k });`, u: [{ c: true }, { c: false }] },
  noUntakenUpgrade: { plan: `if (u.c) { v = 1; }\nsend({ value: v });`, u: [{ c: true }, { c: false }] },
  noJumpPc: { plan: `for (const x of [1, 2]) { if (u.c) break; v += x; }\nsend({ value: v });`, u: [{ c: true }, { c: false }] },
  noBranchPc: { plan: `if (u.c) { send({ value: 1 }); }`, u: [{ c: true }, { c: false }] },
  noLoopPc: { plan: `for (const x of u.list) { send({ value: 1 }); }`, u: [{ list: [1] }, { list: [] }] },
  noDeepLabel: { plan: `arr.push(u.a);\nsend({ value: String(arr) });`, u: [{ a: 1 }, { a: 2 }] },
  templateDropsLabels: { plan: "send({ value: `${u.a}` });", u: [{ a: 1 }, { a: 2 }] },
  binaryDropsRight: { plan: `send({ value: 1 + u.a });`, u: [{ a: 1 }, { a: 2 }] },
  conditionalDropsTest: { plan: `send({ value: u.c ? 1 : 2 });`, u: [{ c: true }, { c: false }] },
  callbackDropsResult: { plan: `send({ value: [1, 2].some((x) => x === u.a) });`, u: [{ a: 1 }, { a: 3 }] },
  defaultDropsArgs: { plan: `send({ value: "abc".indexOf(u.b) });`, u: [{ b: "b" }, { b: "x" }] },
  defaultDropsContents: { plan: `send({ value: [u.a, 1].join("-") });`, u: [{ a: 1 }, { a: 2 }] },
  stringifyShallow: { plan: `send({ value: JSON.stringify([u.a]) });`, u: [{ a: 1 }, { a: 2 }] },
  toolResultUnlabeled: { plan: `send({ value: u.a });`, u: [{ a: 1 }, { a: 2 }] },
  readerAnswerUnlabeled: { plan: `send({ value: query_ai_assistant("Rate: " + u.b, ${Q}).n });`, u: [{ b: "yes" }, { b: "e" }] },
  returnDropsPc: { plan: `function f() { if (u.c) return 1; return 2; }\nsend({ value: f() });`, u: [{ c: true }, { c: false }] },
  catchNoPc: { plan: `try { if (u.c) throw new Error("x"); } catch { send({ value: 1 }); }`, u: [{ c: true }, { c: false }] },
  switchNoPc: { plan: `switch (u.a) { case 1: send({ value: 1 }); }`, u: [{ a: 1 }, { a: 2 }] },
  lengthDropsLabel: { plan: `if (u.c) arr.push(2);\nsend({ value: arr.length });`, u: [{ c: true }, { c: false }] },
  keyDropsLabel: { plan: `o.m1 = 2;\nsend({ value: o[u.c ? "k" : "m1"] });`, u: [{ c: true }, { c: false }] },
  hasDropsShape: { plan: `if (u.c) { o.m1 = 1; }\nsend({ value: "m1" in o });`, u: [{ c: true }, { c: false }] },
  missingKeyNoShape: { plan: `if (u.c) { o.m1 = 1; }\nsend({ value: o.m1 });`, u: [{ c: true }, { c: false }] },
  unknownNoFloor: { plan: `if (u.c) { (t.c ? o : o2).k = 1; }\nsend({ value: o2.k });`, u: [{ c: true }, { c: false }] },
  defaultDropsTest: { plan: `const [c = 0] = u.list;\nsend({ value: c });`, u: [{ list: [] }, { list: [0] }] },
  logicalDropsLeft: { plan: `send({ value: u.c && 1 });`, u: [{ c: true }, { c: false }] },
  compoundDropsRight: { plan: `v += u.a;\nsend({ value: v });`, u: [{ a: 1 }, { a: 2 }] },
  calledPositionShifted: { plan: `const bump = (k, x) => { v = 1; return x; };\nconst parse = (x) => { if (u.c) { return JSON.parse(x, bump); } return x; };\nparse("[1]");\nsend({ value: v });`, u: [{ c: true }, { c: false }] },
  guardIgnoresTry: { plan: `const c = u.c;\ntry { if (c) { throw new Error("x"); } send({ value: 1 }); } catch {}\nsend({ value: 2 });`, u: [{ c: true }, { c: false }] },
  spreadKeysNone: { plan: `send({ value: { k: 1, ...(u.c ? { k: 2 } : {}) }.k });`, u: [{ c: true }, { c: false }] },
  hiddenStateUnlabeled: { plan: `if (u.c) { Math.random(); }\nsend({ value: Math.random() });`, u: [{ c: true }, { c: false }] },
};

async function witness(name: string, mutant: boolean) {
  const w = WITNESSES[name];
  const inputs: [SoundnessInput, SoundnessInput] = [input({ u: w.u[0] }), input({ u: w.u[1] })];
  const runtime = { ...RUNTIME, mutants: mutant ? { [name]: true } : undefined };
  return runPair(U + w.plan, inputs, { tools: (i) => soundnessTools(i, { guard: "integrity" }), observe: ["send", "publish"], clean: cleanFor("untrusted"), runtime, feedback: w.feedback === true });
}

/** Mutants a sink can tell apart from the correct rule (see MutantInfo.equivalent for the others). */
const LIVE = MUTANTS.filter((m) => m.equivalent === undefined);

describe("planted leaks: witnesses", () => {
  it("there are at least 15 mutants, each with a witness unless shown equivalent", () => {
    expect(LIVE.length).toBeGreaterThanOrEqual(15);
    expect(LIVE.map((m) => m.name).filter((n) => WITNESSES[n] === undefined)).toEqual([]);
  });

  it.each(LIVE.map((m) => [m.name, m.breaks]))("%s changes what its witness lets through (%s)", async (name) => {
    expect((await witness(name, false)).ok).toBe(true);
    const broken = await witness(name, true);
    expect(broken.ok).toBe(false);
  });

});
