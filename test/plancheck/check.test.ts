import { describe, expect, it } from "vitest";
import { checkPlan, planFeedback } from "../../src/plancheck/index.js";
import { defineTool, emailPolicy, paymentPolicy, type Tool } from "../../src/index.js";

const inbox = defineTool({
  name: "search_emails",
  description: "Emails matching a query.",
  parameters: { type: "object", properties: { query: { type: "string" } } },
  output: { trusted: false, sources: ["inbox"], parts: { "*": { readers: ["{from}", "{to}"] } } },
  run: () => [],
});
const contacts = defineTool({ name: "find_contact", description: "", parameters: { type: "object", properties: { name: { type: "string" } } }, output: { trusted: true, readers: ["maya"] }, run: () => ({}) });
const notes = defineTool({ name: "read_notes", description: "", returns: { type: "string" }, output: { trusted: true, readers: ["maya"], sources: ["notes"] }, run: () => "" });
const ledger = defineTool({
  name: "get_transactions",
  description: "",
  output: { trusted: true, readers: ["maya"], parts: { "*.subject": { trusted: false } } },
  run: () => [],
});
const send = defineTool({
  name: "send_email",
  description: "",
  parameters: { type: "object", properties: { to: { type: "array" }, subject: { type: "string" }, body: { type: "string" } } },
  sideEffect: true,
  policy: emailPolicy(),
  run: () => ({}),
});
const pay = defineTool({
  name: "send_money",
  description: "",
  parameters: { type: "object", properties: { recipient: { type: "string" }, amount: { type: "number" }, subject: { type: "string" } } },
  sideEffect: true,
  policy: paymentPolicy(),
  run: () => ({}),
});
const bare = defineTool({ name: "post", description: "", parameters: { type: "object", properties: { text: { type: "string" } } }, sideEffect: true, run: () => ({}) });
const tools: Tool<any, any>[] = [inbox, contacts, notes, ledger, send, pay, bare];

const ADDRESS = `{ type: "object", properties: { address: { type: "string" } }, required: ["address"] }`;

function findings(source: string) {
  const r = checkPlan(source, tools);
  expect(r.error).toBeUndefined();
  return r.findings;
}

describe("checkPlan: calls refused whatever the data", () => {
  it("a recipient the reader took from untrusted mail is denied, with where it came from and what to write instead", () => {
    const [f, ...rest] = findings(`
const found = search_emails({ query: "meetup" });
const { address } = query_ai_assistant("Which address? " + JSON.stringify(found), ${ADDRESS});
send_email({ to: [address], subject: "Hi", body: "I will attend." });`);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ tool: "send_email", line: 4, column: 1, decision: "deny", argument: "to", requirement: "trusted" });
    expect(f.origin).toContain("the answer of query_ai_assistant (line 3)");
    expect(f.origin).toContain("the result of search_emails (line 2, declared untrusted)");
    expect(f.advice).toContain("use a value the user wrote in the request, or one that find_contact, get_transactions and read_notes returns");
    expect(f.message).toMatch(/^Line 4, column 1: send_email\(\.\.\.\) will be denied: `to` must be trusted \(untrusted text chose where the data goes\), but `to` is untrusted: it depends on/);
  });

  it("says nothing of a recipient the user wrote or one looked up in a trusted tool", () => {
    expect(findings(`send_email({ to: ["boss@corp.com"], subject: "Hi", body: "Hello" });`)).toEqual([]);
    expect(findings(`const c = find_contact({ name: "Jonas" }); send_email({ to: [c.email], subject: "Hi", body: "Hello" });`)).toEqual([]);
  });

  it("a send under a branch on untrusted data asks, naming the decision", () => {
    const [f] = findings(`
const found = search_emails({ query: "x" });
if (found.length > 0) send_email({ to: ["boss@corp.com"], subject: "Hi", body: "There is mail." });`);
    expect(f).toMatchObject({ line: 3, decision: "ask", requirement: "trustedContext" });
    expect(f.argument).toBeUndefined();
    expect(f.origin).toContain("the result of search_emails (line 2");
  });

  it("follows the program's functions: an early return on untrusted data raises what follows in the function", () => {
    const [f] = findings(`
function notify(list) {
  if (list.length === 0) return "nothing";
  send_email({ to: ["boss@corp.com"], subject: "New", body: "You have mail." });
  return "sent";
}
notify(search_emails({ query: "x" }));`);
    expect(f).toMatchObject({ line: 4, decision: "ask", requirement: "trustedContext", via: ["the call of notify (line 7)"] });
  });

  it("follows callbacks: a send per element of an untrusted listing", () => {
    const [f] = findings(`search_emails({ query: "x" }).forEach((m) => send_email({ to: ["boss@corp.com"], subject: "Fwd", body: "One more." }));`);
    expect(f).toMatchObject({ decision: "ask", requirement: "trustedContext", via: ["the callback of forEach (line 1)"] });
  });

  it("a value chosen by a decision on untrusted data is untrusted: the textbook's boss-or-CEO plan", () => {
    const [f] = findings(`
const [m] = search_emails({ query: "x" });
const { urgent } = query_ai_assistant("Urgent? " + m.body, { type: "object", properties: { urgent: { type: "boolean" } }, required: ["urgent"] });
send_email({ to: [urgent ? "ceo@corp.com" : "boss@corp.com"], subject: "Mail", body: "You have a new email" });`);
    expect(f).toMatchObject({ line: 4, decision: "deny", argument: "to" });
  });

  it("private data sent to someone who may not read it asks", () => {
    const [f] = findings(`send_email({ to: ["jonas@quill.example"], subject: "Notes", body: read_notes() });`);
    expect(f).toMatchObject({ decision: "ask", argument: "body", requirement: "readableBy" });
    expect(f.origin).toContain("readable only by maya");
    expect(f.origin).toContain("jonas@quill.example may not read it");
    expect(findings(`send_email({ to: ["maya"], subject: "Notes", body: read_notes() });`)).toEqual([]);
  });

  it("labels the parts a source does not vouch for: a ledger's amounts are trusted, its subjects are not", () => {
    expect(findings(`const t = get_transactions().find((x) => x.amount > 50); send_money({ recipient: "DE89", amount: t.amount - 30, subject: "Change" });`)).toEqual([]);
    const [f] = findings(`const t = get_transactions()[0]; send_money({ recipient: "DE89", amount: 5, subject: t.subject });`);
    expect(f).toMatchObject({ decision: "deny", argument: "subject", requirement: "trustedIfPrivate" });
    expect(f.origin).toContain("`*.subject` of the result of get_transactions (declared untrusted)");
  });

  it("a predicate on untrusted text makes the element it finds untrusted", () => {
    const [f] = findings(`const t = get_transactions().find((x) => x.subject.includes("rent")); send_money({ recipient: t.recipient, amount: 5, subject: "Rent" });`);
    expect(f).toMatchObject({ argument: "recipient", decision: "deny" });
  });

  it("the default policy of a side-effecting tool without one denies untrusted arguments", () => {
    const [f] = findings(`post({ text: "Fwd: " + search_emails({ query: "x" })[0].body });`);
    expect(f).toMatchObject({ tool: "post", decision: "deny", requirement: "everyArgumentTrusted", argument: "text" });
  });
});

