/**
 * `@opentelemetry/api` is an optional peer: sluice must run, and its published declarations
 * must type-check, where it cannot be loaded. npm hoists the Anthropic SDK's copy next to
 * sluice, but pnpm and other strict layouts keep it out of sluice's reach.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
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

  it("the public declarations type-check under skipLibCheck: false", () => {
    const dir = mkdtempSync(join(tmpdir(), "sluice-no-otel-"));
    try {
      // sluice's declarations, as `npm run build` emits them.
      const build = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.build.json"), { outDir: join(dir, "dist"), emitDeclarationOnly: true, declaration: true, sourceMap: false }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
      const emitted = ts.createProgram({ rootNames: [join(root, "src/index.ts")], options: build.options }).emit();
      expect(emitted.emitSkipped).toBe(false);
      // A project with every package of ours but @opentelemetry/api (its other packages are links,
      // so the SDK still finds its own copy from where it really is, as under pnpm).
      const modules = join(dir, "node_modules");
      mkdirSync(join(modules, "@opentelemetry"), { recursive: true });
      for (const name of readdirSync(join(root, "node_modules"))) {
        if (name === "@opentelemetry" || name.startsWith(".")) continue;
        symlinkSync(join(root, "node_modules", name), join(modules, name));
      }
      for (const name of readdirSync(join(root, "node_modules/@opentelemetry"))) {
        if (name !== "api") symlinkSync(join(root, "node_modules/@opentelemetry", name), join(modules, "@opentelemetry", name));
      }
      const consumer = join(dir, "consumer.ts");
      writeFileSync(
        consumer,
        [
          `import { createRuntime, startRunSpan, traceparentOf, type RunSpan, type TraceSpan } from "./dist/index.js";`,
          `const run: RunSpan = startRunSpan();`,
          `const span: TraceSpan | undefined = run.span;`,
          `export const tp: string | undefined = traceparentOf(span);`,
          `export const runtime = createRuntime({ tools: [] });`,
        ].join("\n"),
      );
      const program = ts.createProgram({
        rootNames: [consumer],
        options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: false, noEmit: true, types: ["node"] },
      });
      const text = (d: ts.Diagnostic) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      const ours = ts
        .getPreEmitDiagnostics(program)
        .map(text)
        .filter((t) => t.startsWith(dir) && !t.includes("/node_modules/"));
      expect(ours).toEqual([]);
      // The consumer did read sluice's tracing declarations.
      expect(program.getSourceFiles().some((f) => f.fileName === join(dir, "dist/tracing/handle.d.ts"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
