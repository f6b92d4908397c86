/**
 * Whether a tool call fails is decided by the remote side (its server, the network), not by the
 * program: inside a try, what follows the call runs under the label its failure would carry,
 * whether or not it failed (the call layer's `failureLabel`, untrusted when the host gives none).
 */
import { describe, expect, it } from "vitest";
import { compileProgram, type HostOutcome } from "../../src/interpreter/program.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/state.js";
import { Label } from "../../src/labels/index.js";

const program = compileProgram(`let s = "ok";\ntry { weather({}); } catch (e) { s = "down"; }\nif (s === "ok") send({ to: "boss@corp.com" });`, { hostFunctions: ["weather", "send"] });

/** The context of the `send` the program asks for after `weather` answered `outcome`. */
function contextOfSend(outcome: HostOutcome): Label | undefined {
  const ex = program.execute([outcome], DEFAULT_LIMITS);
  return ex.kind === "suspended" ? ex.requests[0].context : undefined;
}

describe("a tool call inside a try", () => {
  it("a success does not let the remote side decide a trusted sink call: the catch not taken was its choice", () => {
    expect(contextOfSend({ kind: "value", value: { temp: 20 }, label: Label.trusted() })?.trusted).toBe(false);
  });

  it("a failure: the catch runs under the error's label", () => {
    const ex = program.execute([{ kind: "error", cls: "Error", message: "weather failed", label: Label.untrusted("weather") }], DEFAULT_LIMITS);
    // s is "down": no send; the run completes with a value decided by the failure.
    expect(ex.kind).toBe("completed");
    expect(ex.kind === "completed" && ex.label.trusted).toBe(false);
  });

  it("a host that says what a failure would carry: a trusted failure label keeps the sink trusted", () => {
    expect(contextOfSend({ kind: "value", value: { temp: 20 }, label: Label.trusted(), failureLabel: Label.trusted() })?.trusted).toBe(true);
  });

  it("outside a try, a success decides nothing", () => {
    const plain = compileProgram(`weather({});\nsend({ to: "boss@corp.com" });`, { hostFunctions: ["weather", "send"] });
    const ex = plain.execute([{ kind: "value", value: {}, label: Label.trusted() }], DEFAULT_LIMITS);
    expect(ex.kind === "suspended" && ex.requests[0].context.trusted).toBe(true);
  });

  it("the failure label joins the untrusted label of whatever the remote side could have decided, readers kept", () => {
    const failure = Label.of({ trusted: false, readers: ["me"], sources: ["mcp:files"] });
    const ctx = contextOfSend({ kind: "value", value: {}, label: Label.trusted(), failureLabel: failure });
    expect(ctx?.trusted).toBe(false);
    expect(ctx?.readers).toEqual(["me"]);
  });
});
