/**
 * Positions of an array built from parts (issue 15, rules.ts positionLabel): a search from the
 * start that stops among the positions a trusted (or public) part decided answers with that
 * part's label; any change that can move a position forgets it, made or not made. Fixed pairs
 * for each kind of change, then generated plans of the shape (src/testing/gen-cuts.ts).
 */
import { describe, expect, it } from "vitest";
import { cleanFor, cutsStatementArb, planArb, runPair, soundnessTools, type PairKind } from "../../src/testing/index.js";
import { RUNTIME, checkPlans, input, runs, timeout } from "./support.js";

const pairOf = (program: string, kind: PairKind, inputs: [Record<string, unknown>, Record<string, unknown>]) =>
  runPair(program, [input(inputs[0]), input(inputs[1])], { tools: (i) => soundnessTools(i, { guard: kind }), observe: ["send"], clean: cleanFor(kind === "integrity" ? "untrusted" : "secret"), runtime: RUNTIME, feedback: true });

const HEAD = "const u = read_untrusted();\nconst t = read_trusted();\nconst s = read_secret();\n";
const UNTRUSTED: [Record<string, unknown>, Record<string, unknown>] = [{ t: { list: [1, 2] }, u: { list: [3], c: true, a: 1 } }, { t: { list: [1, 2] }, u: { list: [4, 5, 6], c: false, a: 0 } }];
const SECRET: [Record<string, unknown>, Record<string, unknown>] = [{ t: { list: [1, 2] }, s: { list: [3], c: true } }, { t: { list: [1, 2] }, s: { list: [4, 5, 6], c: false } }];

describe("an array built from parts", () => {
  it.each([
    ["find", "h.find((x) => x === 2)"],
    ["findIndex", "h.findIndex((x) => x === 2)"],
    ["some", "h.some((x) => x === 1)"],
    ["every", "h.every((x) => x > 1)"],
    ["indexOf", "h.indexOf(2)"],
    ["includes", "h.includes(1)"],
  ])("%s that stops in the trusted part answers trusted: the send is allowed in both runs", async (_what, search) => {
    const pair = await pairOf(`${HEAD}const h = [...t.list, ...u.list];\nsend({ value: ${search} });`, "integrity", UNTRUSTED);
    expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
    expect(pair.traces.every((t) => t.length === 1 && !t[0].includes("ask")), JSON.stringify(pair.traces)).toBe(true);
  });

  it.each([
    ["find", "t.list.concat(u.list).find((x) => x === 2)", true],
    ["includes, an argument that is not an array", "t.list.concat(u.a, u.list).includes(1)", true],
    ["find past the receiver", "t.list.concat(u.list).find((x) => x > 2)", false],
    ["find after a push", "(() => { const h = t.list.concat(u.list); h.push(1); return h.find((x) => x === 2); })()", false],
    ["an untrusted receiver", "u.list.concat(t.list).find((x) => x === 2)", false],
    ["a receiver whose length untrusted data decided", "(() => { const r = [1, 2]; if (u.a > 0) r.pop(); return r.concat(t.list).find((x) => x === 2); })()", false],
  ])("concat, %s: the receiver's elements are decided by the receiver alone", async (_what, search, allowed) => {
    const pair = await pairOf(`${HEAD}send({ value: ${search} });`, "integrity", [{ t: { list: [1, 2] }, u: { list: [3], a: 1 } }, { t: { list: [1, 2] }, u: { list: [4, 5, 2], a: 0 } }]);
    expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
    expect(pair.traces.every((t) => t.length === 1 && t[0].includes("ask") !== allowed), JSON.stringify(pair.traces)).toBe(true);
  });

  it("a search in the public part of a list with a secret tail may be sent", async () => {
    const pair = await pairOf(`${HEAD}const h = [...t.list, ...s.list];\nsend({ value: h.find((x) => x === 2) });`, "confidentiality", SECRET);
    expect(pair.traces.every((t) => t.length === 1 && !t[0].includes("ask")), JSON.stringify(pair.traces)).toBe(true);
  });

  it.each(["h.find((x) => x === 5)", "h.findLast((x) => x === 1)", "h.indexOf(1, 1)", "h.find((x, i, a) => a.length > 2)"])(
    "a search past the trusted part, from the end, from an index or reading the length is untrusted: %s",
    async (search) => {
      const pair = await pairOf(`${HEAD}const h = [...t.list, ...u.list];\nsend({ value: ${search} });`, "integrity", UNTRUSTED);
      expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
      expect(pair.traces.some((t) => t.some((c) => c.includes("ask"))), JSON.stringify(pair.traces)).toBe(true);
    },
  );

  it.each(["h.reverse()", "h.sort((x, y) => y - x)", "h.unshift(9)", "h.shift()", "h.splice(0, 1)", "h.pop()", "h.length = 1", "delete h[0]", "h[u.a] = 9", "h.push(9)", "h.fill(9)"])(
    "%s, made or not made in a region the untrusted data decided, forgets the parts in both runs",
    async (change) => {
      for (const program of [`${HEAD}const h = [...t.list, ...u.list];\n${change};\nsend({ value: h.find((x) => x > 0) });`, `${HEAD}const h = [...t.list, ...u.list];\nif (u.c) { ${change}; }\nsend({ value: h.find((x) => x > 0) });`]) {
        const pair = await pairOf(program, "integrity", UNTRUSTED);
        expect(pair.ok, `${program}\n${JSON.stringify(pair.traces)}`).toBe(true);
        expect(pair.traces.every((t) => t.some((c) => c.includes("ask"))), `${program}\n${JSON.stringify(pair.traces)}`).toBe(true);
      }
    },
  );

  it("a write in place at a static index moves nothing: the answer before it stays trusted", async () => {
    const pair = await pairOf(`${HEAD}const h = [...t.list, ...u.list];\nh[1] = 2;\nif (u.c) { h[0] = 1; }\nsend({ value: h.find((x) => x === 2) });`, "integrity", UNTRUSTED);
    expect(pair.ok, JSON.stringify(pair.traces)).toBe(true);
  });

  it.each<PairKind>(["integrity", "confidentiality"])("%s over generated plans of the shape", async (kind) => {
    const report = await checkPlans(kind, planArb({ focus: cutsStatementArb }), { numRuns: runs(150), feedback: true });
    expect(report.counterexample).toBeUndefined();
  }, timeout(120_000));
});
