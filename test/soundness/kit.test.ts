/**
 * The `sluice/testing` kit as a tool author uses it (the README example): generated plans call
 * the author's own sink, and checkNoninterference tells a sound policy from a leaky one.
 */
import { describe, expect, it } from "vitest";
import { Label, allow, ask, defineTool, type Tool } from "../../src/index.js";
import { checkNoninterference, inputPairArb, labeledListSource, obedientReader, planArb, recordSource, type SoundnessInput } from "../../src/testing/index.js";
import { KNOWN_LEAK_FEATURES } from "./support.js";

/** The author's sink: the recipient must not be chosen by untrusted data; the body may be. */
function sendEmail(policy: Tool["policy"]): Tool {
  return defineTool({
    name: "send_email",
    description: "Sends an email.",
    parameters: { type: "object", properties: { to: { type: "string" }, body: { type: "string" } }, required: ["to", "body"] },
    sideEffect: true,
    policy,
    run: () => ({ sent: true }),
  });
}

const sound = sendEmail((call) => (call.label("to").trusted && call.context.trusted ? allow() : ask("the recipient was chosen by untrusted data")));
const leaky = sendEmail((call) => (call.label("to").trusted ? allow() : ask("the recipient was chosen by untrusted data")));

/** The data the plans read, labelled as the author's own tools would label it. */
function tools(input: SoundnessInput, sink: Tool): Tool[] {
  return [
    recordSource("read_untrusted", input.u, Label.untrusted("email:eve@evil.com")),
    recordSource("read_secret", input.s, Label.of({ trusted: true, readers: ["alice"] })),
    recordSource("read_trusted", input.t, Label.trusted()),
    labeledListSource("read_list", input.list.map((value, i) => ({ value, label: i === 1 ? Label.untrusted("web") : Label.trusted() }))),
    sink,
  ];
}

async function check(sink: Tool) {
  return checkNoninterference({
    // (The README example has no `avoid`; here the interpreter's own known leaks are left out.)
    programs: planArb({ sinks: [{ name: "send_email", args: { to: "string", body: "string" } }], avoid: KNOWN_LEAK_FEATURES }),
    inputs: inputPairArb("integrity"),
    tools: (input) => tools(input, sink),
    observe: ["send_email"],
    varying: "untrusted",
    // The attacker may write the body; only who receives it must not be theirs to decide.
    compare: (call) => call.args.to,
    numRuns: 300,
    seed: 5,
    runtime: { quarantined: obedientReader(), approve: () => true, limits: { steps: 50_000 } },
  });
}

describe("sluice/testing for tool authors", () => {
  it("passes a policy that checks the recipient's label and the context", async () => {
    const report = await check(sound);
    expect(report.counterexample).toBeUndefined();
  });

  it("finds the implicit flow a policy that ignores the context lets through", async () => {
    const report = await check(leaky);
    expect(report.failed).toBe(true);
    console.log(`leaky policy, counterexample after ${report.runs} plans:\n${report.counterexample?.program}`);
    expect(report.counterexample!.traces[0]).not.toEqual(report.counterexample!.traces[1]);
  });
});
