import { describe, expect, test } from "vitest";
import ts from "typescript";
import { defineTool } from "../../src/tools/types.js";
import { plannerSystemPrompt, toolDeclaration } from "../../src/models/planner-prompt.js";

const sendEmail = defineTool({
  name: "send_email",
  description: "Sends an email.",
  sideEffect: true,
  parameters: {
    type: "object",
    properties: {
      to: { type: "array", items: { type: "string", format: "email" }, description: "Recipients." },
      subject: { type: "string" },
      body: { type: "string" },
    },
    required: ["to", "subject", "body"],
  },
  run: () => ({ ok: true }),
});

const getInbox = defineTool({
  name: "get_inbox",
  description: "Lists received emails, newest first.",
  returns: {
    type: "array",
    items: { type: "object", properties: { sender: { type: "string" }, subject: { type: "string" }, body: { type: "string" } }, required: ["sender", "subject", "body"], additionalProperties: false },
  },
  run: () => [],
});

const today = defineTool({ name: "today", description: "Today's date.", run: () => "2025-01-01" });

function declarationsOf(prompt: string): string {
  const m = /```ts\n([\s\S]*?)\n```/.exec(prompt);
  if (m === null) throw new Error("no declarations block");
  return m[1];
}

describe("planner system prompt", () => {
  test("byte-identical for the same tool set in any order", () => {
    const a = plannerSystemPrompt([sendEmail, getInbox, today]);
    const b = plannerSystemPrompt([today, sendEmail, getInbox]);
    expect(b).toBe(a);
    expect(plannerSystemPrompt([sendEmail, getInbox])).not.toBe(a);
  });

  test("declares every tool, sorted, with its description and side effects", () => {
    const decl = declarationsOf(plannerSystemPrompt([sendEmail, today, getInbox]));
    const order = ["get_inbox", "send_email", "today"].map((n) => decl.indexOf(`declare function ${n}(`));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(decl).toContain("Sends an email.");
    expect(toolDeclaration(sendEmail)).toContain("Has side effects");
    expect(toolDeclaration(getInbox)).not.toContain("Has side effects");
    expect(toolDeclaration(sendEmail)).toContain("declare function send_email(args: {");
    expect(toolDeclaration(sendEmail)).toContain("to: string[];");
    expect(toolDeclaration(today)).toContain("declare function today(args?: {}): unknown;");
    expect(toolDeclaration(getInbox)).toMatch(/\): Array<\{\n  sender: string;/);
    expect(decl).toContain("declare function query_ai_assistant(prompt: string, schema: JsonSchema): unknown;");
  });

  test("the declarations are valid TypeScript", () => {
    const decl = declarationsOf(plannerSystemPrompt([sendEmail, getInbox, today]));
    const file = ts.createSourceFile("decl.d.ts", decl, ts.ScriptTarget.ES2022, true);
    const diags = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
    expect(diags.map((d) => d.messageText)).toEqual([]);
  });

  test("states the language subset and the rules", () => {
    const prompt = plannerSystemPrompt([]);
    for (const phrase of ["const", "destructuring", "template literals", "optional chaining", "arrow functions", "switch", "try", "classes", "`this`", "`Map`", "`Set`", "Date", "one object argument", "query_ai_assistant(prompt, schema)", "Never hard-code data from guesses", "exactly one fenced code block"]) {
      expect(prompt).toContain(phrase);
    }
  });

  test("holds no timestamp or other changing text", () => {
    const prompt = plannerSystemPrompt([sendEmail]);
    expect(prompt).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
    expect(plannerSystemPrompt([sendEmail])).toBe(prompt);
  });
});
