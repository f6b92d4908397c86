import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPermissions, riskDefaults, type PermissionRule } from "../../src/policy/index.js";

const targets = {
  send_email: (args: Record<string, unknown>) => args.to,
  delete_file: (args: Record<string, unknown>) => args.path,
};

describe("createPermissions: matching", () => {
  const engine = createPermissions(
    ["allow send_email(*@corp.com)", "deny send_email(*@evil.com)", "allow delete_file(/tmp/**)", "allow read_*"],
    { targets },
  );

  it("allows a target matching an allow rule, naming the rule", () => {
    expect(engine.decide({ tool: "send_email", args: { to: "bob@corp.com" } })).toEqual({
      kind: "allow",
      reason: 'send_email(bob@corp.com) is allowed by rule "allow send_email(*@corp.com)"',
    });
  });

  it("denies a target matching a deny rule, naming the rule", () => {
    expect(engine.decide({ tool: "send_email", args: { to: "eve@evil.com" } })).toEqual({
      kind: "deny",
      reason: 'send_email(eve@evil.com) is denied by rule "deny send_email(*@evil.com)"',
    });
  });

  it("denies when no rule matches", () => {
    expect(engine.decide({ tool: "send_email", args: { to: "x@gmail.com" } })).toEqual({
      kind: "deny",
      reason: "no permission rule matches send_email(x@gmail.com), and calls no rule allows are denied",
    });
    expect(engine.decide({ tool: "transfer", args: {} }).kind).toBe("deny");
  });

  it("matches file globs across directories but never through ..", () => {
    expect(engine.decide({ tool: "delete_file", args: { path: "/tmp/a/b/c.txt" } }).kind).toBe("allow");
    expect(engine.decide({ tool: "delete_file", args: { path: "/tmp/.cache" } }).kind).toBe("allow");
    expect(engine.decide({ tool: "delete_file", args: { path: "/tmp/../etc/passwd" } }).kind).toBe("deny");
    expect(engine.decide({ tool: "delete_file", args: { path: "/home/alice/x" } }).kind).toBe("deny");
  });

  it("matches tool globs and bare tool names with or without a target", () => {
    expect(engine.decide({ tool: "read_file", args: { path: "/etc/passwd" } }).kind).toBe("allow");
    expect(engine.decide({ tool: "send_email", args: {} }).kind).toBe("deny");
  });

  it("requires every target of a list to be allowed", () => {
    const d = engine.decide({ tool: "send_email", args: { to: ["bob@corp.com", "eve@evil.com"] } });
    expect(d).toEqual({ kind: "deny", reason: 'send_email(eve@evil.com) is denied by rule "deny send_email(*@evil.com)"' });
    expect(engine.decide({ tool: "send_email", args: { to: ["bob@corp.com", "ann@corp.com"] } }).kind).toBe("allow");
  });
});

describe("createPermissions: strictest wins", () => {
  it("deny beats ask beats allow, whatever the order", () => {
    const rules = ["allow send_email(**)", "ask send_email(*@corp.com)", "deny send_email(boss@corp.com)"];
    for (const order of [rules, [...rules].reverse()]) {
      const engine = createPermissions(order, { targets });
      expect(engine.decide({ tool: "send_email", args: { to: "x@y.com" } }).kind).toBe("allow");
      expect(engine.decide({ tool: "send_email", args: { to: "bob@corp.com" } }).kind).toBe("ask");
      expect(engine.decide({ tool: "send_email", args: { to: "boss@corp.com" } }).kind).toBe("deny");
    }
  });

  it("names every rule of the winning effect", () => {
    const engine = createPermissions(["ask send_*", "ask send_email(**)", "allow *"], { targets });
    expect(engine.decide({ tool: "send_email", args: { to: "a@b.c" } }).reason).toBe(
      'send_email(a@b.c) needs approval under rules "ask send_*" and "ask send_email(**)"',
    );
  });

  it("property: the order of the rules never changes a decision", () => {
    const rule = fc.record({
      effect: fc.constantFrom<PermissionRule["effect"]>("allow", "ask", "deny"),
      pattern: fc.constantFrom(
        "send_email",
        "send_email(**)",
        "send_email(*@corp.com)",
        "send_email(boss@corp.com)",
        "send_*",
        "*",
        "*(*@evil.com)",
        "delete_file(/tmp/**)",
        "delete_file(/tmp/*.txt)",
        "fetch",
      ),
    });
    const call = fc.record({
      tool: fc.constantFrom("send_email", "delete_file", "fetch", "pay"),
      args: fc.record({
        to: fc.oneof(
          fc.constantFrom("bob@corp.com", "boss@corp.com", "eve@evil.com", "x@y.org"),
          fc.subarray(["bob@corp.com", "boss@corp.com", "eve@evil.com", "x@y.org"]),
        ),
        path: fc.constantFrom("/tmp/a.txt", "/tmp/x/y", "/etc/passwd"),
      }),
    });
    const shuffled = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
    const scenario = fc
      .tuple(fc.array(rule, { maxLength: 8 }), fc.array(rule, { maxLength: 4 }))
      .chain(([rules, defaults]) => fc.tuple(fc.constant(rules), shuffled(rules), fc.constant(defaults), shuffled(defaults)));

    fc.assert(
      fc.property(scenario, fc.array(call, { minLength: 1, maxLength: 5 }), ([rules, reordered, defaults, redefaults], calls) => {
        const a = createPermissions(rules, { targets, defaults });
        const b = createPermissions(reordered, { targets, defaults: redefaults });
        for (const c of calls) expect(b.decide(c)).toEqual(a.decide(c));
      }),
      { numRuns: 500 },
    );
  });
});

