/**
 * JSON Schemas at the boundary: the program writes the schema of every query, so a schema is
 * attacker-adjacent input to the host. Patterns run on RE2; no schema changes what another
 * schema, run or runtime sees; whatever the schema, a run ends with a result.
 */
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool, scriptedReader, type QuarantinedModel } from "../../src/index.js";
import { createProgramSchemas, compileHostSchema } from "../../src/tools/schema.js";
import { createSchemaValidator } from "../../src/models/validate.js";

const answering = (answer: unknown): QuarantinedModel => ({ query: async () => answer });
const catching = (schema: string) => `let m = "ok";\ntry { query_ai_assistant("q", ${schema}); } catch (e) { m = e.name + ": " + e.message; }\nm`;

describe("patterns run on RE2", () => {
  it("^(a+)+$ against a long non-matching answer does not block the event loop: a timer set before the run fires after it", async () => {
    // A backtracking engine needs about 2^26 steps here (tens of seconds); RE2 needs 27.
    const answer = "a".repeat(26) + "!";
    const after = defineTool({ name: "after", description: "", label: () => Label.trusted(), run: () => new Promise((r) => setTimeout(() => r(1), 0)) });
    const rt = createRuntime({ tools: [after], quarantined: answering(answer) });
    let watchdog = false;
    const timer = setTimeout(() => (watchdog = true), 3000);
    const run = rt.run(`${catching(`{ type: "string", pattern: "^(a+)+$" }`)};\nafter();\nm`);
    const r = await run;
    clearTimeout(timer);
    // The tool's timer was set after validation; had validation blocked for more than 3 s, the
    // watchdog (due earlier) would have fired first.
    expect(watchdog).toBe(false);
    expect(r.status).toBe("completed");
    expect(r.value).toBe("Error: query_ai_assistant: the answer did not match the schema");
  });

  it("a pattern RE2 cannot run is refused with a clear, catchable error, and the reader is not asked", async () => {
    let asked = 0;
    const rt = createRuntime({ quarantined: { query: async () => (asked++, "a") } });
    const r = await rt.run(catching(`{ type: "string", pattern: "(a)\\\\1" }`));
    expect(r.value).toMatch(/^TypeError: query_ai_assistant\(prompt, schema\): the schema cannot be used: the pattern .* cannot run on RE2/);
    const look = await rt.run(catching(`{ type: "object", patternProperties: { "^(?!x)": { type: "string" } } }`));
    expect(look.value).toMatch(/cannot run on RE2/);
    expect(asked).toBe(0);
  });

  it("patternProperties and propertyNames patterns apply, each pattern its own", async () => {
    const schemas = createProgramSchemas();
    const s = schemas.compile({ type: "object", patternProperties: { "^a": { type: "string" }, "^b": { type: "number" } }, propertyNames: { pattern: "^[ab]" } });
    expect(s.check({ a1: "x", b1: 2 })).toEqual({ ok: true });
    expect(s.check({ a1: 2 }).ok).toBe(false);
    expect(s.check({ b1: "x" }).ok).toBe(false);
    expect(s.check({ c: 1 }).ok).toBe(false);
  });

  it("the reader's own validator runs formats and patterns on RE2 too", () => {
    const v = createSchemaValidator();
    expect(v.validate({ type: "string", pattern: "^(a+)+$" }, "a".repeat(40) + "!").ok).toBe(false);
    expect(v.validate({ type: "string", format: "email" }, "x@y.co")).toEqual({ ok: true });
    expect(v.validate({ type: "string", format: "duration" }, "P1DT2H")).toEqual({ ok: true });
    expect(v.validate({ type: "string", format: "duration" }, "P1DT").ok).toBe(false);
    expect(v.validate({ type: "string", format: "hostname" }, "a".repeat(254)).ok).toBe(false);
    expect(() => v.check({ type: "string", pattern: "(?<=a)b" })).toThrow(/cannot run on RE2/);
  });
});

