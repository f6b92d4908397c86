import { describe, expect, it } from "vitest";
import {
  all,
  askIfApproverMayRead,
  askInstead,
  requirementsOf,
  requirePublic,
  requireReadableBy,
  requireTrusted,
  requireTrustedContext,
  requireTrustedIfPrivate,
} from "../../src/policy/index.js";
import { Label, fromEmail, labeled, makeCall, privateTo, privateUntrusted } from "./support.js";

const eve = fromEmail("eve@evil.com");

describe("requireTrusted", () => {
  const rule = requireTrusted("to", { why: "untrusted text chose where the data goes" });

  it("allows a trusted argument", () => {
    expect(rule(makeCall("send", { to: "bob@corp.com" })).kind).toBe("allow");
  });

  it("denies an untrusted argument, naming it, its value, its source and the consequence", () => {
    const d = rule(makeCall("send", { to: labeled("eve@evil.com", eve) }));
    expect(d).toEqual({
      kind: "deny",
      reason:
        '`to` ("eve@evil.com") is untrusted: it came from an email from eve@evil.com (get_email call #3) — untrusted text chose where the data goes',
    });
  });

  it("looks inside nested arguments", () => {
    const d = rule(makeCall("send", { to: ["bob@corp.com", labeled("eve@evil.com", eve)] }));
    expect(d.kind).toBe("deny");
  });

  it("passes when the argument is absent: a missing argument carries no data", () => {
    expect(rule(makeCall("send", { body: labeled("x", eve) })).kind).toBe("allow");
  });

  it("rejects a bad path when the rule is made", () => {
    expect(() => requireTrusted("")).toThrow(/non-empty dotted argument path/);
  });
});

