/**
 * Guards that end the run (issue 15, precision; docs/security-model.md "Guards that end the
 * run"): a branch that can only throw, decided by private or untrusted data, where no try is open
 * at any depth and no finally waits after a catch block. Every run that goes on did not take it,
 * so what follows (an else branch included) does not carry its decision; inside a try, or in a
 * catch block whose finally runs after it, it does. Also: a method of a value made right there
 * (`/chlo/i.test(p.name)` in a callback over private data) no longer raises the floor.
 */
import { describe, expect, it } from "vitest";
import { createRuntime, defineTool, Label } from "../../src/index.js";

async function contexts(program: string, list: unknown[]) {
  const seen: Array<{ value: unknown; context: string }> = [];
  const payees = defineTool({ name: "get_payees", description: "The user's payees.", parameters: { type: "object", properties: {} }, label: () => Label.of({ trusted: true, readers: ["alex"], sources: ["bank"] }), run: () => structuredClone(list) });
  const send = defineTool({
    name: "send",
    description: "Sends.",
    parameters: { type: "object", properties: { value: {} } },
    sideEffect: true,
    policy: (call) => (seen.push({ value: call.args.value, context: call.context.isPublic ? "public" : "private" }), { kind: "allow" }),
    run: () => ({ ok: true }),
  });
  const r = await createRuntime({ tools: [payees, send] }).run(`const payees = get_payees();\n${program}`);
  return { seen, status: r.status };
}

const CHLOE = [{ name: "Chloé", iban: "FR14" }];

describe("a guard that ends the run", () => {
  it.each([
    ["the live plan's guard (banking 3)", `const matches = payees.filter((p) => /chlo[ée]/i.test(p.name ?? ""));\nif (matches.length !== 1 || !matches[0].iban) {\n  throw new Error(matches.length === 0 ? "not found" : "more than one");\n}\nsend({ value: "Concert tickets" });`],
    ["a guard with writes before its throw", `let why = "";\nif (payees.length === 0) { why = "none"; throw new Error(why); }\nsend({ value: why });`],
    ["the else branch of a guard", `if (payees.length === 0) { throw new Error("none"); } else { send({ value: "x" }); }`],
    ["a guard in the else branch", `if (payees.length > 0) { send({ value: "x" }); } else throw new Error("none");`],
    ["a guard in a helper", `function pick(xs) { const m = xs.find((p) => p.name === "Chloé"); if (!m) throw new Error("none"); return 1; }\npick(payees);\nsend({ value: "x" });`],
    ["a guard in a callback", `payees.forEach((p) => { if (!p.iban) throw new Error("no iban"); });\nif (payees.length === 0) throw new Error("none");\nsend({ value: "x" });`],
  ])("%s: the send after it runs in a public context", async (_what, program) => {
    const { seen, status } = await contexts(program, CHLOE);
    expect(status).toBe("completed");
    expect(seen.map((s) => s.context)).toEqual(["public"]);
    const failing = await contexts(program, []);
    expect(failing.status).toBe("failed");
    expect(failing.seen).toEqual([]);
  });

  it.each([
    ["inside a try", `try { if (payees.length === 0) { throw new Error("none"); } send({ value: "x" }); } catch {}`],
    ["in a function called inside a try", `const check = () => { if (payees.length === 0) throw new Error("none"); };\ntry { check(); send({ value: "x" }); } catch {}`],
    ["in a catch block whose finally runs after it", `try { throw 0; } catch { if (payees.length === 0) { throw new Error("none"); } send({ value: "x" }); } finally { send({ value: "f" }); }`],
    ["a branch that may complete (a return before its throw)", `function f() { if (payees.length === 0) { if (payees) return 1; throw new Error("none"); } send({ value: "x" }); }\nf();`],
  ])("%s: what follows still carries the decision", async (_what, program) => {
    const { seen } = await contexts(program, CHLOE);
    expect(seen[0]).toEqual({ value: "x", context: "private" });
  });
});

describe("a method of a value made right there", () => {
  it("a regex literal's test in a callback over private data leaves the floor alone", async () => {
    const { seen } = await contexts(`const m = payees.filter((p) => /chlo/i.test(p.name));\nsend({ value: "x" });`, CHLOE);
    expect(seen).toEqual([{ value: "x", context: "public" }]);
  });
  it("a method of a call's result in a callback over private data leaves the floor alone (banking 12)", async () => {
    const { seen } = await contexts(`const m = payees.filter((p) => (p.name ?? "").toLowerCase().includes("chlo"));\nsend({ value: "x" });`, CHLOE);
    expect(seen).toEqual([{ value: "x", context: "public" }]);
  });
  it("a changing method of a receiver data chose still raises the floor", async () => {
    const { seen } = await contexts(`const o = { a: [1] };\nconst k = "a";\npayees.forEach((p) => { o[k].push(1); });\nsend({ value: "x" });`, CHLOE);
    expect(seen).toEqual([{ value: "x", context: "private" }]);
  });
  it("a callback passed to a literal array's method is still upgraded", async () => {
    const { seen } = await contexts(`let z = 0;\nconst bump = () => { z = 1; return true; };\npayees.filter((p) => [p].some(bump));\nsend({ value: z });`, []);
    const program = `let z = 0;\nconst bump = () => { z = 1; return true; };\npayees.filter((p) => [p].some(bump));\nif (z === 0) send({ value: "x" });`;
    expect(seen).toEqual([{ value: 0, context: "public" }]);
    // z carries the list's length either way: the send it decides runs in a private context.
    expect((await contexts(program, [])).seen).toEqual([{ value: "x", context: "private" }]);
  });
});
