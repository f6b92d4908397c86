/**
 * vitest globalSetup: builds the sluice command once per test run, for every test that starts
 * it as a child process the way an MCP host does (`inject("sluiceCli")` gives the path of its
 * main.js). The build is a transpile of src/ with rolldown, one output file per source file
 * (the same layout as `npm run build`, so `import.meta.url` paths hold), into
 * node_modules/.cache, so it never touches the dist/ of `npm run build`. Types are checked by
 * `npm run typecheck`, which `npm test` runs first; this only needs runnable JavaScript, in
 * about a second instead of tsc's half minute.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import type { TestProject } from "vitest/node";

const root = fileURLToPath(new URL("../..", import.meta.url));
const outDir = `${root}node_modules/.cache/sluice-test-cli`;

declare module "vitest" {
  export interface ProvidedContext {
    /** The path of the built command's entry point (cli/main.js). */
    sluiceCli: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    cwd: root,
    // The worker is started by its URL, not imported, so it is an entry of its own.
    input: { "cli/main": `${root}src/cli/main.ts`, "runtime/worker": `${root}src/runtime/worker.ts` },
    platform: "node",
    // Packages stay imports, resolved from node_modules at run time, as in dist/.
    external: [/^[^./]/],
    logLevel: "silent",
    output: { dir: outDir, format: "esm", preserveModules: true, preserveModulesRoot: `${root}src`, entryFileNames: "[name].js" },
  });
  project.provide("sluiceCli", `${outDir}/cli/main.js`);
}
