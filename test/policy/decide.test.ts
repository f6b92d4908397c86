import { describe, expect, it } from "vitest";
import { allow, ask, deny } from "../../src/tools/types.js";
import {
  approvalRequest,
  callRecord,
  combineDecisions,
  createPermissions,
  decideCall,
  defaultToolPolicy,
  emailPolicy,
  explainDecision,
  formatApproval,
  summarizeCalls,
} from "../../src/policy/index.js";
import { Label, fromEmail, labeled, makeCall, privateTo } from "./support.js";

const eve = fromEmail("eve@evil.com");

describe("combineDecisions", () => {
  it("keeps the strictest and joins its reasons", () => {
    expect(combineDecisions(allow("ok"), ask("a"), deny("d1"), ask("b"), deny("d2"), deny("d1"))).toEqual({ kind: "deny", reason: "d1; d2" });
    expect(combineDecisions(allow(), ask("a"))).toEqual({ kind: "ask", reason: "a" });
    expect(combineDecisions()).toEqual({ kind: "allow" });
  });
});

describe("defaultToolPolicy", () => {
  it("allows read-only tools whatever their arguments", () => {
    expect(defaultToolPolicy({ sideEffect: false })(makeCall("search", { q: labeled("x", eve) }, { context: eve })).kind).toBe("allow");
  });

  it("allows a side-effecting tool only when arguments and context are trusted", () => {
    const policy = defaultToolPolicy({ sideEffect: true });
    expect(policy(makeCall("post", { text: "hi" })).kind).toBe("allow");
    const d = policy(makeCall("post", { text: labeled("hi", eve) }, { context: Label.untrusted("web:https://x.com") }));
    expect(d).toEqual({
      kind: "deny",
      reason:
        'post has no policy of its own and changes the world, so every argument and the context must be trusted, but `text` ("hi") is untrusted: it came from an email from eve@evil.com (get_email call #3); the call sits under a branch or loop that depends on untrusted data from the web page https://x.com',
    });
  });
});

describe("decideCall", () => {
  const perms = createPermissions(["allow send_email(*@corp.com)", "ask send_email(boss@corp.com)"], {
    targets: { send_email: (a) => a.to },
  });

  it("allows only when both the label policy and the permission engine allow", () => {
    expect(decideCall(makeCall("send_email", { to: "bob@corp.com", body: "hi" }), { policy: emailPolicy(), permissions: perms }).kind).toBe("allow");
  });

  it("denies when the permission engine denies though the label policy allows", () => {
    const d = decideCall(makeCall("send_email", { to: "x@gmail.com", body: "hi" }), { policy: emailPolicy(), permissions: perms });
    expect(d).toEqual({
      kind: "deny",
      reason: 'send_email(to: "x@gmail.com", body: "hi") was denied: no permission rule matches send_email(x@gmail.com), and calls no rule allows are denied',
    });
  });

  it("denies when the label policy denies though a rule allows the target", () => {
    const call = makeCall("send_email", { to: labeled("mallory@corp.com", eve), body: "hi" });
    const d = decideCall(call, { policy: emailPolicy(), permissions: perms });
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain("untrusted text chose where the data goes");
  });

  it("falls back to the default policy, and denies when a policy throws or answers nonsense", () => {
    expect(decideCall(makeCall("post", { text: labeled("x", eve) }), { sideEffect: true }).kind).toBe("deny");
    expect(decideCall(makeCall("post", {}), { sideEffect: true }).kind).toBe("allow");
    const boom = decideCall(makeCall("post", {}), {
      policy: () => {
        throw new Error("policy bug");
      },
    });
    expect(boom.reason).toBe("post() was denied: the policy of post failed: policy bug");
    expect(decideCall(makeCall("post", {}), { policy: () => "yes" as never }).reason).toBe(
      'post() was denied: the policy of post returned "yes", not a decision',
    );
  });
});