describe("no schema changes what another one sees", () => {
  const tool = (id: string) =>
    defineTool({ name: "t", description: "", parameters: { $id: id, type: "object", properties: { n: { type: "number" } }, required: ["n"] }, label: () => Label.trusted(), run: (a: { n: number }) => a.n });

  it("a program's $id does not make another runtime's tool validation throw out of run()", async () => {
    const a = createRuntime({ quarantined: answering("x") });
    const first = await a.run(`query_ai_assistant("q", { $id: "https://ids.test/shared", type: "string" })`);
    expect(first.value).toBe("x");
    const b = createRuntime({ tools: [tool("https://ids.test/shared")] });
    const second = await b.run(`t({ n: 2 })`);
    expect(second.status).toBe("completed");
    expect(second.value).toBe(2);
    const bad = await b.run(catching(`{}`).replace(`query_ai_assistant("q", {})`, `t({ n: "x" })`));
    expect(bad.value).toMatch(/^TypeError: t: invalid arguments: args\/n must be number/);
  });

  it("two programs of one runtime, and two readers' schemas, may use the same $id for different schemas", async () => {
    const rt = createRuntime({ quarantined: answering(5) });
    expect((await rt.run(`query_ai_assistant("q", { $id: "https://ids.test/x", type: "number" })`)).value).toBe(5);
    const other = await rt.run(catching(`{ $id: "https://ids.test/x", type: "string" }`));
    expect(other.value).toBe("Error: query_ai_assistant: the answer did not match the schema");
    const reader = scriptedReader(() => 5);
    const shared = createRuntime({ quarantined: reader });
    expect((await shared.run(`query_ai_assistant("q", { $id: "https://ids.test/y", type: "number" })`)).value).toBe(5);
    expect((await createRuntime({ quarantined: reader }).run(`query_ai_assistant("q", { $id: "https://ids.test/y", type: "integer" })`)).value).toBe(5);
  });

  it("two tools with the same $id in one runtime both validate", async () => {
    const other = defineTool({ name: "u", description: "", parameters: { $id: "https://ids.test/same", type: "object", properties: { s: { type: "string" } } }, run: () => 1 });
    const rt = createRuntime({ tools: [tool("https://ids.test/same"), other] });
    expect((await rt.run(`t({ n: 1 }); u({ s: "x" })`)).status).toBe("completed");
  });
});

describe("whatever the schema, the run ends with a result", () => {
  const rt = createRuntime({ quarantined: answering({ a: { a: { a: {} } } }) });

  it.each([
    ["a $ref to an unknown id", `{ $ref: "https://ids.test/nowhere" }`, /the schema cannot be used: invalid JSON Schema: can't resolve reference/],
    ["a $ref to a remote URL", `{ $ref: "https://example.com/schema.json" }`, /the schema cannot be used/],
    ["an invalid schema", `{ type: 5 }`, /the schema cannot be used: invalid JSON Schema/],
    ["an unknown meta-schema", `{ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" }`, /\$schema names/],
    ["an async schema", `{ $async: true, type: "string" }`, /async schemas/],
    ["a schema too large", `{ type: "object", properties: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => ["p" + i, { type: "string" }])) }`, /more than the 100000 a program's schema may have/],
    ["an array", `[{ type: "string" }]`, /schema must be a JSON Schema object/],
  ])("%s is a catchable error", async (_what, schema, message) => {
    const r = await rt.run(catching(schema));
    expect(r.status).toBe("completed");
    expect(r.value).toMatch(message);
  });

  it("a schema that refers to itself without end does not overflow the host's stack", async () => {
    const r = await rt.run(catching(`{ $ref: "#" }`));
    expect(r.status).toBe("completed");
    expect(r.value).toBe("Error: query_ai_assistant: the answer did not match the schema");
    const rec = await rt.run(`query_ai_assistant("q", { type: "object", properties: { a: { $ref: "#" } } }).a.a`);
    expect(rec.value).toEqual({ a: {} });
  });

  it("an answer that fails validation does not quote the answer to the program", async () => {
    const r = await createRuntime({ quarantined: answering("attacker text") }).run(catching(`{ type: "number" }`));
    expect(r.value).not.toContain("attacker text");
  });
});

describe("host schemas", () => {
  it("equal schemas compile once, however their keys are ordered", () => {
    expect(compileHostSchema({ type: "object", properties: { a: {} } })).toBe(compileHostSchema({ properties: { a: {} }, type: "object" }));
  });

  it("required sees own properties only", () => {
    const s = compileHostSchema({ type: "object", required: ["to"] });
    expect(s.check(Object.create({ to: "x" })).ok).toBe(false);
  });
});
