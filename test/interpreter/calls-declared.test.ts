/**
 * The call gate trusts a builtin's `calls: false`: it collects no callback answers for it (the
 * fast path, rules-calls.ts callPlain). Every builtin that declares it is called here with
 * functions in every argument position, on a receiver of its kind; none may run one.
 */
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { arrayMethods, arrayStatics } from "../../src/interpreter/builtins/array.js";
import { dateMethods } from "../../src/interpreter/builtins/date.js";
import { builtinGlobals } from "../../src/interpreter/builtins/globals.js";
import { mapMethods, setMethods } from "../../src/interpreter/builtins/collections.js";
import { numberMethods } from "../../src/interpreter/builtins/number.js";
import { regexpMethods } from "../../src/interpreter/builtins/regexp.js";
import { stringMethods } from "../../src/interpreter/builtins/string.js";
import type { BuiltinImpl, Fn } from "../../src/interpreter/values.js";

const runtime = createRuntime();

/** `callee` is an expression naming the builtin; `(setup)` runs first. */
function sites(): { callee: string; setup: string }[] {
  const out: { callee: string; setup: string }[] = [];
  const methods: [Map<string, BuiltinImpl>, string][] = [
    [stringMethods, `const r = "a,b";`],
    [arrayMethods, `const r = [3, 1, 2];`],
    [numberMethods, `const r = 12.5;`],
    [dateMethods, `const r = new Date(0);`],
    [regexpMethods, `const r = /a/g;`],
    [mapMethods, `const r = new Map([["a", 1]]);`],
    [setMethods, `const r = new Set(["a"]);`],
  ];
  for (const [table, setup] of methods) {
    for (const [name, impl] of table) if (impl.calls === false) out.push({ callee: `r.${name}`, setup });
  }
  for (const name of Object.keys(arrayStatics)) if (arrayStatics[name].calls === false) out.push({ callee: `Array.${name}`, setup: "" });
  for (const [global, v] of builtinGlobals()) {
    const fn = v as Fn;
    if (typeof v !== "object" || v === null || fn.statics === undefined) continue;
    for (const [name, s] of fn.statics) {
      const b = (s as Fn | undefined)?.builtin;
      if (b !== undefined && b.calls === false) out.push({ callee: `${global}.${name}`, setup: "" });
    }
  }
  return out;
}

describe("builtins that declare they call nothing", () => {
  const all = sites();

  it("are found in every table", () => {
    expect(all.length).toBeGreaterThan(100);
  });

  it.each(all.map((s) => [s.callee, s.setup]))("%s runs none of the functions it is given", async (callee, setup) => {
    const source = `${setup}
let ran = 0;
const f = () => { ran = ran + 1; return 1; };
const o = { valueOf: f, toString: f, toJSON: f };
try { ${callee}(f, f, f); } catch (e) {}
try { ${callee}(o, o, o); } catch (e) {}
ran`;
    const r = await runtime.run(source);
    expect(r.error?.kind ?? "none", `${callee}: ${r.error?.message ?? ""}`).not.toBe("internal");
    if (r.status === "completed") expect(r.value, callee).toBe(0);
  });
});
