/**
 * A tool's result crosses to the worker as plain data beside the list of its `labeled(...)`
 * parts (readHostParts, then a structured clone), and the worker builds the program's value
 * from the two (fromHostParts). The program must see exactly what reading the labelled result
 * in-process gives (toInternal): the same values and the same label on every part.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Label, labeled } from "../../src/labels/index.js";
import { fromHostParts, readHostData, readHostParts, toInternal } from "../../src/interpreter/convert.js";
import { DEFAULT_LIMITS, resetState } from "../../src/interpreter/state.js";
import { ARR, DATE, OBJ, type Val, elemLabel, isRef } from "../../src/interpreter/values.js";
import type { Label as L } from "../../src/labels/index.js";

/** Every part of an interpreter value with its label, as text a test can compare. */
function show(v: Val, l: L): unknown {
  const label = l.toString();
  if (!isRef(v)) return { v: v === undefined ? "undefined" : v, label };
  switch (v.k) {
    case ARR:
      return { arr: v.items.map((x, i) => show(x, elemLabel(v, i))), own: v.label.toString(), label };
    case OBJ:
      return { obj: [...v.props].map(([k, s]) => [k, show(s.v, s.l)]), own: v.label.toString(), shape: v.shape.toString(), label };
    case DATE:
      return { date: v.t, own: v.label.toString(), label };
    default:
      return { other: v.k, label };
  }
}

const labels = fc.constantFrom(
  Label.trusted(),
  Label.untrusted("email:eve@x.com"),
  Label.untrusted("email:bob@y.org"),
  Label.of({ readers: ["alice"], trusted: true, sources: ["drive"] }),
  Label.of({ readers: ["alice", "bob"], sources: ["mail"] }),
);

/** Host data with `labeled(...)` parts anywhere, nested ones included. */
const hostData = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("labeled"), tie("array"), tie("object")),
  leaf: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.date({ noInvalidDate: true })),
  labeled: fc.tuple(tie("value"), labels).map(([v, l]) => labeled(v, l)),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom("a", "b", "0", "10", "from", "__proto__"), tie("value"), { maxKeys: 4 }),
})).value;

describe("a tool result read once with its parts listed", () => {
  it("gives the program the values and labels the labelled result gives in-process", () => {
    fc.assert(
      fc.property(hostData, labels, (data, outer) => {
        resetState(DEFAULT_LIMITS, {});
        const want = toInternal(readHostData(data, { labels: "keep" }), outer);
        const read = readHostParts(data);
        // What the worker receives: a structured clone of the plain value and the parts.
        const got = fromHostParts(structuredClone(read.value), outer, read.parts.map((p) => ({ at: structuredClone(p.at), label: p.label })));
        expect(show(got.v, got.l)).toEqual(show(want.v, want.l));
      }),
      { numRuns: 300 },
    );
  });

  it("lists nothing and keeps no wrapper for a result without labelled parts", () => {
    const read = readHostParts({ a: [1, { b: "x" }], d: new Date(0) });
    expect(read.parts).toEqual([]);
    expect(read.value).toEqual({ a: [1, { b: "x" }], d: new Date(0) });
  });

  it("names the path of a getter in its error, as reading it whole does", () => {
    const bad = { list: [{ ok: 1 }, Object.defineProperty({}, "secret", { get: () => "x", enumerable: true })] };
    expect(() => readHostParts(bad)).toThrow(/`list\.1\.secret`/);
    expect(() => readHostData(bad, { labels: "keep" })).toThrow(/`list\.1\.secret`/);
  });

  it("freezes every container and date it makes, and leaves the tool's own value alone", () => {
    const result = { a: [{ b: 1 }, labeled({ c: [2] }, Label.untrusted("x"))], d: new Date(0) };
    const read = readHostParts(result);
    const v = read.value as { a: [{ b: number }, { c: number[] }]; d: Date };
    for (const x of [v, v.a, v.a[0], v.a[1], v.a[1].c, v.d]) expect(Object.isFrozen(x)).toBe(true);
    expect(Object.isFrozen(result) || Object.isFrozen(result.a)).toBe(false);
  });

  it("asks a Proxy for each key's descriptor once, so one that answers differently the second time reads as before", () => {
    let calls = 0;
    const proxy = new Proxy({ a: 1, b: 2 }, { getOwnPropertyDescriptor: (t, k) => (calls++, Reflect.getOwnPropertyDescriptor(t, k)) });
    expect(readHostParts({ x: proxy }).value).toEqual({ x: { a: 1, b: 2 } });
    expect(calls).toBe(2);
  });

  it("makes own data properties even where Object.prototype has a setter of that name", () => {
    const set: unknown[] = [];
    Object.defineProperty(Object.prototype, "polluted", { set: (v) => set.push(v), configurable: true });
    try {
      const read = readHostParts({ polluted: "data", ["__proto__"]: 1, ok: true });
      expect(set).toEqual([]);
      // Frozen as read: one copy is shared by the record, the label function and the program.
      expect(Object.getOwnPropertyDescriptor(read.value, "polluted")).toMatchObject({ value: "data", enumerable: true, writable: false });
      expect(Object.getPrototypeOf(read.value)).toBe(Object.prototype);
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
  });

  it("refuses what reading it part by part refuses, with the same words and place", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { back: cycle };
    const getter = (o: object, k: string) => Object.defineProperty(o, k, { get: () => 1, enumerable: true });
    const hostile: unknown[] = [
      { list: [1, getter([], "0")] },
      { x: getter({}, "g"), y: { deep: getter({}, "h") } },
      cycle,
      { d: { [Symbol.toStringTag]: "Date" } },
      { nul: Object.assign(Object.create(null), { f: () => 1 }) },
      [[new Map()]],
      { big: 10n ** 30n },
      { sym: [Symbol("s")] },
      { cls: new (class Point {})() },
    ];
    for (const data of hostile) {
      resetState(DEFAULT_LIMITS, {});
      let generic = "";
      try {
        toInternal(data, Label.trusted());
      } catch (err) {
        generic = String((err as { value: { props: Map<string, { v: unknown }> } }).value.props.get("message")?.v);
      }
      expect(generic).toMatch(/^a host value could not be read: /);
      expect(() => readHostParts(data)).toThrow(generic.replace("a host value could not be read: ", ""));
    }
  });

  it("counts a plain result against the memory limit as it reads it", () => {
    const emails = Array.from({ length: 200 }, (_, i) => ({ id: String(i), body: "x".repeat(100) }));
    expect(() => readHostParts(emails, { maxBytes: 10_000 })).toThrow(/larger than the run's memory limit at `\d+/);
    expect(readHostParts(emails, { maxBytes: 1_000_000 }).value).toEqual(emails);
  });
});
