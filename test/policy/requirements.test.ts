import { describe, expect, it } from "vitest";
import {
  all,
  askInstead,
  defaultToolPolicy,
  emailPolicy,
  paymentPolicy,
  requireReadableBy,
  requirementsOf,
  requireTrusted,
  requireTrustedContext,
  sameRequirements,
  webRequestPolicy,
} from "../../src/policy/index.js";
import { fromEmail, labeled, makeCall, privateUntrusted } from "./support.js";

const eve = fromEmail("eve@evil.com");

describe("what a policy requires, as data", () => {
  it("a rule names its argument, its effect and why", () => {
    expect(requirementsOf(requireTrusted("to", { why: "w" }))).toEqual({ known: [{ kind: "trusted", path: "to", effect: "deny", why: "w" }], complete: true });
    expect(requirementsOf(requireReadableBy("body", { principalsFrom: "to", principals: ["boss"] })).known).toEqual([
      { kind: "readableBy", path: "body", principalsFrom: ["to"], principals: ["boss"], effect: "deny", why: undefined },
    ]);
  });

  it("all() unites its rules and askInstead() turns their denials into asks", () => {
    const r = requirementsOf(all(requireTrusted("to"), askInstead(requireTrustedContext())));
    expect(r.complete).toBe(true);
    expect(r.known.map((q) => [q.kind, q.effect])).toEqual([["trusted", "deny"], ["trustedContext", "ask"]]);
  });

  it("a plain function declares nothing, and a combination holding one is incomplete", () => {
    const custom = () => ({ kind: "allow" as const });
    expect(requirementsOf(custom)).toEqual({ known: [], complete: false });
    const r = requirementsOf(all(requireTrusted("to"), custom));
    expect(r.complete).toBe(false);
    expect(r.known).toHaveLength(1);
    expect(requirementsOf(sameRequirements(() => ({ kind: "allow" as const }), requireTrusted("x"))).known[0]).toMatchObject({ kind: "trusted", path: "x" });
  });

  it("the ready policies and the default policy say what they require", () => {
    const email = requirementsOf(emailPolicy()).known;
    expect(email.filter((q) => q.kind === "trusted").map((q) => "path" in q && q.path)).toEqual(["to", "cc", "bcc"]);
    expect(email.find((q) => q.kind === "trustedContext")?.effect).toBe("ask");
    expect(email.filter((q) => q.kind === "readableBy").every((q) => q.effect === "ask")).toBe(true);
    expect(requirementsOf(webRequestPolicy()).known.some((q) => q.kind === "privateToUntrustedUrl")).toBe(true);
    expect(requirementsOf(defaultToolPolicy({ sideEffect: true })).known).toEqual([expect.objectContaining({ kind: "everyArgumentTrusted", effect: "deny" })]);
    expect(requirementsOf(defaultToolPolicy({ sideEffect: false }))).toEqual({ known: [], complete: true });
  });
});

describe("asks instead of denials where a person can decide", () => {
  it("asks about a payee read from a document, saying what to check", () => {
    const call = makeCall("send_money", { recipient: labeled("XK05", eve), amount: 10, subject: "bill" });
    expect(paymentPolicy()(call).kind).toBe("deny");
    const d = paymentPolicy({ askUntrustedRecipient: true })(call);
    expect(d.kind).toBe("ask");
    expect(d.reason).toContain("untrusted text chose who gets paid; approve only if you recognise it as the one you meant");
    expect(requirementsOf(paymentPolicy({ askUntrustedRecipient: true })).known.find((q) => q.kind === "trusted" && q.path === "recipient")?.effect).toBe("ask");
  });

  it("asks about private content untrusted text shaped, asking the person to read it first", () => {
    const body = labeled("summary", privateUntrusted(["alice@corp.com", "bob@corp.com"], "get_email#3:email:eve@evil.com"));
    const call = makeCall("send_email", { to: "bob@corp.com", body });
    expect(emailPolicy()(call).kind).toBe("deny");
    const d = emailPolicy({ askUntrustedPrivateContent: true })(call);
    expect(d.kind).toBe("ask");
    expect(d.reason).toContain("read it first, and approve only if every recipient may see all of it");
  });
});
