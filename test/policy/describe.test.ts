import { describe, expect, it } from "vitest";
import { describeSource, explainCall, labelText, listText } from "../../src/policy/index.js";
import { Label, fromEmail, labeled, makeCall, privateTo } from "./support.js";

describe("describeSource", () => {
  it("reads a tool call prefix and the tool's own source", () => {
    expect(describeSource("get_email#3:email:eve@evil.com")).toBe("an email from eve@evil.com (get_email call #3)");
  });

  it("reads plain kind:detail sources", () => {
    expect(describeSource("email:eve@evil.com")).toBe("an email from eve@evil.com");
    expect(describeSource("file:notes.txt")).toBe("the file notes.txt");
    expect(describeSource("web:https://x.com/a")).toBe("the web page https://x.com/a");
    expect(describeSource("https://x.com/a")).toBe("the web page https://x.com/a");
  });

  it("names bare tools, bare calls and the quarantined model", () => {
    expect(describeSource("get_balance")).toBe("the result of get_balance");
    expect(describeSource("search#12")).toBe("the result of search call #12");
    expect(describeSource("query_ai_assistant")).toBe("an answer of the quarantined model (query_ai_assistant)");
  });

  it("quotes a source it cannot read rather than dropping it", () => {
    expect(describeSource("weird source!")).toBe('"weird source!"');
    expect(describeSource("zzz:thing")).toBe('"zzz:thing"');
  });
});

describe("listText and labelText", () => {
  it("lists in words and cuts long lists", () => {
    expect(listText(["a"])).toBe("a");
    expect(listText(["a", "b", "c"])).toBe("a, b and c");
    expect(listText(["a", "b", "c", "d", "e", "f", "g"])).toBe("a, b, c, d and 3 more");
  });

  it("puts trust, readers and origin in one phrase", () => {
    expect(labelText(Label.trusted())).toBe("trusted and public");
    expect(labelText(fromEmail("eve@evil.com"))).toBe(
      "untrusted and public: it came from an email from eve@evil.com (get_email call #3)",
    );
    expect(labelText(privateTo(["alice@corp.com"]))).toBe(
      "trusted and private (readable only by alice@corp.com): it came from the file notes.txt",
    );
    expect(labelText(Label.of({ trusted: false }))).toBe("untrusted and public: its origin was not recorded");
  });
});

describe("explainCall", () => {
  it("explains every argument and the context", () => {
    const call = makeCall(
      "send_email",
      { to: labeled("eve@evil.com", fromEmail("eve@evil.com")), body: "hello" },
      { context: Label.untrusted("search_web#1:web:https://blog.example") },
    );
    const explained = explainCall(call);
    expect(explained.arguments.map((a) => a.explanation)).toEqual([
      '`to` ("eve@evil.com") is untrusted and public: it came from an email from eve@evil.com (get_email call #3)',
      '`body` ("hello") is trusted and public',
    ]);
    expect(explained.context).toBe(
      "the call sits under a branch or loop that depends on untrusted data from the web page https://blog.example (search_web call #1)",
    );
    expect(explained.contextFlagged).toBe(true);
  });

  it("pinpoints the one recipient of a list that is untrusted", () => {
    const call = makeCall("send_email", { to: ["bob@corp.com", labeled("eve@evil.com", fromEmail("eve@evil.com", 5))] });
    const paths = explainCall(call).arguments.map((a) => a.path);
    expect(paths).toEqual(["to", "to.1"]);
    expect(explainCall(call).arguments[1].explanation).toContain("`to.1` (\"eve@evil.com\") is untrusted");
  });

  it("says so when the context is clean", () => {
    expect(explainCall(makeCall("noop", {})).context).toBe("the call does not depend on any untrusted or private condition");
  });
});
