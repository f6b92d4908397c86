/**
 * Which protocol revision sluice speaks with a server: "auto" (the default) asks for
 * 2026-07-28 and falls back to the 2025 handshake; "legacy" and "2026-07-28" go straight to
 * one, with one server process instead of two. A bad value is a configuration error.
 */
import { describe, expect, it } from "vitest";
import { connectMcp, createRuntime, McpConfigError } from "../../src/index.js";
import { connect, homeFolder, referenceServer, testServer } from "./support.js";

const notes = { command: "node", args: [testServer("notes")] };

describe("protocol", () => {
  it("auto: 2026-07-28 with a server that offers it, the 2025 handshake with one that does not (published, and hand-written 2025-06-18)", async () => {
    const home = homeFolder();
    const mcp = await connect({
      mcpServers: {
        notes: { ...notes, protocol: "auto" },
        files: { command: "node", args: [referenceServer("filesystem"), home], protocol: "auto" },
        raw: { command: "node", args: [testServer("raw")], protocol: "auto" },
      },
    });
    expect(Object.fromEntries(mcp.servers.map((s) => [s.name, s.protocolVersion]))).toEqual({ notes: "2026-07-28", files: "2025-11-25", raw: "2025-06-18" });
    // Both eras carry calls alike.
    const result = await createRuntime({ tools: mcp.tools }).run(`[notes_list_notes().notes.length, JSON.stringify(files_list_allowed_directories())]`);
    expect(result.value).toEqual([2, expect.stringContaining(home)]);
  });

  it("auto is the default, and options.protocol sets it for every server whose entry does not say", async () => {
    // connectMcp itself: the tests' connect() pins every server's revision.
    const byDefault = await connectMcp({ mcpServers: { a: notes } });
    const legacy = await connectMcp({ mcpServers: { a: notes, b: { ...notes, protocol: "2026-07-28" } } }, { protocol: "legacy" });
    try {
      expect(byDefault.servers.map((s) => s.protocolVersion)).toEqual(["2026-07-28"]);
      expect(legacy.servers.map((s) => s.protocolVersion)).toEqual(["2025-11-25", "2026-07-28"]);
    } finally {
      await Promise.all([byDefault.close(), legacy.close()]);
    }
  });

  it("2026-07-28 with a server that does not offer it: a connection error that says what to set instead", async () => {
    await expect(connect({ mcpServers: { files: { command: "node", args: [referenceServer("filesystem"), homeFolder()], protocol: "2026-07-28" } } })).rejects.toThrow(
      /could not connect to the MCP server files: .*pinned to 2026-07-28; "auto" falls back to the 2025 handshake/,
    );
  });

  it("a value sluice does not know is a configuration error naming the key", async () => {
    await expect(connect({ mcpServers: { notes: { ...notes, protocol: "2024" as never } } })).rejects.toThrow(McpConfigError);
    await expect(connect({ mcpServers: { notes: { ...notes, protocol: "2024" as never } } })).rejects.toThrow(/mcpServers\.notes\.protocol: expected "auto", "legacy", "2026-07-28"/);
  });
});
