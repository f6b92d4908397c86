/**
 * Explanations quote a bounded amount whatever the arguments: a few thousand characters, the
 * rest counted ("and N more"), without dropping what a person needs to decide (which argument,
 * which sources, how many parts).
 */
import { describe, expect, it } from "vitest";
import { allow, ask, deny } from "../../src/tools/types.js";
import { approvalRequest, combineDecisions, createPermissions, decideCall, formatApproval, listText, originText } from "../../src/policy/index.js";
import { preview } from "../../src/policy/paths.js";
import { toolCallView } from "../../src/runtime/index.js";
import { Label, fromEmail, labeled, makeCall } from "./support.js";

const eve = fromEmail("eve@evil.com");
const many = (n: number, make: (i: number) => unknown) => Array.from({ length: n }, (_, i) => make(i));

describe("explanations of big calls stay small", () => {
  it("a denial of a 200,000-element argument with mixed labels names the argument, pinpoints a few parts and counts the rest", () => {
    const call = makeCall("send", { to: "bob@corp.com", value: many(200_000, (i) => (i % 2 ? labeled(`x${i}`, eve) : `y${i}`)) });
    const d = decideCall(call, { sideEffect: true });
    expect(d.kind).toBe("deny");
    expect(d.reason!.length).toBeLessThan(5000);
    expect(d.reason).toContain("`value`");
    expect(d.reason).toContain("eve@evil.com");
    expect(d.reason).toMatch(/and 99,?99[0-9] more parts of `value` are untrusted/);
  });

  it("a call with 50,000 untrusted top-level arguments lists a few and counts the rest, in the reason and the approval request", () => {
    // Built as the runtime builds it: makeCall's reference label() scans every part.
    const args: Record<string, unknown> = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    const call = toolCallView("send", args, Object.keys(args).map((path) => ({ path, label: eve })), Label.trusted());
    const d = decideCall(call, { sideEffect: true });
    expect(d.reason!.length).toBeLessThan(5000);
    expect(d.reason).toContain("49992 more arguments are untrusted");
    const req = approvalRequest(call, ask("check"));
    expect(req.provenance.length).toBeLessThanOrEqual(13);
    const summary = req.provenance.find((p) => p.omitted !== undefined)!;
    expect(summary.omitted).toBe(49_988);
    expect(summary.label.trusted).toBe(false);
    expect(summary.explanation).toMatch(/and 49988 more arguments, 49988 of them untrusted or private/);
    expect(req.args).toBe(call.args);
    expect(formatApproval(req).length).toBeLessThan(8000);
  });

  it("a policy's own very long reason is quoted in part, with the count of what was cut", () => {
    const call = makeCall("send", { to: "x" });
    const d = decideCall(call, { policy: () => deny("r".repeat(100_000)) });
    expect(d.reason!.length).toBeLessThan(2500);
    expect(d.reason).toContain("(98000 more characters)");
  });

  it("long keys, values, sources and readers are cut where they are quoted", () => {
    const key = "k".repeat(10_000);
    const src = Label.of({ trusted: false, readers: ["r".repeat(10_000)], sources: ["email:" + "e".repeat(10_000)] });
    const call = makeCall("send", { [key]: labeled("v".repeat(10_000), src) });
    const d = decideCall(call, { sideEffect: true });
    expect(d.reason!.length).toBeLessThan(1500);
    expect(originText(Label.of({ sources: many(800, (i) => `email:s${i}`) as string[] }))).toMatch(/^it came from (an email from s\d+, ){3}an email from s\d+ and 796 more$/);
  });

  it("combining 100,000 distinct reasons keeps a few and counts the rest, in linear time", () => {
    const d = combineDecisions(...many(100_000, (i) => deny(`reason ${i}`)) as ReturnType<typeof deny>[], allow());
    expect(d.reason).toBe("reason 0; reason 1; reason 2; reason 3; reason 4; reason 5; reason 6; reason 7; and 99992 more reasons like these");
  });

  it("the permission engine decides 100,000 targets with a short reason", () => {
    const perms = createPermissions(["allow send(*@corp.com)"], { targets: { send: (a) => a.to } });
    const d = perms.decide({ tool: "send", args: { to: many(100_000, (i) => `${"x".repeat(500)}${i}@evil.com`) } });
    expect(d.kind).toBe("deny");
    expect(d.reason!.length).toBeLessThan(3000);
  });

  it("previewing a huge value looks only at its beginning", () => {
    const text = preview(many(1_000_000, (i) => i));
    expect(text).toBe("[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22…");
    expect(listText(["a", "b"])).toBe("a and b");
  });
});
