import { describe, expect, it } from "vitest";
import { createEndorsements, emailPolicy, endorseCall, withEndorsements } from "../../src/policy/index.js";
import { fromEmail, labeled, makeCall, privateTo } from "./support.js";

const clock = () => new Date("2025-01-02T03:04:05.000Z");
const eve = fromEmail("eve@evil.com");

describe("endorsement store", () => {
  it("records who vouched for which value, and keeps an audit log", () => {
    const store = createEndorsements({ now: clock });
    const e = store.endorse({ tool: "send_email", path: "to", value: "carol@corp.com", by: "alice", reason: "approved in prompt" });
    expect(e).toMatchObject({ id: 1, tool: "send_email", path: "to", value: "carol@corp.com", by: "alice", at: "2025-01-02T03:04:05.000Z" });
    expect(store.isEndorsed("send_email", "to", "carol@corp.com")).toBe(true);
    expect(store.isEndorsed("send_email", "to", "eve@evil.com")).toBe(false);
    expect(store.isEndorsed("share_file", "to", "carol@corp.com")).toBe(false);
    expect(store.log).toEqual([{ action: "endorse", endorsement: e, at: "2025-01-02T03:04:05.000Z" }]);
  });

  it("compares structured values by content, not key order", () => {
    const store = createEndorsements();
    store.endorse({ tool: "pay", path: "payee", value: { iban: "DE89", name: "Rent" }, by: "alice", reason: "landlord" });
    expect(store.isEndorsed("pay", "payee", { name: "Rent", iban: "DE89" })).toBe(true);
    expect(store.isEndorsed("pay", "payee", { name: "Rent", iban: "GB29" })).toBe(false);
  });

  it("refuses endorsements without who, why, or a JSON value", () => {
    const store = createEndorsements();
    expect(() => store.endorse({ tool: "t", path: "p", value: 1, by: "", reason: "r" })).toThrow("endorse: by must be a non-empty string");
    expect(() => store.endorse({ tool: "t", path: "p", value: 1, by: "a", reason: " " })).toThrow(/reason must be/);
    expect(() => store.endorse({ tool: "t", path: "p", value: () => 1, by: "a", reason: "r" })).toThrow(/value must be plain JSON/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => store.endorse({ tool: "t", path: "p", value: cyclic, by: "a", reason: "r" })).toThrow(/cycle/);
    expect(store.log).toHaveLength(0);
  });
});

describe("withEndorsements", () => {
  const policy = emailPolicy();
  const fromInbox = () => labeled("carol@corp.com", eve);

  it("lets an endorsed value pass where it would have been denied, and logs the use", () => {
    const store = createEndorsements({ now: clock });
    const guarded = withEndorsements(policy, store);
    const call = makeCall("send_email", { to: fromInbox(), body: "see you" });
    expect(guarded(call).kind).toBe("deny");
    store.endorse({ tool: "send_email", path: "to", value: "carol@corp.com", by: "alice", reason: "carol is my colleague" });
    expect(guarded(call).kind).toBe("allow");
    expect(store.log.map((entry) => entry.action)).toEqual(["endorse", "use"]);
  });

  it("does not carry over to another value, another argument or another tool", () => {
    const store = createEndorsements();
    store.endorse({ tool: "send_email", path: "to", value: "carol@corp.com", by: "alice", reason: "ok" });
    const guarded = withEndorsements(policy, store);
    expect(guarded(makeCall("send_email", { to: labeled("eve@evil.com", eve) })).kind).toBe("deny");
    expect(guarded(makeCall("send_email", { to: "bob@corp.com", cc: fromInbox() })).kind).toBe("deny");
    expect(withEndorsements(emailPolicy(), store)(makeCall("forward", { to: fromInbox() })).kind).toBe("deny");
    expect(store.log.map((e) => e.action)).toEqual(["endorse"]);
  });

  it("releases a private value to the readers the person named, so the same flow does not ask again", () => {
    const store = createEndorsements();
    const guarded = withEndorsements(policy, store);
    const call = makeCall("send_email", { to: "carol@corp.com", body: labeled("Q3 numbers", privateTo(["alice@corp.com"])) });
    expect(guarded(call).kind).toBe("ask");
    endorseCall(store, call, { by: "alice", reason: "approved", readers: ["carol@corp.com"] });
    expect(guarded(call).kind).toBe("allow");
    const toDan = makeCall("send_email", { to: "dan@corp.com", body: labeled("Q3 numbers", privateTo(["alice@corp.com"])) });
    expect(guarded(toDan).kind).toBe("ask");
  });

  it("keeps the endorsement in the value's provenance", () => {
    const store = createEndorsements();
    store.endorse({ tool: "send_email", path: "to", value: "carol@corp.com", by: "alice", reason: "ok" });
    let seen = "";
    withEndorsements((c) => {
      seen = c.label("to").sources.join(" ");
      return { kind: "allow" };
    }, store)(makeCall("send_email", { to: fromInbox() }));
    expect(seen).toBe("endorsed:alice get_email#3:email:eve@evil.com");
  });

  it("treats the whole-call label as trusted once every flagged part is endorsed", () => {
    const store = createEndorsements();
    store.endorse({ tool: "send_email", path: "to", value: ["bob@corp.com", "carol@corp.com"], by: "alice", reason: "ok" });
    let trusted: boolean[] = [];
    withEndorsements((c) => {
      trusted = [c.label().trusted, c.label("to").trusted, c.label("to.1").trusted, c.parts[1].label.trusted];
      return { kind: "allow" };
    }, store)(makeCall("send_email", { to: ["bob@corp.com", fromInbox()], body: "hi" }));
    expect(trusted).toEqual([true, true, true, true]);
  });
});

describe("endorseCall", () => {
  it("endorses exactly the flagged arguments of an approved call", () => {
    const store = createEndorsements();
    const call = makeCall("send_email", { to: labeled("carol@corp.com", eve), subject: "hi", body: labeled("n", privateTo(["alice@corp.com"])) });
    const made = endorseCall(store, call, { by: "alice", reason: "approved send_email" });
    expect(made.map((e) => [e.path, e.value])).toEqual([
      ["to", "carol@corp.com"],
      ["body", "n"],
    ]);
  });
});
