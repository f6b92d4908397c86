/**
 * A tool that declares its failures trusted (a local tool: an in-memory calendar, a file the
 * user owns) keeps that label, so a `try` around it does not make later calls ask; only an
 * undeclared failure label, or one with shared state in front of it, is forced untrusted
 * (attack round 4, precision P1).
 */
import { describe, expect, it } from "vitest";
import { Label, createRuntime, defineTool } from "../../src/index.js";

function tools(spec: Record<string, unknown>) {
  const sent: unknown[] = [];
  const read = defineTool({ name: "read_settings", description: "Reads settings.", parameters: { type: "object" }, label: () => Label.trusted(), run: () => ({ b: "x" }), ...spec });
  const send = defineTool({
    name: "send", description: "Sends.", sideEffect: true, parameters: { type: "object" },
    policy: (call) => (call.label().trusted && call.context.trusted ? { kind: "allow" } : { kind: "ask", reason: "untrusted" }),
    run: (a) => (sent.push(a), { ok: true }),
  });
  return { list: [read, send], sent };
}

const PROGRAMS = [
  `try {\n  const t = read_settings();\n  send({ value: t.b });\n} catch (e) {\n  send({ value: "failed" });\n}`,
  `let t;\ntry {\n  t = read_settings();\n} catch (e) {\n  t = { b: "none" };\n}\nsend({ value: t.b });`,
];

describe("a declared failure label", () => {
  it("a trusted failureLabel on a local tool is kept: the send after a try is allowed, in both shapes", async () => {
    for (const program of PROGRAMS) {
      const t = tools({ failureLabel: Label.trusted() });
      const r = await createRuntime({ tools: t.list, approve: () => false }).run(program);
      expect(r.calls.map((c) => [c.tool, c.decision])).toEqual([["read_settings", "allow"], ["send", "allow"]]);
      expect(t.sent).toEqual([{ value: "x" }]);
    }
  });

  it("without a declaration, or with a resource, breaker or rate limit others can fill, the failure is forced untrusted and the send asks", async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{}, {}],
      [{ failureLabel: Label.trusted(), resource: "mcp:calendar" }, {}],
      [{ failureLabel: Label.trusted(), rateLimit: { perSecond: 100, burst: 100 } }, {}],
      [{ failureLabel: Label.trusted() }, { breaker: { failures: 3, cooldownMs: 1000 } }],
      [{ failureLabel: Label.trusted() }, { rateLimits: { read_settings: { perSecond: 100, burst: 100 } } }],
    ];
    for (const [spec, options] of cases) {
      const t = tools(spec);
      const r = await createRuntime({ tools: t.list, approve: () => false, ...options }).run(PROGRAMS[1]);
      expect(r.calls.map((c) => c.decision)).toEqual(["allow", "ask"]);
      expect(t.sent).toEqual([]);
    }
  });
});
