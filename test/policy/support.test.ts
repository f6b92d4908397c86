import { describe, expect, it } from "vitest";
import { Label, fromEmail, labeled, makeCall, privateTo } from "./support.js";

describe("test support: makeCall", () => {
  it("joins container labels into nested parts and exposes plain args", () => {
    const call = makeCall("send", {
      to: labeled(["a@x.com", labeled("b@y.com", fromEmail("eve@evil.com"))], privateTo(["a@x.com", "b@y.com"])),
      body: "hi",
    });
    expect(call.args).toEqual({ to: ["a@x.com", "b@y.com"], body: "hi" });
    expect(call.label("to.0").trusted).toBe(true);
    expect(call.label("to.1").trusted).toBe(false);
    expect(call.label("to.1").readers).toEqual(["a@x.com", "b@y.com"]);
    expect(call.label("to").trusted).toBe(false);
    expect(call.label("body").equals(Label.trusted())).toBe(true);
    expect(call.label("to.7").equals(call.label("to"))).toBe(true);
    expect(call.label().trusted).toBe(false);
    expect(call.parts.map((p) => p.path)).toEqual(["to.0", "to.1", "body"]);
  });
});
