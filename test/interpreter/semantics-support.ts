/**
 * Differential testing against V8: a program's completion value under sluice must equal what
 * `node:vm` gives for the same source, after the same plain-data conversion the runtime uses.
 */
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { nativePlain } from "../../src/testing/differential.js";

/**
 * Mirrors src/interpreter/convert.ts `toPlain` for host values (the vm realm's arrays, errors
 * and dates fail `instanceof` here, so the kit tells them apart by their internal tag).
 */
export const plain = nativePlain;

/**
 * What a fresh V8 context lacks that sluice has: Node 20's V8 has no `Object.groupBy` (this one
 * follows the spec's steps), and `structuredClone` is Node's, not the context's.
 */
const CONTEXT_PRELUDE = `if (Object.groupBy === undefined) Object.groupBy = (items, f) => {
  const out = Object.create(null);
  let i = 0;
  for (const x of items) { const k = String(f(x, i++)); (out[k] ??= []).push(x); }
  return out;
};`;

/** The program's completion value under V8, converted to plain data. */
export function native(source: string): unknown {
  const context = vm.createContext({ structuredClone });
  vm.runInContext(CONTEXT_PRELUDE, context);
  return plain(vm.runInContext(source, context, { timeout: 1000 }));
}

const runtime = createRuntime();

/** Runs `source` under sluice and V8 and expects the same plain completion value. */
export async function expectSame(source: string): Promise<void> {
  const want = native(source);
  const got = await runtime.run(source);
  expect(got.error, source).toBeUndefined();
  expect(got.status).toBe("completed");
  expect(got.value).toEqual(want);
}

/** Runs `source` under both: V8 must throw, and sluice must fail the run with a runtime error. */
export async function expectBothThrow(source: string): Promise<void> {
  expect(() => native(source)).toThrow();
  const got = await runtime.run(source);
  expect(got.status, source).toBe("failed");
  expect(got.error?.kind).toBe("runtime");
}

/** A case V8 and sluice disagree on, kept as a failing test until the named bug is fixed. */
export interface KnownBug {
  source: string;
  bug: string;
}

/** Title of a case: the program on one line, short enough to read in a report. */
const title = (src: string): string => {
  const one = src.replace(/\s+/g, " ").trim();
  return one.length > 110 ? `${one.slice(0, 107)}...` : one;
};

/** Declares one test per program of `sources`, each checked with {@link expectSame}. */
export function sameAsV8(sources: readonly string[]): void {
  it.each(sources.map((s) => [title(s), s]))("%s", async (_t, src) => expectSame(src));
}

/** Declares a failing test per known bug, so the suite stays green and flags when one is fixed. */
export function knownBugs(area: string, bugs: readonly KnownBug[]): void {
  if (bugs.length === 0) return;
  describe(`known bugs (${area})`, () => {
    it.fails.each(bugs.map((b) => [b.bug, title(b.source), b.source]))("BUG %s: %s", async (_b, _t, src) => expectSame(src));
  });
}
