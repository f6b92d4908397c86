/** The configuration: defaults, and a clear error for each mistake, naming the key. */
import { describe, expect, it } from "vitest";
import { McpConfigError, resolveMcpConfig } from "../../src/mcp/index.js";

function problems(config: unknown): readonly string[] {
  try {
    resolveMcpConfig(config, "/base");
  } catch (err) {
    expect(err).toBeInstanceOf(McpConfigError);
    return (err as McpConfigError).problems;
  }
  throw new Error("expected the configuration to be refused");
}

describe("MCP configuration", () => {
  it("fills in the defaults: untrusted, public results, principal mcp:<name>", () => {
    const { servers, warnings } = resolveMcpConfig({ mcpServers: { web: { url: "http://127.0.0.1:1/mcp" }, files: { command: "node", args: ["s.js"], cwd: "srv" } } }, "/base");
    expect(servers[0]).toMatchObject({ name: "web", trust: "untrusted", readers: "public", principal: "mcp:web", transport: { kind: "http" } });
    expect(servers[1].transport).toEqual({ kind: "stdio", command: "node", args: ["s.js"], cwd: "/base/srv" });
    expect(warnings).toEqual([]);
  });

  it("runs a stdio server without a cwd in the configuration's folder, so a relative path means a file next to it", () => {
    const { servers } = resolveMcpConfig({ mcpServers: { files: { command: "node", args: ["server.mjs"] } } }, "/home/me/project-config");
    expect(servers[0].transport).toEqual({ kind: "stdio", command: "node", args: ["server.mjs"], cwd: "/home/me/project-config" });
  });

  it("keeps keys other hosts use, with a warning, and skips disabled servers", () => {
    const { servers, warnings } = resolveMcpConfig({ mcpServers: { a: { command: "x", autoApprove: [] }, b: { command: "y", disabled: true } } });
    expect(servers.map((s) => s.name)).toEqual(["a"]);
    expect(warnings).toEqual(["mcpServers.a.autoApprove is not a key sluice knows; it is ignored"]);
  });

  it("names every mistake with its key and what is expected", () => {
    expect(
      problems({
        mcpServers: {
          files: { command: "node", trust: "yes", readers: "me", args: "s.js" },
          web: { url: "ftp://x" },
          both: { command: "a", url: "http://x" },
          none: {},
          "9lives": { command: "a" },
          tooly: { command: "a", tools: { t: { policy: "maybe", sideEffect: "no" } } },
        },
      }),
    ).toEqual([
      'mcpServers.files.args: expected an array of strings, got "s.js"',
      'mcpServers.files.trust: expected "trusted" or "untrusted", got "yes"',
      'mcpServers.files.readers: expected "public" or an array of principals (e.g. ["me"]), got "me"',
      'mcpServers.web.url: expected an http:// or https:// URL, e.g. http://127.0.0.1:8123/mcp, got "ftp://x"',
      'mcpServers.both: give either "command" (a stdio server) or "url" (a Streamable HTTP server), not both',
      'mcpServers.none: give either "command" (a stdio server) or "url" (a Streamable HTTP server)',
      'mcpServers["9lives"]: a server name must start with a letter or _ and hold only letters, digits, _, - and . (tools are called <server>_<tool>)',
      'mcpServers.tooly.tools.t.sideEffect: expected true or false, got "no"',
      expect.stringMatching(/^mcpServers\.tooly\.tools\.t\.policy: expected one of "default", "strict", .*, got "maybe"$/),
    ]);
  });

  it("a missing mcpServers or a non-object says what is expected", () => {
    expect(problems({ servers: {} })[0]).toMatch(/^mcpServers: expected an object keyed by server name/);
    expect(problems([])).toEqual(['expected an object with "mcpServers", got []']);
  });
});
