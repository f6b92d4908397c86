import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HELP } from "../../src/cli/help.js";
import { isOneLine, sluice } from "./capture.js";

describe("sluice help, version and usage errors", () => {
  for (const argv of [["--help"], ["-h"], ["help"], ["run", "--help"], ["ask", "-h"], ["demo", "--help"]]) {
    it(`sluice ${argv.join(" ")} prints the help and exits 0`, async () => {
      const { code, stdout, stderr } = await sluice(argv);
      expect(code).toBe(0);
      expect(stderr).toBe("");
      expect(stdout).toBe(HELP);
    });
  }

  it("the help names every command, option and exit code", () => {
    for (const word of ["sluice demo", "sluice run PLAN.js", 'sluice ask "REQUEST"', "--json", "--reader", "--approve", "--model", "--version", "ANTHROPIC_API_KEY", "Exit codes: 0 completed", "1 failed", "2 usage error", "3 blocked"]) {
      expect(HELP).toContain(word);
    }
    expect(Math.max(...HELP.split("\n").map((l) => l.length))).toBeLessThanOrEqual(90);
  });

  it("--version prints the package version", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const { code, stdout } = await sluice(["--version"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`sluice ${pkg.version}\n`);
  });

  const usageErrors: Array<[string[], string]> = [
    [[], "no command given"],
    [["frobnicate"], 'unknown command "frobnicate"'],
    [["run"], "needs a plan file"],
    [["run", "a.js", "b.js"], "takes one plan file"],
    [["run", "a.js", "--reader", "gpt"], "--reader must be adversarial or benign"],
    [["run", "a.js", "--approve", "maybe"], "--approve must be yes or no"],
    [["run", "a.js", "--reader"], "--reader needs a value"],
    [["demo", "--verbose"], "unknown option --verbose for `sluice demo`"],
    [["demo", "--json=yes"], "--json takes no value"],
    [["demo", "extra"], "takes no argument"],
  ];
  for (const [argv, message] of usageErrors) {
    it(`sluice ${argv.join(" ") || "(nothing)"}: one line on stderr, exit 2`, async () => {
      const { code, stdout, stderr } = await sluice(argv);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(isOneLine(stderr)).toBe(true);
      expect(stderr).toContain(message);
      expect(stderr.startsWith("sluice: ")).toBe(true);
    });
  }
});