describe("createPermissions: targets and bad input", () => {
  it("takes targets from the per-tool extractor, and a throwing extractor denies", () => {
    const engine = createPermissions(["allow pay(DE*)"], {
      targets: {
        pay: (args) => {
          if (typeof args.iban !== "string") throw new Error("iban missing");
          return args.iban;
        },
      },
    });
    expect(engine.decide({ tool: "pay", args: { iban: "DE89" } }).kind).toBe("allow");
    expect(engine.decide({ tool: "pay", args: {} })).toEqual({
      kind: "deny",
      reason: "could not work out the target of pay: iban missing",
    });
  });

  it("rejects malformed rules with a message naming the rule", () => {
    expect(() => createPermissions(["permit send_email"])).toThrow(/"permit send_email": effect must be allow, ask or deny/);
    expect(() => createPermissions(["allow"])).toThrow(/expected "<allow\|ask\|deny> <tool>\(<target>\)"/);
    expect(() => createPermissions(["allow send_email(*@corp.com"])).toThrow(/unclosed "\("/);
    expect(() => createPermissions(["allow send_email()"])).toThrow(/empty target; write tool\(\*\*\)/);
    expect(() => createPermissions([{ effect: "allow", pattern: "" }])).toThrow(/pattern must be a non-empty string/);
    expect(() => createPermissions("allow x" as never)).toThrow(/rules must be an array/);
  });

  it("rejects a target rule for a tool with no target extractor, instead of silently never matching", () => {
    expect(() => createPermissions(["deny delete_file(/etc/**)"])).toThrow(
      'permission rule "deny delete_file(/etc/**)" names a target, but there is no target extractor for delete_file (options.targets.delete_file)',
    );
    expect(() => createPermissions(["allow delete_file(**)"])).not.toThrow();
  });

  it("accepts rules as objects with a note quoted in the reason", () => {
    const engine = createPermissions([{ effect: "deny", pattern: "wire_money", note: "wires go through finance" }]);
    expect(engine.decide({ tool: "wire_money", args: {} }).reason).toBe(
      'wire_money is denied by rule "deny wire_money" (wires go through finance)',
    );
  });
});

describe("createPermissions: default rules from risk classes", () => {
  const defaults = riskDefaults({
    send_email: { reversible: false, outbound: true },
    delete_file: { reversible: false, outbound: false },
    draft_email: { reversible: true, outbound: false },
  });
  const engine = createPermissions(["allow send_email(*@corp.com)"], { targets, defaults });

  it("asks for outbound or irreversible tools no explicit rule allows", () => {
    expect(engine.decide({ tool: "send_email", args: { to: "x@gmail.com" } })).toEqual({
      kind: "ask",
      reason:
        'no explicit permission rule matches send_email(x@gmail.com), so it needs approval under default rule "ask send_email" (send_email leaves the system and cannot be undone; approval is needed by default)',
    });
    expect(engine.decide({ tool: "delete_file", args: { path: "/x" } }).reason).toContain("(delete_file cannot be undone; approval is needed by default)");
  });

  it("lets an explicit allow win over the default ask", () => {
    expect(engine.decide({ tool: "send_email", args: { to: "bob@corp.com" } }).kind).toBe("allow");
  });

  it("allows contained tools and still denies unknown ones", () => {
    expect(engine.decide({ tool: "draft_email", args: {} }).kind).toBe("allow");
    expect(engine.decide({ tool: "format_disk", args: {} }).kind).toBe("deny");
  });
});
