/** Idempotency keys: stable across attempts and across a repeated run, distinct for calls meant twice. */
import { describe, expect, it } from "vitest";
import { createKeyring } from "../../src/calls/index.js";

describe("idempotency keys", () => {
  it("a repeated run (same run key) hands out the same keys in the same order, whatever the key order of the arguments", () => {
    const first = createKeyring();
    const again = createKeyring(first.runKey);
    const a = [first.next("send", { to: "a", body: "x" }), first.next("send", { to: "b" }), first.next("send", { to: "a", body: "x" })];
    const b = [again.next("send", { body: "x", to: "a" }), again.next("send", { to: "b" }), again.next("send", { to: "a", body: "x" })];
    expect(b).toEqual(a);
    expect(a.map((k) => k.callId)).toEqual(["call_1", "call_2", "call_3"]);
  });

  it("two calls with the same tool and arguments in one run get different keys", () => {
    const ring = createKeyring();
    expect(ring.next("pay", { amount: 5 }).idempotencyKey).not.toBe(ring.next("pay", { amount: 5 }).idempotencyKey);
  });

  it("a call keeps its key when the repeated plan makes other calls before it", () => {
    const first = createKeyring();
    first.next("read", {});
    const sent = first.next("send", { to: "a" }).idempotencyKey;
    const again = createKeyring(first.runKey);
    again.next("search", { q: "x" });
    again.next("read", {});
    again.next("read", {});
    expect(again.next("send", { to: "a" }).idempotencyKey).toBe(sent);
  });

  it("another run gets other keys", () => {
    expect(createKeyring().next("send", { to: "a" }).idempotencyKey).not.toBe(createKeyring().next("send", { to: "a" }).idempotencyKey);
  });

  it("keys are short opaque strings", () => {
    expect(createKeyring("r").next("send", { secret: "hunter2" }).idempotencyKey).toMatch(/^sluice-[A-Za-z0-9_-]{32}$/);
  });
});
