/**
 * Policies, the permission engine, approvals and endorsements, wired through real runs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Label,
  createEndorsements,
  createPermissions,
  createRuntime,
  defineTool,
  emailPolicy,
  labeled,
  outboundMessagePolicy,
  summarizeCalls,
  allow,
  ask,
  type ApprovalRequest,
} from "../../src/index.js";
import { inputRecordArb, programArb, type InputRecord } from "../../src/testing/arbitraries.js";
import { checkNoninterference } from "../../src/testing/noninterference.js";
import { secretSource, trustedSource, untrustedSource } from "../support/tools.js";

function mailbox(sent: unknown[] = []) {
  return [
    defineTool({
      name: "get_email",
      description: "Reads email #3.",
      parameters: { type: "object", properties: {} },
      label: () => Label.trusted(),
      run: () => ({
        from: "eve@evil.com",
        // The user's own notes on the thread: trusted, but only they and Eve may read them.
        body: labeled("Notes on the invoice", Label.of({ trusted: true, readers: ["me@corp.com", "eve@evil.com"], sources: ["get_email#3:email:eve@evil.com"] })),
        reply_to: labeled("eve@evil.com", Label.untrusted("get_email#3:email:eve@evil.com")),
      }),
    }),
    defineTool({
      name: "send_email",
      description: "Sends an email.",
      parameters: { type: "object", properties: { to: { type: "string" }, body: { type: "string" } }, required: ["to", "body"] },
      sideEffect: true,
      policy: emailPolicy(),
      run: (args: Record<string, unknown>) => (sent.push(args), { ok: true }),
    }),
  ];
}

describe("decisions in real runs", () => {
  it("an approval request shows every argument and where the flagged ones came from", async () => {
    const requests: ApprovalRequest[] = [];
    const runtime = createRuntime({ tools: mailbox(), approve: (r) => (requests.push(r), false) });
    const result = await runtime.run(`const e = get_email(); send_email({ to: "boss@corp.com", body: e.body });`);
    expect(result.status).toBe("blocked");
    expect(requests).toHaveLength(1);
    expect(requests[0].tool).toBe("send_email");
    expect(requests[0].args).toEqual({ to: "boss@corp.com", body: "Notes on the invoice" });
    expect(requests[0].reason).toContain("`body`");
    expect(requests[0].reason).toContain("eve@evil.com");
    expect(result.calls[1]).toMatchObject({ decision: "ask", approved: false });
  });

  it("a recipient chosen by the email is denied with the argument and the source named", async () => {
    const runtime = createRuntime({ tools: mailbox() });
    const result = await runtime.run(`const e = get_email(); send_email({ to: e.reply_to, body: "hi" });`);
    expect(result.status).toBe("blocked");
    expect(result.calls[1].decision).toBe("deny");
    expect(result.calls[1].reason).toMatch(/`to`.*untrusted/);
    expect(result.calls[1].reason).toContain("eve@evil.com");
  });

  it("the permission engine and the tool's policy: the strictest wins", async () => {
    const sent: unknown[] = [];
    const permissions = createPermissions(["allow get_email", "allow send_email(*@corp.com)", "deny send_email(ceo@corp.com)"], {
      targets: { send_email: (args) => args.to },
    });
    const runtime = createRuntime({ tools: mailbox(sent), permissions });
    const ok = await runtime.run(`send_email({ to: "boss@corp.com", body: "hi" });`);
    expect(ok.status).toBe("completed");
    const denied = await runtime.run(`send_email({ to: "ceo@corp.com", body: "hi" });`);
    expect(denied.status).toBe("blocked");
    const outside = await runtime.run(`send_email({ to: "friend@home.org", body: "hi" });`);
    expect(outside.status).toBe("blocked");
    expect(sent).toHaveLength(1);
  });

  it("an approved flow is endorsed: the same value does not ask again, and the audit log says who vouched", async () => {
    const endorsements = createEndorsements();
    let asked = 0;
    const [getEmail, send] = mailbox();
    const reply = defineTool({ ...send, name: "send_email", policy: (call) => (call.label("to").trusted ? allow() : ask("the recipient came from an email")) });
    const runtime = createRuntime({ tools: [getEmail, reply], endorsements, approve: () => (asked++, true) });
    const program = `const e = get_email(); send_email({ to: e.reply_to, body: "Thanks!" });`;
    const first = await runtime.run(program);
    expect(first.status).toBe("completed");
    expect(asked).toBe(1);
    const second = await runtime.run(program);
    expect(second.status).toBe("completed");
    expect(asked).toBe(1);
    expect(endorsements.list("send_email").map((e) => [e.path, e.value, e.by])).toEqual([["to", "eve@evil.com", "approver"]]);
    expect(endorsements.log.length).toBeGreaterThan(1);
  });

  it("a run is summarised as counts", async () => {
    const runtime = createRuntime({ tools: mailbox(), approve: () => true });
    const result = await runtime.run(`const e = get_email(); send_email({ to: "boss@corp.com", body: "fine" }); send_email({ to: "boss@corp.com", body: e.body });`);
    expect(summarizeCalls(result.calls)).toMatchObject({ calls: 3, allowed: 2, asked: 1, approved: 1, denied: 0 });
  });
});

describe("ready policies under generated programs", () => {
  interface Inputs {
    u: InputRecord;
    s: InputRecord;
    t: InputRecord;
  }
  const tools = (i: Inputs) => [
    untrustedSource(i.u),
    secretSource(i.s),
    trustedSource(i.t),
    defineTool({
      name: "send",
      description: "Sends to the address in value.",
      parameters: { type: "object", properties: { value: {} } },
      sideEffect: true,
      policy: outboundMessagePolicy({ recipients: ["value"], content: [] }),
      run: () => ({ ok: true }),
    }),
    defineTool({ name: "publish", description: "Publishes.", parameters: { type: "object", properties: { value: {} } }, sideEffect: true, run: () => ({ ok: true }) }),
  ];
  it("data laundered through every construct never changes what the textbook policy lets through", async () => {
    const pairs: fc.Arbitrary<[Inputs, Inputs]> = fc
      .tuple(inputRecordArb, inputRecordArb, inputRecordArb, inputRecordArb)
      .map(([u1, u2, s, t]) => [{ u: u1, s, t }, { u: u2, s, t }]);
    const report = await checkNoninterference({ programs: programArb, inputs: pairs, tools, observe: ["send", "publish"], numRuns: 150, runtime: { limits: { steps: 50_000, timeMs: 2_000, arrayLength: 10_000 } } });
    if (report.failed) console.error(report.message, JSON.stringify(report.counterexample?.allowed), report.counterexample?.statuses, JSON.stringify(report.counterexample?.inputs));
    expect(report.failed).toBe(false);
  });
});
