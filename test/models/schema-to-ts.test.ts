import { describe, expect, test } from "vitest";
import ts from "typescript";
import { typeText } from "../../src/models/schema-to-ts.js";

/** Parses `type T = <text>;` and returns TypeScript's syntax errors. */
function syntaxErrors(text: string): string[] {
  const file = ts.createSourceFile("t.ts", `type T = ${text};`, ts.ScriptTarget.ES2022, true);
  return ((file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics ?? []).map((d) => String(d.messageText));
}

describe("JSON Schema to TypeScript", () => {
  test("primitives, nullable and type lists", () => {
    expect(typeText({ type: "string" })).toBe("string");
    expect(typeText({ type: "integer" })).toBe("number");
    expect(typeText({ type: "boolean" })).toBe("boolean");
    expect(typeText({ type: ["string", "null"] })).toBe("string | null");
    expect(typeText({ type: "number", nullable: true })).toBe("number | null");
    expect(typeText({})).toBe("unknown");
    expect(typeText(true)).toBe("unknown");
    expect(typeText(false)).toBe("never");
  });

  test("enum, const, anyOf, allOf", () => {
    expect(typeText({ enum: ["low", "high", 3, null] })).toBe('"low" | "high" | 3 | null');
    expect(typeText({ const: "x" })).toBe('"x"');
    expect(typeText({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("string | number");
    expect(typeText({ oneOf: [{ type: "string" }, {}] })).toBe("unknown");
    expect(typeText({ allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { type: "object", properties: { b: { type: "number" } } }] })).toBe(
      "{\n  a: string;\n} & {\n  b?: number;\n}",
    );
  });

  test("objects: required and optional members, docs, quoted keys, index signatures", () => {
    const text = typeText({
      type: "object",
      properties: {
        to: { type: "string", format: "email", description: "Who gets it." },
        "reply-to": { type: "string" },
        count: { type: "integer", minimum: 1 },
      },
      required: ["to"],
    });
    expect(text).toBe(
      [
        "{",
        "  /**",
        "   * Who gets it.",
        '   * (format: "email")',
        "   */",
        "  to: string;",
        '  "reply-to"?: string;',
        "  /** (minimum: 1, integer) */",
        "  count?: number;",
        "}",
      ].join("\n"),
    );
    expect(typeText({ type: "object", properties: { a: { type: "string" } }, additionalProperties: false })).toBe("{\n  a?: string;\n}");
    expect(typeText({ type: "object", additionalProperties: { type: "number" } })).toBe("{\n  [key: string]: number;\n}");
    expect(typeText({ type: "object", properties: {}, additionalProperties: false })).toBe("{}");
  });

  test("arrays and tuples", () => {
    expect(typeText({ type: "array", items: { type: "string" } })).toBe("string[]");
    expect(typeText({ type: "array", items: { type: ["string", "null"] } })).toBe("Array<string | null>");
    expect(typeText({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }] })).toBe("[string, number]");
    expect(typeText({ type: "array" })).toBe("unknown[]");
    expect(typeText({ type: "array", items: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false } })).toBe(
      "Array<{\n  id: string;\n}>",
    );
  });

  test("local $ref is followed, recursion ends in unknown", () => {
    const schema = {
      type: "object",
      properties: { owner: { $ref: "#/$defs/Person" } },
      additionalProperties: false,
      $defs: { Person: { type: "object", properties: { name: { type: "string" }, boss: { $ref: "#/$defs/Person" } }, additionalProperties: false } },
    };
    expect(typeText(schema)).toBe("{\n  owner?: {\n    name?: string;\n    boss?: unknown;\n  };\n}");
    expect(typeText({ $ref: "https://example.com/remote.json" })).toBe("unknown");
  });

  test("the syntax check used below does catch broken type text", () => {
    expect(syntaxErrors("{ a: ; }")).not.toEqual([]);
    expect(syntaxErrors("{ /** x */ a: string; }")).toEqual([]);
  });

  test("comment terminators in descriptions cannot break out of the doc comment", () => {
    const text = typeText({ type: "object", properties: { a: { type: "string", description: "evil */ declare const x: 1; /*" } }, additionalProperties: false });
    expect(text).not.toContain("evil */");
    expect(syntaxErrors(text)).toEqual([]);
  });

  test("the output is valid TypeScript for a varied schema, and deterministic", () => {
    const schema = {
      type: "object",
      properties: {
        a: { anyOf: [{ type: "array", items: { enum: ["x", "y"] } }, { type: "null" }] },
        b: { type: "object", properties: { "c d": { type: ["number", "string"] } } },
        e: { allOf: [{ type: "object", properties: { f: { const: 1 } } }] },
      },
      required: ["a"],
    };
    const text = typeText(schema);
    expect(syntaxErrors(text)).toEqual([]);
    expect(typeText(structuredClone(schema))).toBe(text);
  });
});