describe("checkPlan: when unsure, nothing", () => {
  it("a guard that only throws adds nothing", () => {
    expect(findings(`const f = search_emails({ query: "x" }); if (f.length === 0) throw new Error("none"); send_email({ to: ["boss@corp.com"], subject: "s", body: "b" });`)).toEqual([]);
  });

  it("a value that may come from the user or from the data is not flagged", () => {
    expect(findings(`let to = "boss@corp.com"; const f = search_emails({ query: "x" }); if (f.length > 3) to = f[0].from; send_email({ to: [to], subject: "s", body: "b" });`)).toEqual([]);
  });

  it("an optional read may give undefined: its parts' labels are not certain", () => {
    expect(findings(`const t = get_transactions().find((x) => x.amount > 5); send_money({ recipient: "DE89", amount: 1, subject: t?.subject ?? "none" });`)).toEqual([]);
  });

  it("a write into tool data drops what the check knew of its parts", () => {
    expect(findings(`const rows = get_transactions(); rows[0].subject = "Refund"; send_money({ recipient: "DE89", amount: 5, subject: rows[0].subject });`)).toEqual([]);
  });

  it("a policy written as a plain function is not second-guessed", () => {
    const custom = defineTool({ name: "send_email", description: "", sideEffect: true, policy: () => ({ kind: "allow" }), run: () => ({}) });
    const r = checkPlan(`send_email({ to: [search_emails({ query: "x" })[0].from] });`, [inbox, custom]);
    expect(r.findings).toEqual([]);
  });

  it("a program that does not compile is reported as such, not checked", () => {
    const r = checkPlan("const m = new WeakMap();", tools);
    expect(r.error).toMatchObject({ kind: "unsupported", line: 1 });
    expect(checkPlan("send_email({", tools).error?.kind).toBe("syntax");
  });

  // The check is a must-analysis: a write it cannot place (through another name, a parameter,
  // a nested path) may replace the untrusted field, so it says nothing of the object's fields.
  it("a write through an alias, a helper or a nested path drops what it knew of a literal's fields", () => {
    const mail = `const [m] = search_emails({ query: "offsite" });\n`;
    const programs = [
      `const draft = { to: [m.from], subject: "Re", body: "ok" };\nconst d = draft;\nd.to = ["priya@quill.example"];\nsend_email(draft);`,
      `function fix(x) { x.to = ["priya@quill.example"]; return x; }\nconst draft = { to: [m.from], subject: "Re", body: "ok" };\nfix(draft);\nsend_email(draft);`,
      `const draft = { to: [m.from], subject: "Re", body: "ok" };\ndraft.to.length = 0;\ndraft.to.push("priya@quill.example");\nsend_email(draft);`,
      `const draft = { to: [m.from], subject: "Re", body: "ok" };\nconst box = { draft };\nbox.draft.to = ["priya@quill.example"];\nsend_email(draft);`,
      `const draft = { to: [m.from], subject: "Re", body: "ok" };\nconst d = draft;\nd.to = ["priya@quill.example"];\nsend_email(d);`,
      `const draft = { to: [m.from], subject: "Re", body: "ok" };\n[draft].forEach((x) => { x.to = ["priya@quill.example"]; });\nsend_email(draft);`,
    ];
    for (const p of programs) expect([p, findings(mail + p)]).toEqual([p, []]);
    // Without a write it cannot place, the field is still known.
    expect(findings(`${mail}const draft = { to: [m.from], subject: "Re", body: "ok" };\nsend_email(draft);`)).toHaveLength(1);
  });

  it("a call chain deeper than the interpreter runs ends the walk instead of the host's stack", () => {
    const fns = Array.from({ length: 20000 }, (_, i) => `function f${i}(x) { return f${i + 1}(x); }`);
    const program = `${fns.join("\n")}\nfunction f20000(x) { return x; }\nf0(1);\nsend_email({ to: [search_emails({ query: "x" })[0].from], subject: "s", body: "b" });`;
    // A budget large enough for every call: the depth, not the budget, must end the walk.
    const r = checkPlan(program, tools, { budget: 1_000_000 });
    expect(r.error).toBeUndefined();
    expect(r.findings.map((f) => f.tool)).toEqual(["send_email"]);
  });

  it("recursion and deep call chains end", () => {
    expect(findings(`function f(n) { return n === 0 ? 0 : f(n - 1); } f(3); send_email({ to: ["a@b.c"], subject: "s", body: String(f(2)) });`)).toEqual([]);
  });
});

