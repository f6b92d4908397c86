import { describe, expect, it } from "vitest";
import { createRuntime } from "../src/index.js";

describe("smoke", () => {
  it("runs", async () => {
    const rt = createRuntime();
    const r = await rt.run(`const xs = [1,2,3].map(x => x * 2); let s = 0; for (const x of xs) s += x; ({ s, t: \`\${s}!\`, j: JSON.stringify({a: xs}) })`);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ s: 12, t: "12!", j: '{"a":[2,4,6]}' });
  });
});
