/**
 * The static pass behind the branch-not-taken rule (src/language/effects.ts, scopes.ts): what a
 * region may assign, write, call and throw, with names resolved by scope (a block-local `o`
 * does not hide the outer `o` the region writes) and may-throw as an allowlist.
 */
import type * as acorn from "acorn";
import { describe, expect, it } from "vitest";
import { parseProgram, regionEffects, resolveScopes } from "../../src/language/index.js";
import { userMethodNames } from "../../src/language/effects.js";

// Names the test programs use without declaring them.
const GLOBALS = new Set(["Math", "JSON", "Object", "send", "x", "f"]);

/** The effects of the first statement of `region` (a statement of `program`, by index). */
function effects(program: string, index: number) {
  const ast = parseProgram(program);
  const res = resolveScopes(ast, GLOBALS);
  return regionEffects(ast.body[index] as acorn.Node, res);
}

describe("scope resolution", () => {
  it("finds the references that may run in the temporal dead zone or name nothing", () => {
    const ast = parseProgram("const a = 1; a; later; typeof later; typeof nothing; nothing; let later = 2; later; () => later2; const later2 = 0; function f() { return later3; } const later3 = 0;");
    const res = resolveScopes(ast, GLOBALS);
    const throwing = [...res.mayThrow].map((n) => `${(n as acorn.Identifier).name}@${n.start}`);
    const names = throwing.map((t) => t.split("@")[0]);
    expect(names.sort()).toEqual(["later", "later", "later2", "later3", "nothing"]);
  });

  it("a let of one switch case read in another may be uninitialised; in its own case it is not", () => {
    const ast = parseProgram('switch (1) { case 1: let q = 1; q; break; case 2: q; }');
    const res = resolveScopes(ast, GLOBALS);
    expect([...res.mayThrow].map((n) => n.start)).toEqual([ast.body[0].end - 4]);
  });
});

describe("region effects", () => {
  it("a write to an outer name stays a write when a block inside declares the same name", () => {
    const fx = effects("const o = {}; if (x) { o.k = 1; { const o = {}; } }", 1);
    expect(fx.heap.map((h) => [h.path.root, h.path.local ?? false, h.key])).toEqual([["o", false, "k"]]);
  });

  it("a callee chosen between paths calls each of them; a choice with a value that is not a path is any function", () => {
    const callees = (src: string) => {
      const fx = effects(`const g = () => 0; const h = { m: () => 0 };\n${src}`, 2);
      return { unknown: fx.unknown, calls: fx.calls.map((c) => [c.callee.root, ...c.callee.keys].join(".")) };
    };
    expect(callees("if (x) (x ? f : g)(1);")).toEqual({ unknown: false, calls: ["f", "g"] });
    expect(callees("if (x) (g || h.m)(1);")).toEqual({ unknown: false, calls: ["g", "h.m"] });
    expect(callees("if (x) (0, g)(1);")).toEqual({ unknown: false, calls: ["g"] });
    expect(callees("if (x) (x ? f : () => 0)(1);").unknown).toBe(true);
  });

  it("a write to a fresh local is the region's own", () => {
    const fx = effects("if (x) { const o = {}; o.k = 1; }", 0);
    expect(fx.heap.map((h) => h.path.fresh)).toEqual([true]);
  });

  it("every syntax that assigns an outer variable counts: var heads, var initialisers, patterns", () => {
    const fx = effects("var k, j, m; let a; if (x) { for (var k in o) {} var j = 1; [a, { m }] = [1, {}]; }", 2);
    expect([...new Set(fx.assigned)].sort()).toEqual(["a", "j", "k", "m"]);
  });

  it("a function's parameters and vars are its own", () => {
    const fx = effects("function f(p) { var v = 1; p = 2; v = 3; }", 0);
    expect(fx.assigned).toEqual([]);
  });

  it("may-throw is an allowlist: operators, literals and plain reads do not throw, members, calls, `in`, spreads and TDZ reads do", () => {
    const quiet = ["if (x) { let y = x + 1; y = `${y}` + [1, 2].length; }", "if (x) { const z = { ...x, k: !x, [x]: typeof x }; }"];
    // `[1, 2].length` is a member read: it may throw (its object could be null in general).
    expect(effects(quiet[0], 0).mayThrow).toBe(true);
    expect(effects(quiet[1], 0).mayThrow).toBe(false);
    expect(effects("if (x) { let y = x + 1, w = x ? 1 : 2; }", 0).mayThrow).toBe(false);
    for (const loud of ["if (x) { 'k' in x; }", "if (x) { [...x]; }", "if (x) { f(); }", "if (x) { later; } let later = 1;", "if (x) { delete x.k; }", "if (x) { const { a } = x; }", "if (x) { for (const y of x) {} }"]) {
      expect(effects(loud, 0).mayThrow, loud).toBe(true);
    }
  });

  it("a throw inside a nested function is not the region's own (its call is)", () => {
    expect(effects("if (x) { const f = () => { throw 1; }; }", 0).mayThrow).toBe(false);
  });
});

describe("where a program can keep a function", () => {
  const names = (src: string) => [...userMethodNames(parseProgram(src))].sort();
  it("object literal keys and assignment targets", () => {
    expect(names("const o = { go: () => 1, n: 1 }; o.run = f; o.m = 1;")).toEqual(["go", "run"]);
  });
  it("destructuring-assignment targets and for-of heads, whatever they are given", () => {
    expect(names("[o.a] = xs; ({ k: o.b } = y); for (o.c of xs) {}")).toEqual(["a", "b", "c"]);
  });
  it("any name, when a builtin that keys values by data is reachable", () => {
    for (const src of ["Object.fromEntries(xs)", "const fe = Object.fromEntries;", "const { fromEntries } = Object;", "const O = Object;", "JSON.parse(t, r)", "const p = JSON.parse;", "o[k] = f"]) {
      expect(names(src), src).toContain("*");
    }
    for (const src of ["Object.keys(o)", "JSON.parse(t)", "JSON.stringify(o, r)", "x instanceof Object"]) expect(names(src), src).not.toContain("*");
  });
});
