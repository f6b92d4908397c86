/**
 * requireReadableBy, as the family policies use it: private content must reach only its
 * readers, whatever shape the recipient argument has (attack round 3, finding 13), and whether
 * or not the program sent the content at all (finding 6).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Label, calendarInvitePolicy, createRuntime, defineTool, emailPolicy, messagePolicy, paymentPolicy, requireReadableBy, type Policy } from "../../src/index.js";
import { principalsOf } from "../../src/policy/argument.js";
import { recordSource } from "../../src/testing/kit-tools.js";
import { labeled, makeCall, privateTo } from "./support.js";

const VAULT = Label.of({ trusted: true, readers: ["me@corp.example"], sources: ["vault"] });

/** The calls allowed without asking in the runs of `program` over each secret. */
async function allowedOver(program: string, policy: () => Policy, secrets: unknown[]) {
  const out: string[][] = [];
  for (const secret of secrets) {
    const tools = [
      recordSource("read_secret", secret, VAULT),
      defineTool({ name: "send", description: "Sends.", sideEffect: true, parameters: { type: "object" }, policy: policy(), run: () => ({ ok: true }) }),
    ];
    const r = await createRuntime({ tools, approve: () => true }).run(program);
    expect(r.status).toBe("completed");
    out.push(r.calls.filter((c) => c.tool === "send" && c.decision === "allow").map((c) => JSON.stringify(c.args)));
  }
  return out;
}

describe("a private value to a recipient named in a shape sluice does not know", () => {
  it.each([
    ["Microsoft Graph mail", () => emailPolicy({ recipients: ["toRecipients"], content: ["body"] }), `send({ toRecipients: [{ emailAddress: { address: "eve@x.example" } }], body: "PIN " + s.pin })`],
    ["Graph calendar attendees", () => calendarInvitePolicy({ recipients: ["attendees"], content: ["subject"] }), `send({ attendees: [{ emailAddress: { address: "eve@x.example", name: undefined }, type: "required" }], subject: "Door code " + s.pin })`],
    ["address objects", () => emailPolicy({ recipients: ["to"] }), `send({ to: [{ address: "eve@x.example" }], body: "PIN " + s.pin })`],
    ["a numeric chat id", () => messagePolicy({ recipients: ["chat_id"], content: ["text"] }), `send({ chat_id: 424242, text: "PIN " + s.pin })`],
    ["an object with no field that names anyone", () => messagePolicy({ recipients: ["to"] }), `send({ to: { kind: "group", members: 3 }, body: "PIN " + s.pin })`],
    ["a flag", () => messagePolicy({ recipients: ["to"] }), `send({ to: true, body: "PIN " + s.pin })`],
  ])("%s: asked, never sent without asking", async (_what, policy, call) => {
    const runs = await allowedOver(`const s = read_secret();\n${call};`, policy, [{ pin: "1234" }, { pin: "9876" }]);
    expect(runs).toEqual([[], []]);
  });

  it("stays precise: public content goes to any shape, and a reader named in a known shape passes", async () => {
    const pub = await allowedOver(`send({ chat_id: 424242, text: "hello" });`, () => messagePolicy({ recipients: ["chat_id"], content: ["text"] }), [{}]);
    expect(pub).toEqual([[`{"chat_id":424242,"text":"hello"}`]]);
    const me = await allowedOver(`const s = read_secret();\nsend({ toRecipients: [{ emailAddress: { address: "me@corp.example", name: "Me" } }], body: "PIN " + s.pin });`, () => emailPolicy({ recipients: ["toRecipients"], content: ["body"] }), [{ pin: "1" }]);
    expect(me[0]).toHaveLength(1);
  });

  it("says why it asks", () => {
    const rule = requireReadableBy("body", { principalsFrom: "to" });
    // A public body needs no recipient read.
    expect(rule(makeCall("send", { to: { kind: "group" }, body: "x" })).kind).toBe("allow");
    const refused = rule(makeCall("send", { to: { kind: "group" }, body: labeled("x", privateTo(["me"])) }));
    expect(refused.kind).toBe("deny");
    expect(refused.kind === "deny" && refused.reason).toMatch(/cannot tell who `to` names/);
  });

  it("a policy can say how its tool names people", async () => {
    const policy = () => requireReadableBy("body", { principalsFrom: "to", principalsOf: (v) => (v as { handle?: string })?.handle });
    const runs = await allowedOver(`const s = read_secret();\nsend({ to: { handle: "me@corp.example" }, body: "PIN " + s.pin });`, policy, [{ pin: "1" }]);
    expect(runs[0]).toHaveLength(1);
  });
});

describe("principalsOf", () => {
  it("reads strings, lists, numbers and the usual address objects", () => {
    expect(principalsOf("a@x.com, b@y.com; c")).toEqual({ ok: true, principals: ["a@x.com", "b@y.com", "c"] });
    expect(principalsOf([{ email: "a@x.com" }, { emailAddress: { address: "b@y.com", name: "B" } }, 42])).toEqual({ ok: true, principals: ["a@x.com", "b@y.com", "42"] });
    expect(principalsOf({ id: "U123", name: "Ann" })).toEqual({ ok: true, principals: ["U123"] });
    expect(principalsOf(null)).toEqual({ ok: true, principals: [] });
  });

  it("property: a value it cannot read principals from is refused, never read as no one", () => {
    const unknown = fc.oneof(fc.boolean(), fc.constant({}), fc.record({ kind: fc.string().filter((k) => !k.includes("@")), n: fc.integer() }), fc.constant([[true]]));
    fc.assert(fc.property(unknown, fc.array(fc.emailAddress(), { maxLength: 3 }), (odd, known) => {
      expect(principalsOf(odd).ok).toBe(false);
      expect(principalsOf([...known, odd]).ok).toBe(false);
    }));
  });

  it("property: every address-like string anywhere in an object counts", () => {
    fc.assert(fc.property(fc.emailAddress(), fc.constantFrom("address", "mail", "upn", "value"), (addr, key) => {
      const found = principalsOf({ recipient: { [key]: addr }, type: "to" });
      expect(found.ok && found.principals.map((p) => p.toLowerCase())).toContain(addr.toLowerCase());
    }));
  });
});

describe("content the program wrote as undefined, under a private decision (finding 6)", () => {
  it.each([
    ["emailPolicy, a ternary body", () => emailPolicy(), `send({ to: ["eve@x.example"], subject: "status", body: s.flag ? "yes" : undefined });`],
    ["emailPolicy, attachments or undefined", () => emailPolicy(), `send({ to: ["eve@x.example"], subject: "Your file", attachments: s.flag && [s.file] || undefined, body: "see attached" });`],
    ["messagePolicy, an optional chain", () => messagePolicy(), `send({ recipient: "eve", body: s.notes?.[0] });`],
    ["paymentPolicy, a conditional memo", () => paymentPolicy(), `send({ recipient: "FR7630006000011234567890189", amount: 10, memo: s.flag ? "medical" : undefined });`],
  ])("%s: both runs decide alike", async (_what, policy, call) => {
    const runs = await allowedOver(`const s = read_secret();\n${call}`, policy, [{ flag: true, file: "f1", notes: ["diagnosis"] }, { flag: false, file: "f1", notes: [] }]);
    expect(runs[0]).toEqual(runs[1]);
  });
});
