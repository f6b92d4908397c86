/**
 * `@opentelemetry/api` is an optional peer: sluice must run, and its published declarations
 * must type-check, where it cannot be loaded. npm hoists the Anthropic SDK's copy next to
 * sluice, but pnpm and other strict layouts keep it out of sluice's reach.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const support = fileURLToPath(new URL("./support/", import.meta.url));

describe("without @opentelemetry/api", () => {
  it("a runtime runs a plan with a tool, and tracing does nothing", async () => {
    // A child process whose module resolution hides the package from everything outside node_modules.
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", join(support, "hide-otel.mjs"), "--import", "tsx", join(support, "run-without-otel.ts")], { cwd: root, timeout: 60_000 });
    const out = JSON.parse(stdout.trim().split("\n").pop()!);
    // The hook really hides it from sluice's code, and only from it (the SDK depends on it).
    expect(out).toMatchObject({ fromSluice: false, fromSdk: true });
    expect(out).toMatchObject({ status: "completed", value: "SLUICE!", calls: ["lookup"] });
    expect(out.seen).toEqual([{}]);
  });
});
