/**
 * An endorsement vouches for a value at one argument; it says nothing about which keys the
 * argument object has. Once a person approved `to`, a later call with the same `to` must still
 * be judged on what decided its other keys (attack round 3, finding 3).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Label, allow, ask, createEndorsements, createRuntime, defineTool, endorsedView, type Policy, type ToolCall } from "../../src/index.js";
import { recordSource } from "../../src/testing/kit-tools.js";
import { toolCallView } from "../../src/runtime/call-view.js";

const EVE = Label.untrusted("email:eve");
const DIARY = Label.of({ trusted: true, readers: ["me"], sources: ["file:diary"] });

/** A policy that checks the whole call, as hand-written policies and sluice/testing's sinks do. */
const wholeCall: Policy = (call) => (call.label().trusted && call.label().isPublic && call.context.trusted && call.context.isPublic ? allow() : ask("the whole call must be trusted and public"));

async function allowedSends(program: string, flag: boolean, endorsements: boolean) {
  const tools = [
    recordSource("read_data", { to: "eve@x.example", flag }, EVE),
    recordSource("read_secret", { flag }, DIARY),
    defineTool({ name: "send", description: "Sends.", sideEffect: true, parameters: { type: "object" }, policy: wholeCall, run: () => ({}) }),
  ];
  const rt = createRuntime({ tools, approve: () => true, ...(endorsements ? { endorsements: createEndorsements() } : {}) });
  const r = await rt.run(program);
  expect(r.status).toBe("completed");
  return r.calls.filter((c) => c.tool === "send" && c.decision === "allow").map((c) => JSON.stringify(c.args));
}

describe("an endorsed call keeps the label of its arguments' shape", () => {
  it.each([
    ["untrusted data adds a key", `const u = read_data();\nsend({ to: u.to });\nconst m = { to: u.to };\nif (u.flag) m.urgent = 1;\nsend(m);`],
    ["secret data adds a key", `const u = read_data();\nconst s = read_secret();\nsend({ to: u.to });\nconst m = { to: u.to };\nif (s.flag) m.urgent = 1;\nsend(m);`],
    ["untrusted data deletes a key", `const u = read_data();\nsend({ to: u.to });\nconst m = { to: u.to, urgent: 1 };\nif (u.flag) delete m.urgent;\nsend(m);`],
  ])("%s after `to` was approved and endorsed: both runs decide alike", async (_what, program) => {
    const runs = [await allowedSends(program, true, true), await allowedSends(program, false, true)];
    expect(runs[0]).toEqual(runs[1]);
    // Without endorsements neither run allows the second call; an endorsement of `to` must not change that.
    expect(runs[1]).toEqual(await allowedSends(program, false, false));
  });
});

/** One change to the argument object's keys, at the top level or under a decision on data. */
const changeArb = fc.record({
  key: fc.constantFrom("cc", "urgent", "body"),
  what: fc.constantFrom("set", "delete", "undefined"),
  guard: fc.constantFrom("", "u.flag", "!u.flag", "s.flag"),
});

describe("property: an endorsement of `to` never makes two runs decide differently", () => {
  it("on generated programs that change which keys the call has", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(changeArb, { minLength: 1, maxLength: 3 }), async (changes) => {
        const lines = changes.map(({ key, what, guard }) => {
          const body = what === "set" ? `m.${key} = 1;` : what === "delete" ? `delete m.${key};` : `m.${key} = undefined;`;
          return guard === "" ? body : `if (${guard}) { ${body} }`;
        });
        const program = [`const u = read_data();`, `const s = read_secret();`, `send({ to: u.to });`, `const m = { to: u.to, body: "hi" };`, ...lines, `send(m);`].join("\n");
        const runs = [await allowedSends(program, true, true), await allowedSends(program, false, true)];
        if (JSON.stringify(runs[0]) !== JSON.stringify(runs[1])) throw new Error(`${program}\n${JSON.stringify(runs)}`);
      }),
      { numRuns: 60 },
    );
  });
});

describe("endorsedView", () => {
  const endorsement = (path: string, value: unknown) => ({ id: 1, at: "2025-01-01T00:00:00.000Z", tool: "send", path, value, by: "alice", reason: "approved" });
  const labels = fc.constantFrom(Label.trusted(), EVE, DIARY, EVE.join(DIARY));

  it("with a hit, label() is at least the root shape and the shape of every object above the hit", () => {
    fc.assert(
      fc.property(labels, labels, labels, labels, (root, inner, to, body) => {
        const args = { to: "bob@x.example", opts: { cc: "carol@x.example" }, body: "hi" };
        const call = toolCallView("send", args, [
          { path: "", label: root },
          { path: "to", label: to },
          { path: "opts", label: inner },
          { path: "opts.cc", label: to },
          { path: "body", label: body },
        ], Label.trusted());
        for (const [path, value] of [["to", args.to], ["opts.cc", args.opts.cc]] as const) {
          const view = endorsedView(call, [endorsement(path, value)]);
          expect(root.flowsTo(view.label())).toBe(true);
          expect(body.flowsTo(view.label())).toBe(true);
          if (path === "opts.cc") expect(inner.flowsTo(view.label("opts"))).toBe(true);
          // The endorsed value itself is trusted now.
          expect(view.label(path).trusted).toBe(true);
        }
      }),
    );
  });

  it("with no hit, it is the call itself", () => {
    const call: ToolCall = toolCallView("send", { to: "bob" }, [{ path: "", label: EVE }, { path: "to", label: DIARY }], Label.trusted());
    expect(endorsedView(call, [])).toBe(call);
  });
});
