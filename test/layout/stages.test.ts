/**
 * The stage order of the tool-call layer's phase 2 (docs/tool-calls.md): `calls` and `tracing`
 * come before `runtime`, so the runtime may call them and they never reach back into it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(__dirname, "..", "..", "src");

/** The stages a folder of src/ imports, from its relative import paths. */
function importedStages(stage: string): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) {
        for (const m of readFileSync(path, "utf8").matchAll(/from "((?:\.\.\/)+)([a-z0-9-]+)\//g)) {
          const depth = m[1].length / 3;
          const below = path.slice(SRC.length + 1).split("/").length - 1;
          if (depth === below) out.add(m[2]);
        }
      }
    }
  };
  walk(join(SRC, stage));
  out.delete(stage);
  return out;
}

const LATER = ["runtime", "mcp", "a2a", "search", "models", "scenarios", "testing", "cli", "plancheck"];

describe("stage order around the tool-call layer", () => {
  it.each([
    ["calls", ["tracing", ...LATER]],
    ["tracing", LATER],
    ["runtime", LATER.filter((s) => s !== "runtime")],
  ])("%s imports no later stage", (stage, later) => {
    const imported = [...importedStages(stage)];
    expect(imported.filter((s) => later.includes(s))).toEqual([]);
  });

  it("the runtime does import the layer and tracing (the check sees imports at all)", () => {
    expect([...importedStages("runtime")]).toEqual(expect.arrayContaining(["calls", "tracing", "interpreter"]));
  });
});