describe("explainDecision", () => {
  it("adds the call, its arguments and the provenance the reason lacks", () => {
    const call = makeCall("send_email", { to: labeled("eve@evil.com", eve), body: labeled("n", privateTo(["alice@corp.com"])) }, { context: eve });
    const d = explainDecision(call, ask("rule \"ask send_email(**)\""));
    expect(d.reason).toBe(
      'send_email(to: "eve@evil.com", body: "n") needs approval: rule "ask send_email(**)". Provenance: ' +
        '`to` ("eve@evil.com") is untrusted and public: it came from an email from eve@evil.com (get_email call #3); ' +
        '`body` ("n") is trusted and private (readable only by alice@corp.com): it came from the file notes.txt; ' +
        "the call sits under a branch or loop that depends on untrusted data from an email from eve@evil.com (get_email call #3)",
    );
  });

  it("adds every flagged argument's provenance whatever the reason says, and leaves allow alone", () => {
    // The reason quotes data: what it seems to explain already is no guide (attack round 3, finding 2).
    const call = makeCall("send_email", { to: labeled("eve@evil.com", eve) });
    const d = explainDecision(call, emailPolicy()(call));
    expect(d.reason).toContain("Provenance: `to` (\"eve@evil.com\") is untrusted and public");
    expect(explainDecision(call, allow())).toEqual(allow());
  });
});

describe("approvalRequest", () => {
  const call = makeCall("send_email", { to: labeled("carol@corp.com", eve), body: "hi" });

  it("gives the tool, every argument and each argument's provenance", () => {
    const request = approvalRequest(call, ask("untrusted recipient"));
    expect(request.tool).toBe("send_email");
    expect(request.args).toEqual({ to: "carol@corp.com", body: "hi" });
    expect(request.provenance.map((p) => p.path)).toEqual(["to", "body"]);
    expect(request.reason).toBe(
      'send_email(to: "carol@corp.com", body: "hi") needs approval: untrusted recipient. Provenance: `to` ("carol@corp.com") is untrusted and public: it came from an email from eve@evil.com (get_email call #3)',
    );
  });

  it("does not explain twice a decision that decideCall already explained", () => {
    const decided = decideCall(call, { policy: () => ask("check") });
    expect(approvalRequest(call, decided).reason).toBe(decided.reason);
  });

  it("never shows only a tool name, even for a call with no arguments and no reason", () => {
    const text = formatApproval(approvalRequest(makeCall("reboot", {}), allow()));
    expect(text).toBe(
      [
        "reboot wants to run with:",
        "  (no arguments)",
        "Context: the call does not depend on any untrusted or private condition",
        "Why you are asked: reboot() needs approval: no reason given",
      ].join("\n"),
    );
  });

  it("formats each argument with its value and provenance for a terminal", () => {
    const text = formatApproval(approvalRequest(call, ask("untrusted recipient")));
    expect(text.split("\n").slice(0, 5)).toEqual([
      "send_email wants to run with:",
      '  to = "carol@corp.com"',
      '      `to` ("carol@corp.com") is untrusted and public: it came from an email from eve@evil.com (get_email call #3)',
      '  body = "hi"',
      '      `body` ("hi") is trusted and public',
    ]);
  });
});

describe("callRecord and summarizeCalls", () => {
  it("records tool, arguments, decision, reason and labels", () => {
    const call = makeCall("send_email", { to: labeled("eve@evil.com", eve) }, { context: eve });
    const record = callRecord(call, deny("no"));
    expect(record).toMatchObject({ tool: "send_email", args: { to: "eve@evil.com" }, decision: "deny", reason: "no" });
    expect(record.argsLabel.sources).toEqual(["get_email#3:email:eve@evil.com"]);
    expect(record.context.trusted).toBe(false);
    expect(record.provenance[0].explanation).toContain("untrusted");
    expect(callRecord(call, ask("?"), true).approved).toBe(true);
    expect("approved" in callRecord(call, allow(), true)).toBe(false);
  });

  it("counts calls, allowed, asked, approved, denied", () => {
    const summary = summarizeCalls([
      { decision: "allow" },
      { decision: "allow" },
      { decision: "ask", approved: true },
      { decision: "ask", approved: false },
      { decision: "ask" },
      { decision: "deny" },
    ]);
    expect(summary).toEqual({ calls: 6, allowed: 2, asked: 3, approved: 1, denied: 1, refused: 2 });
    expect(summarizeCalls([])).toEqual({ calls: 0, allowed: 0, asked: 0, approved: 0, denied: 0, refused: 0 });
  });
});
