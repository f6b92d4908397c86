import { describe, expect, it } from "vitest";
import { needsApproval, riskDefaults, riskOf, riskText } from "../../src/policy/index.js";

describe("risk classes", () => {
  it("come from two questions: can it be undone, does it leave the system", () => {
    expect(riskOf({ reversible: true, outbound: false })).toBe("contained");
    expect(riskOf({ reversible: false, outbound: false })).toBe("irreversible");
    expect(riskOf({ reversible: true, outbound: true })).toBe("outbound");
    expect(riskOf({ reversible: false, outbound: true })).toBe("irreversible-outbound");
  });

  it("need approval unless contained", () => {
    expect(needsApproval("contained")).toBe(false);
    expect(needsApproval("irreversible")).toBe(true);
    expect(needsApproval("outbound")).toBe(true);
    expect(needsApproval("irreversible-outbound")).toBe(true);
    expect(riskText("post", "outbound")).toBe("post leaves the system");
  });

  it("give default rules: ask for risky tools, allow for contained ones", () => {
    expect(riskDefaults({ pay: { reversible: false, outbound: true }, note: { reversible: true, outbound: false } })).toEqual([
      { effect: "ask", pattern: "pay", note: "pay leaves the system and cannot be undone; approval is needed by default" },
      { effect: "allow", pattern: "note", note: "note can be undone and stays inside the system" },
    ]);
  });

  it("reject incomplete facts with a clear error", () => {
    expect(() => riskOf({ reversible: true } as never)).toThrow("riskOf: expected { reversible: boolean, outbound: boolean }");
    expect(() => riskDefaults({ pay: { outbound: "yes" } as never })).toThrow(/riskDefaults\(pay\)/);
  });
});