describe("requirePublic", () => {
  it("allows public values and denies private ones with their readers", () => {
    const rule = requirePublic("url");
    expect(rule(makeCall("fetch", { url: labeled("https://x.com", eve) })).kind).toBe("allow");
    const d = rule(makeCall("fetch", { url: labeled("https://x.com/?q=s3cret", privateTo(["alice@corp.com"])) }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toBe(
      '`url` ("https://x.com/?q=s3cret") is private (readable only by alice@corp.com): it came from the file notes.txt',
    );
  });
});

describe("requireTrustedIfPrivate", () => {
  const rule = requireTrustedIfPrivate("body");
  it("allows private trusted and public untrusted values", () => {
    expect(rule(makeCall("send", { body: labeled("notes", privateTo(["alice@corp.com"])) })).kind).toBe("allow");
    expect(rule(makeCall("send", { body: labeled("hi", eve) })).kind).toBe("allow");
  });

  it("denies values both private and untrusted", () => {
    const body = labeled("notes", privateUntrusted(["alice@corp.com"], "get_email#9:email:eve@evil.com"));
    expect(rule(makeCall("send", { body })).reason).toBe(
      '`body` ("notes") is private (readable only by alice@corp.com) and untrusted: it came from an email from eve@evil.com (get_email call #9)',
    );
  });

  it("catches private data joined into an untrusted body", () => {
    const body = [labeled("secret", privateTo(["alice@corp.com"])), labeled("injected", eve)];
    expect(rule(makeCall("send", { body })).kind).toBe("deny");
  });
});

describe("requireReadableBy", () => {
  const rule = requireReadableBy("body", { principalsFrom: ["to", "cc"] });
  const notes = labeled("notes", privateTo(["alice@corp.com", "bob@corp.com"]));

  it("allows when every recipient may read the value, whatever the case of the address", () => {
    expect(rule(makeCall("send", { to: "Bob@Corp.com", body: notes })).kind).toBe("allow");
    expect(rule(makeCall("send", { to: ["alice@corp.com", "bob@corp.com"], body: notes })).kind).toBe("allow");
  });

  it("treats a public value as readable by all", () => {
    expect(rule(makeCall("send", { to: "anyone@x.com", body: labeled("hi", eve) })).kind).toBe("allow");
  });

  it("denies, naming who may not read it and where they were named", () => {
    const d = rule(makeCall("send", { to: "bob@corp.com", cc: "carol@corp.com, dan@corp.com", body: notes }));
    expect(d.reason).toBe(
      '`body` ("notes") is private (readable only by alice@corp.com and bob@corp.com): it came from the file notes.txt, so carol@corp.com and dan@corp.com (named in `to` and `cc`) may not read it',
    );
  });

  it("reads principals from objects with an email field and from fixed principals", () => {
    const d = rule(makeCall("send", { to: [{ email: "eve@evil.com", name: "Eve" }], body: notes }));
    expect(d.reason).toContain("so eve@evil.com (named in `to`) may not read it");
    const fixed = requireReadableBy("body", { principals: ["auditor@corp.com"] });
    expect(fixed(makeCall("send", { body: notes })).reason).toContain("so auditor@corp.com may not read it");
  });
});

describe("requireTrustedContext", () => {
  it("denies under an untrusted branch, naming what the branch depends on", () => {
    const rule = requireTrustedContext();
    expect(rule(makeCall("send", {})).kind).toBe("allow");
    const d = rule(makeCall("send", {}, { context: eve }));
    expect(d.reason).toBe(
      "the call sits under a branch or loop that depends on untrusted data from an email from eve@evil.com (get_email call #3)",
    );
  });

  it("still allows under a trusted but private branch: it checks integrity only", () => {
    expect(requireTrustedContext()(makeCall("send", {}, { context: privateTo(["alice@corp.com"]) })).kind).toBe("allow");
  });
});

describe("all and askInstead", () => {
  const call = makeCall("send", { to: labeled("eve@evil.com", eve), body: "hi" }, { context: Label.untrusted("web:https://x.com") });

  it("all: strictest wins and the reasons of that strictness are joined", () => {
    const d = all(askInstead(requireTrustedContext()), requireTrusted("to"), requireTrusted("body"))(call);
    expect(d.kind).toBe("deny");
    expect(d.reason).toMatch(/^`to` \("eve@evil.com"\) is untrusted/);
    expect(d.reason).not.toContain("branch");
  });

  it("all: joins every reason of the winning kind", () => {
    const d = all(askInstead(requireTrustedContext()), askInstead(requireTrusted("to")))(call);
    expect(d.kind).toBe("ask");
    const reasons = d.reason!.split("; ");
    expect(reasons).toHaveLength(2);
    expect(reasons.some((r) => r.startsWith('`to` ("eve@evil.com") is untrusted'))).toBe(true);
    expect(reasons.some((r) => r.startsWith("the call sits under a branch or loop"))).toBe(true);
  });

  it("all with no rules allows", () => {
    expect(all()(call).kind).toBe("allow");
  });

  it("askInstead turns a denial into an ask with the same reason, and leaves allow alone", () => {
    const denied = requireTrusted("to")(call);
    expect(askInstead(requireTrusted("to"))(call)).toEqual({ kind: "ask", reason: denied.reason });
    expect(askInstead(requireTrusted("body"))(call).kind).toBe("allow");
  });

  it("rejects something that is not a rule", () => {
    expect(() => all(requireTrusted("to"), "nope" as never)).toThrow(/rule 1 is not a function/);
    expect(() => askInstead(undefined as never)).toThrow(/rule must be a function/);
  });
});

describe("askIfApproverMayRead: a confidentiality denial the person asked may decide", () => {
  // A link Zoe sent Ravi in a direct message: readable by the two of them, chosen by Zoe.
  const dm = Label.of({ readers: ["ravi", "zoe"], trusted: false, sources: ["read_inbox#1:message:zoe"] });
  const link = () => labeled("https://partner.fjord.example/guide", dm);
  const rule = (approver?: string) =>
    askIfApproverMayRead(requirePublic("url", { why: "fetching a URL sends it to the web server" }), {
      ...(approver === undefined ? {} : { approver }),
      learns: () => "the web server partner.fjord.example",
      check: "approve only if you are willing to let that server see this address",
    });

  it("asks the approver who may read everything the call discloses: what, from where, to whom, what to check", () => {
    const d = rule("ravi")(makeCall("get_webpage", { url: link() }));
    expect(d).toEqual({
      kind: "ask",
      reason:
        '`url` ("https://partner.fjord.example/guide") is private (readable only by ravi and zoe): it came from a message from zoe (read_inbox call #1) — fetching a URL sends it to the web server; ' +
        "if approved, the web server partner.fjord.example learns it. You (ravi) may read all of it, so it is yours to decide: approve only if you are willing to let that server see this address",
    });
  });

  it("still denies a secret of someone else: the approver is not among its readers", () => {
    const theirs = labeled("https://partner.fjord.example/contract?id=77", Label.of({ readers: ["dana", "zoe"], trusted: false, sources: ["chat:zoe in #partners"] }));
    const d = rule("ravi")(makeCall("get_webpage", { url: theirs }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain("no one is asked: the call would show the person asked, ravi, data they may not read, private (readable only by dana and zoe)");
  });

  it("denies when nothing else in the call may be shown to the approver: a branch on someone else's secret", () => {
    const secretBranch = Label.of({ readers: ["dana"], trusted: true, sources: ["file:dana-salary.txt"] });
    const d = rule("ravi")(makeCall("get_webpage", { url: link() }, { context: secretBranch }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain("data they may not read, private (readable by no one)");
  });

  it("denies when the policy names no approver: who would be asked is not known", () => {
    const d = rule()(makeCall("get_webpage", { url: link() }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain("no one is asked: the policy names no approver who may read it");
  });

  it("leaves what the rule allows alone, and matches principals as readers are matched, case aside", () => {
    expect(rule("ravi")(makeCall("get_webpage", { url: "https://docs.example/a" })).kind).toBe("allow");
    expect(rule("Ravi")(makeCall("get_webpage", { url: link() })).kind).toBe("ask");
  });

  it("declares an ask to the static plan check only when someone may be asked", () => {
    expect(requirementsOf(rule("ravi")).known.map((q) => q.effect)).toEqual(["ask"]);
    expect(requirementsOf(rule()).known.map((q) => q.effect)).toEqual(["deny"]);
  });

  it("rejects an empty approver and something that is not a rule", () => {
    expect(() => askIfApproverMayRead(requirePublic("url"), { approver: " " })).toThrow(/non-empty principal/);
    expect(() => askIfApproverMayRead("nope" as never)).toThrow(/rule must be a function/);
  });
});
