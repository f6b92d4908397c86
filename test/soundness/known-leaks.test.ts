/**
 * Leaks of the interpreter itself that the generated-plan properties (or the mutation analysis of
 * the label rules) found, each cut down to a few lines and a pair of inputs that differ only in
 * the untrusted record, kept as regression tests now that they are fixed. A new leak the properties find goes here first, as `it.fails`
 * (the suite stays green and turns red when it is fixed), with its construct's tag in
 * KNOWN_LEAK_FEATURES (support.ts) so the generic properties keep looking for others meanwhile.
 */
import { describe, expect, it } from "vitest";
import { cleanFor, runPair, soundnessTools, type SoundnessInput } from "../../src/testing/index.js";
import { RUNTIME, input } from "./support.js";

interface Leak {
  /** What goes wrong, in one line. */
  bug: string;
  program: string;
  inputs: [SoundnessInput, SoundnessInput];
}

const LEAKS: Leak[] = [
  {
    bug: "(attack r3, kept here for Stryker) a write through o.p, then of o.p itself, in a region: the floor rose only where the region ran, since its later write had labelled the path's prefix",
    program: `const u = read_untrusted();\nconst o = { p: { k: 0 } };\nif (u.c) { o.p.k = 1; o.p = { k: 2 }; }\nsend({ value: "after" });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "(attack r2, kept here for Stryker) a region calls o.f, then puts another function there: the callee read before the later write was upgraded as the old function only",
    program: `const u = read_untrusted();\nlet n = 0;\nconst h = () => 0;\nconst g = () => { n = n + 1; };\nconst o = { f: h };\nif (u.c) { for (let i = 0; i < 2; i++) { o.f(); Object.assign(o, { f: g }); } }\nsend({ value: n });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "(Stryker survivor) a builtin that calls its arguments, passed as a callback in a region not run (`[bump].forEach(ys.forEach)`), would have called the elements it was given: what they change is not named there, so the floor rises",
    program: `const u = read_untrusted();\nlet v = 0;\nconst bump = () => { v = 7; };\nconst ys = [1];\nif (u.c) { [bump].forEach(ys.forEach); }\nsend({ value: v });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "(Stryker survivor) a delete of an array element in a region not run: whether the index is there was decided by the region, so the whole array carries it, not the element alone",
    program: `const u = read_untrusted();\nconst arr = [1, 2];\nif (u.c) { delete arr[0]; }\nsend({ value: 0 in arr });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "(Stryker survivor) an outside object stored under a key data chose, in a region data decided, is raised with the key's label in the run that stored it only",
    program: `const u = read_untrusted();\nconst t = read_trusted();\nconst item = { n: 1 };\nconst groups = {};\nif (u.c) { groups[u.b] = item; }\nsend({ value: item.n });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "(Stryker survivor) an Error's keys: `name` is enumerable once it differs from the class, so which keys it has is decided by what wrote it, not by its shape alone",
    program: `const u = read_untrusted();\nconst e = new Error("x");\nif (u.c) { e.name = "Y"; }\nsend({ value: Object.keys(e).length });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "(Stryker survivor) a function that returned early on untrusted data: what it writes after the return is upgraded at its exit in the run that took the return (exitFunction emptied)",
    program: `const u = read_untrusted();\nlet n = 0;\nfunction f() { if (u.c) return; n = 1; }\nf();\nsend({ value: n });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "(Stryker survivor) inside a try, a short circuit that skipped code that may throw: the rest of the try runs under what decided it at once, not from the next statement on",
    program: `const u = read_untrusted();\nconst c = u.c;\ntry { (c && JSON.parse("x"), send({ value: 1 })); } catch {}`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "replace with a function: the string returned joins the receiver's and the arguments' labels but not the callback's answers",
    program: `const u = read_untrusted();\nsend({ value: "yes".replace("e", () => u.b) });`,
    inputs: [input({ u: { b: "x" } }), input({ u: { b: "eve@evil.com" } })],
  },
  {
    bug: "replace with a function on a labelled string: what the callback writes is not upgraded when it does not run (no match)",
    program: `const u = read_untrusted();\nlet v = 1;\nu.b.replace(/y/, (mm) => { v = 5; return mm; });\nsend({ value: v });`,
    inputs: [input({ u: { b: "y" } }), input({ u: { b: "q" } })],
  },
  {
    bug: "a callback of an array method called on a labelled array is not upgraded when it does not run: upgradeCallee runs while the receiver's pc is still raised (underPc)",
    program: `const u = read_untrusted();\nlet v = 0;\nu.list.forEach((x) => { v = 5; });\nsend({ value: v });`,
    inputs: [input({ u: { list: [1] } }), input({ u: { list: [] } })],
  },
  {
    bug: "delete under a branch raises the object's label when it runs but only its shape when it does not, so o.k's label says which branch ran",
    program: `const u = read_untrusted();\nconst o = { k: 0 };\nif (u.c) { delete o.m1; }\nsend({ value: o.k });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "a nested try resets st.thr, dropping the outer try's pending-throw label from the pc of the rest of the outer try",
    program: `const u = read_untrusted();\ntry {\n  if (u.c) throw new Error("stop");\n  try { [1].map((x) => x); publish({ value: 1 }); } catch {}\n} catch {}`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "Math.random's seed had no label: a call in a branch decided by untrusted data changed the next number, which was labelled trusted",
    program: `const u = read_untrusted();\nif (u.c) { Math.random(); }\nsend({ value: Math.random() });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "a global regex's lastIndex had no label: a test() in a branch decided by untrusted data changed what the next test() found",
    program: `const u = read_untrusted();\nconst re = /a/g;\nif (u.c) { re.test("a"); }\nsend({ value: re.test("a") });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "a function stored by Object.fromEntries under a key written as data was not a possible method, so calling it in a branch not taken upgraded nothing",
    program: `const u = read_untrusted();\nlet v = 0;\nfunction bump() { v = 7; }\nif (u.c) { const tbl = Object.fromEntries([["go", bump]]); tbl.go(); }\nsend({ value: v });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "inside a try, a callback over untrusted data that may throw raised the try's pending-throw label only when it ran, so what the try wrote was upgraded in one run and not the other",
    program: `const u = read_untrusted();\nconst m = [{ n: 0, tag: "" }, { n: 0, tag: u.b }];\nlet z = 0;\ntry { m.filter((it) => it.tag === "yes").map((it) => it.n); z = 1; } catch {}\nsend({ value: z });`,
    inputs: [input({ u: { b: "yes" } }), input({ u: { b: "no" } })],
  },
  {
    bug: "a function that could have returned early on untrusted data upgraded its body's effects only when it did return early (the exit label was read before the body ran), so a floor its body raised showed which way it went",
    program: `const u = read_untrusted();\nfunction g() { if (u.c) return 0; [3].sort(); }\ng();\nsend({ value: 1 });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
  {
    bug: "a Date setter ignored the pc, and the branch-not-taken upgrade skipped dates, so a date changed under an untrusted branch stayed trusted",
    program: `const u = read_untrusted();\nconst d = new Date(0);\nif (u.c) { d.setDate(5); }\nsend({ value: d.getTime() });`,
    inputs: [input({ u: { c: true } }), input({ u: { c: false } })],
  },
];

describe("leaks the properties found in the interpreter stay fixed", () => {
  it.each(LEAKS.map((l) => [l.bug, l]))("fixed: %s", async (_bug, leak) => {
    const l = leak as Leak;
    const pair = await runPair(l.program, l.inputs, { tools: (i) => soundnessTools(i, { guard: "integrity" }), observe: ["send", "publish"], clean: cleanFor("untrusted"), runtime: RUNTIME });
    expect(pair.traces[0]).toEqual(pair.traces[1]);
  });

  it("each leak program runs to the end on both inputs (the leak is not a crash)", async () => {
    for (const l of LEAKS) {
      const pair = await runPair(l.program, l.inputs, { tools: (i) => soundnessTools(i), observe: ["send", "publish"], clean: cleanFor("untrusted"), runtime: RUNTIME });
      expect(pair.results.map((r) => r.status), l.program).toEqual(["completed", "completed"]);
    }
  });
});
