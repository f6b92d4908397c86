/**
 * Run by test/tracing/without-otel.test.ts under hide-otel.mjs: checks that the package is
 * really out of sluice's reach, then runs a plan with a tool and prints what happened as JSON.
 */
import { createRequire } from "node:module";
import { createRuntime, defineTool } from "../../../src/index.js";

function loads(from: string): boolean {
  try {
    createRequire(from)("@opentelemetry/api");
    return true;
  } catch (err) {
    if ((err as { code?: string }).code !== "MODULE_NOT_FOUND") throw err;
    return false;
  }
}

const seen: { traceparent?: string }[] = [];
const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  run: ({ word }: { word: string }, ctx) => {
    seen.push({ ...(ctx?.traceparent !== undefined ? { traceparent: ctx.traceparent } : {}) });
    return word.toUpperCase();
  },
});
const result = await createRuntime({ tools: [lookup] }).run("const w = lookup({ word: 'sluice' }); w + '!'");
console.log(
  JSON.stringify({
    fromSluice: loads(new URL("../../../src/tracing/otel.ts", import.meta.url).href),
    fromSdk: loads(createRequire(import.meta.url).resolve("@anthropic-ai/sdk")),
    status: result.status,
    error: result.error,
    value: result.value,
    calls: result.calls.map((c) => c.tool),
    seen,
  }),
);
