/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned) against
 * `sluice serve --http` on a free port, offline: every server scenario that revisions
 * 2025-11-25 and 2026-07-28 require, each at its own wire version. The checks sluice is
 * expected to fail are listed, with the reason, in test/mcp/conformance/; the suite fails
 * the run on any other failure and on a listed check that passes.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startHttp, type Started } from "./serve-support.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const suite = `${root}node_modules/@modelcontextprotocol/conformance/dist/index.js`;
const node20 = `${root}test/support/conformance/register.mjs`;

let server: Started;
const outDirs: string[] = [];

beforeAll(async () => {
  server = await startHttp();
});

afterAll(async () => {
  await server.handle.stop();
  for (const d of outDirs) rmSync(d, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: string;
}

/** Each scenario's checks, by scenario name, from the suite's output directory. */
function checksByScenario(dir: string): Map<string, Check[]> {
  const out = new Map<string, Check[]>();
  for (const entry of readdirSync(dir)) {
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
    try {
      out.set(scenario, JSON.parse(readFileSync(join(dir, entry, "checks.json"), "utf8")) as Check[]);
    } catch {
      // A directory without checks is not a scenario's.
    }
  }
  return out;
}

function runSuite(revision: string, outDir: string): Promise<{ code: number; output: string }> {
  const args = ["--import", node20, suite, "server", "--url", server.url, "--requirements", revision];
  args.push("--expected-failures", `${root}test/mcp/conformance/expected-failures-${revision}.yml`, "-o", outDir);
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: outDir, timeout: 240_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

test.each([
  ["2025-11-25", ["server-initialize", "ping", "logging-set-level", "tools-list", "dns-rebinding-protection", "server-session-lifecycle"]],
  ["2026-07-28", ["tools-list", "dns-rebinding-protection", "http-header-validation", "input-required-result-validate-input"]],
])(
  "conformance %s: every failure is one the baseline lists",
  async (revision, mustPass) => {
    const outDir = mkdtempSync(join(tmpdir(), `sluice-conformance-${revision}-`));
    outDirs.push(outDir);
    const { code, output } = await runSuite(revision, outDir);
    expect(output, output.slice(-4000)).toContain("Baseline check passed");
    expect(code).toBe(0);
    // The scenarios sluice must pass ran, and every one of their checks passed.
    const checks = checksByScenario(outDir);
    for (const scenario of mustPass) {
      const found = checks.get(scenario);
      expect(found, `${scenario} did not run`).toBeDefined();
      expect(found!.length).toBeGreaterThan(0);
      expect(found!.filter((c) => c.status === "FAILURE").map((c) => c.id), scenario).toEqual([]);
    }
  },
  300_000,
);
