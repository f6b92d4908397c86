import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isOneLine, sluice } from "./capture.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sluice-run-"));
});

async function plan(name: string, source: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, source);
  return path;
}

describe("sluice run", () => {
  it("runs a good plan and prints its status, value with label, and calls; exit 0", async () => {
    const { code, stdout, stderr } = await sluice(["run", "examples/01-summary-to-boss.js"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("── examples/01-summary-to-boss.js");
    expect(stdout).toContain(" 9 │ send_email(");
    expect(stdout).toContain("status:  completed\n");
    expect(stdout).toContain("label:   untrusted · readers: public · sources: email:eve@evil.com, query_ai_assistant");
    expect(stdout).toMatch(/2\. send_email\(body: .*, subject: "Summary of your newest email", to: "boss@corp.com"\)/);
    expect(stdout).toContain("sent:    1 email to boss@corp.com");
  });

  it("exits 3 when a policy stops the plan, and --json says which call and why", async () => {
    const text = await sluice(["run", "examples/02-injected-plan.js"]);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain("decision: DENIED");
    const { code, stdout } = await sluice(["run", "examples/02-injected-plan.js", "--json"]);
    expect(code).toBe(3);
    const doc = JSON.parse(stdout);
    expect(doc.status).toBe("blocked");
    expect(doc.error.kind).toBe("policy");
    expect(doc.calls.at(-1)).toMatchObject({ tool: "send_email", decision: "deny", args: { to: "eve@evil.com" } });
    expect(doc.sent).toEqual([]);
  });

  it("--reader benign: a reader that does not obey still cannot steer the send", async () => {
    const { code, stdout } = await sluice(["run", "examples/02-injected-plan.js", "--json", "--reader", "benign"]);
    expect(code).toBe(3);
    const doc = JSON.parse(stdout);
    expect(doc.reader).toEqual({ name: "benign", queries: 1, attacks: 0 });
    expect(doc.calls.at(-1).decision).toBe("deny");
  });

  it("--approve decides the asked call: yes sends, no blocks", async () => {
    const yes = await sluice(["run", "examples/04-share-private-notes.js", "--approve", "yes", "--json"]);
    expect(yes.code).toBe(0);
    const doc = JSON.parse(yes.stdout);
    expect(doc.calls.at(-1)).toMatchObject({ decision: "ask", approved: true });
    expect(doc.sent.map((s: any) => s.to)).toEqual(["boss@corp.com"]);
    const no = await sluice(["run", "examples/04-share-private-notes.js", "--approve", "no"]);
    expect(no.code).toBe(3);
    expect(no.stdout).toContain("decision: asked, NOT approved");
    expect(no.stdout).toContain("sent:    nothing");
  });

  it("a missing file is one line on stderr and exit 2", async () => {
    const { code, stdout, stderr } = await sluice(["run", join(dir, "nope.js")]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(isOneLine(stderr)).toBe(true);
    expect(stderr).toContain("nope.js: no such file");
  });

  it("a directory is refused with exit 2", async () => {
    const { code, stderr } = await sluice(["run", dir]);
    expect(code).toBe(2);
    expect(stderr).toContain("is a directory");
  });

  it("a plan with a syntax error fails with exit 1, naming the line and column", async () => {
    const path = await plan("bad.js", "// broken\nconst x = ;\n");
    const { code, stdout, stderr } = await sluice(["run", path]);
    expect(code).toBe(1);
    expect(stderr).toBe("");
    expect(stdout).toContain("status:  failed");
    expect(stdout).toContain("error:   syntax at line 2, column 11:");
    expect(stdout).toContain("calls:   none");
    const json = JSON.parse((await sluice(["run", path, "--json"])).stdout);
    expect(json.error).toMatchObject({ kind: "syntax", line: 2, column: 11 });
  });

  it("a construct outside the subset fails with kind unsupported", async () => {
    const path = await plan("class.js", "class A {}\n");
    const { code, stdout } = await sluice(["run", path, "--json"]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).error.kind).toBe("unsupported");
  });

  it("a tool error the plan does not catch fails with exit 1 and shows the tool's message", async () => {
    const path = await plan("nofile.js", 'read_file({ path: "/etc/passwd" });\n');
    const { code, stdout } = await sluice(["run", path]);
    expect(code).toBe(1);
    expect(stdout).toContain("the tool failed: no such file: /etc/passwd");
  });

  it("control characters in values are escaped, never written to the terminal", async () => {
    const path = await plan("ctl.js", 'const s = "a\\u001b[2Jb\\u202ec";\nconsole.log(s);\ns;\n');
    const { code, stdout } = await sluice(["run", path]);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/[\u001b\u202e]/);
    expect(stdout).toContain('value:   "a\\u001b[2Jb\\u202ec"');
    expect(stdout).toContain("log:     a\\u001b[2Jb\\u202ec");
  });

  it("relative paths resolve against the working directory given", async () => {
    await plan("rel.js", '"hello";\n');
    const { code, stdout } = await sluice(["run", "rel.js"], {}, dir);
    expect(code).toBe(0);
    expect(stdout).toContain('value:   "hello"');
  });
});