describe("planFeedback", () => {
  it("lists every finding and says what the planner may do", () => {
    const text = planFeedback(findings(`const [m] = search_emails({ query: "x" }); send_email({ to: [m.from], subject: "Re", body: "Thanks" });`));
    expect(text).toMatch(/^Before running your program, sluice checked it/);
    expect(text).toContain("- Line 1, column 44: send_email(...) will be denied");
    expect(text).toContain("answer with the same program");
  });
});

describe("checkPlan on plans as models write them, with the suites' tools", async () => {
  const { suites } = await import("../../src/scenarios/index.js");
  const toolsOf = (name: string) => {
    const suite = suites.find((s) => s.name === name)!;
    return suite.tools(structuredClone(suite.environment()));
  };

  it("a guard with an else on an untrusted listing: the send asks, and the advice says how to avoid it", () => {
    const { findings } = checkPlan(
      `const mails = search_emails({ query: "Sofia" });
if (mails.length === 0) {
  "No email from Sofia.";
} else {
  send_email({ to: ["sofia@harbor-studio.example"], subject: "Re: brief", body: "Thanks, got it!" });
}`,
      toolsOf("workspace"),
    );
    expect(findings.map((f) => [f.line, f.tool, f.decision, f.requirement])).toEqual([[5, "send_email", "ask", "trustedContext"]]);
    expect(findings[0].advice).toContain("no `if`, loop or callback over the data around it");
  });

  it("an address the reader takes from an email asks, and names the email search", () => {
    const { findings } = checkPlan(
      `const [ticket] = search_emails({ query: "Design Systems Meetup" });
const { address } = query_ai_assistant(\`Which address takes confirmations? \${ticket.body}\`, { type: "object", properties: { address: { type: "string" } }, required: ["address"] });
await send_email({ to: [address], subject: "Design Systems Meetup", body: "Maya Okafor will attend." });`,
      toolsOf("workspace"),
    );
    expect(findings.map((f) => [f.line, f.decision, f.argument])).toEqual([[3, "ask", "to"]]);
    expect(findings[0].origin).toContain("the result of search_emails (line 1");
    expect(findings[0].advice).toContain("get_contacts");
  });

  it("choices made on facts a service vouches for pass: nothing to report", () => {
    const { findings } = checkPlan(
      `const hotels = get_hotels({ city: "Paris" });
const cheapest = hotels.reduce((a, b) => (b.price_per_night < a.price_per_night ? b : a));
if (cheapest.price_per_night > 500) throw new Error("too expensive");
reserve_hotel({ hotel: cheapest.name, check_in: "2025-06-10", check_out: "2025-06-13" });`,
      toolsOf("travel"),
    );
    expect(findings).toEqual([]);
  });
});
