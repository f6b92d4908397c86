/** What the call-path tests share: their timing tools. */
import { Label, defineTool } from "../../src/index.js";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A tool with an object parameter whose results are trusted: these tests are about timing, not labels. */
export function trustedTool<A>(spec: { name: string; description?: string; retry?: { attempts: number }; run: (a: A) => unknown }) {
  return defineTool({ description: spec.name, parameters: { type: "object" }, label: () => Label.trusted(), ...spec } as Parameters<typeof defineTool>[0]);
}
