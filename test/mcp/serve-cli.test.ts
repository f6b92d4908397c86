/** `sluice serve`'s arguments: bad ones are one-line usage errors, and help documents the command. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { isOneLine, sluice } from "../cli/capture.js";

describe("sluice serve", () => {
  test("is in the help, with its options", async () => {
    const { code, stdout } = await sluice(["help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("sluice serve [--mcp CONFIG.json [--pins FILE]] [--http PORT] [--approve yes|no]");
    expect(stdout).toContain("run_plan({ source })");
  });

  test.each([
    [["serve", "--http", "eighty"], /--http needs a port number from 0 to 65535/],
    [["serve", "--http", "70000"], /--http needs a port number/],
    [["serve", "--approve", "maybe"], /--approve must be yes or no/],
    [["serve", "extra"], /takes no argument "extra"/],
    [["serve", "--mcp", "no-such-config.json"], /no-such-config\.json is not valid: cannot read it: no such file/],
  ])("%j is a usage error", async (argv, message) => {
    const { code, stderr, stdout } = await sluice(argv);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(isOneLine(stderr)).toBe(true);
    expect(stderr).toMatch(message);
  });

  test("a configuration that is not JSON is a usage error naming the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sluice-serve-"));
    writeFileSync(join(dir, "mcp.json"), "{ mcpServers: ");
    const { code, stderr } = await sluice(["serve", "--mcp", "mcp.json"], {}, dir);
    expect(code).toBe(2);
    expect(stderr).toMatch(/mcp\.json is not valid: it is not JSON/);
  });

  test("a port already taken is an error, not a crash", async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    const port = (taken.address() as { port: number }).port;
    const { code, stderr } = await sluice(["serve", "--http", String(port)]);
    taken.close();
    expect(code).toBe(1);
    expect(isOneLine(stderr)).toBe(true);
    expect(stderr).toContain(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
  });
});
