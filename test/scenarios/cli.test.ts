/**
 * `sluice scenarios` in-process: the table on stdout, usage errors on stderr with exit code 2,
 * and no progress bar when standard error is not a terminal.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main, type ScenarioIo } from "../../src/scenarios/index.js";
import { createProgress, progressLine } from "../../src/scenarios/progress.js";

function io(extra: Partial<ScenarioIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), env: {}, ...extra } as ScenarioIo };
}

describe("sluice scenarios", () => {
  it("prints the table and exits 0 when no attack succeeds; quiet on a non-terminal", async () => {
    const t = io({ isTTY: false });
    const code = await main(["--suite", "textbook", "--attack", "todo"], t.io);
    expect(code).toBe(0);
    expect(t.out.join("")).toContain("| textbook | 3 | 2 |");
    expect(t.err.join("")).toBe("");
  });

  it("writes the HTML report and prints JSON when asked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sluice-scenarios-"));
    const t = io({ cwd: dir });
    const code = await main(["--suite=textbook", "--attack=todo,ignore_previous", "--json", "--html", "report.html", "--no-baseline"], t.io);
    expect(code).toBe(0);
    const report = JSON.parse(t.out.join(""));
    expect(report.settings.attacks).toEqual(["todo", "ignore_previous"]);
    expect(report.settings.undefended).toBe(false);
    expect(readFileSync(join(dir, "report.html"), "utf8")).toContain("<h1>sluice scenarios");
  });

  it("rejects unknown suites, bad --jobs and real-model runs without a key, with exit code 2", async () => {
    for (const [args, message] of [
      [["--suite", "nope"], /unknown suite "nope"; known: workspace, banking, messaging, travel, textbook/],
      [["--jobs", "0"], /--jobs must be a whole number/],
      [["--repeat", "two"], /--repeat must be a whole number/],
      [["--plans", "corpus/plans", "--repeat", "2"], /--plans and --write-prompts take only/],
      [["--reader", "model"], /need ANTHROPIC_API_KEY/],
      [["--bogus"], /Unknown option '--bogus'/],
    ] as const) {
      const t = io();
      expect(await main([...args], t.io)).toBe(2);
      expect(t.err.join("")).toMatch(message);
    }
  });

  it("shows help", async () => {
    const t = io();
    expect(await main(["--help"], t.io)).toBe(0);
    expect(t.out.join("")).toContain("Usage: sluice scenarios");
  });
});

describe("the progress bar", () => {
  it("draws on a terminal only", () => {
    const drawn: string[] = [];
    let now = 0;
    const bar = createProgress({ total: 2, write: (t) => drawn.push(t), isTTY: true, now: () => (now += 200) });
    bar.tick("a");
    bar.tick("b");
    bar.done();
    expect(drawn.join("")).toContain(progressLine(2, 2, "b"));
    const quiet: string[] = [];
    const off = createProgress({ total: 2, write: (t) => quiet.push(t), isTTY: false });
    off.tick("a");
    off.done();
    expect(quiet).toEqual([]);
  });

  it("shows the share done", () => {
    expect(progressLine(1, 4, "x", 8)).toBe("██░░░░░░  25% 1/4 x");
  });
});
