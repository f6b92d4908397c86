/**
 * A conditional spread over keys already there (workspace 15's live plans:
 * `create_event({ ..., participants: [leo.email], ...(hike.place ? { location: hike.place } : {}) })`).
 * Which keys the spread brings was decided by untrusted data, so a key it may bring carries that
 * decision, overwritten or not, and so do which keys the result has and their order. A key the
 * spread's text cannot bring (`participants`, when the text is a literal naming `location` only)
 * keeps its own label. Where the text does not bound the keys (a variable, a computed key, a
 * spread inside, `||`, `??`), every key already there may be overwritten.
 */
import { describe, expect, it } from "vitest";
import { createRuntime, defineTool, Label, type Tool } from "../../src/index.js";
import { cleanFor, runPair, soundnessTools, type SoundnessInput } from "../../src/testing/index.js";
import { RUNTIME, input } from "./support.js";

/** A sink that sends to its `arg`: allowed when untrusted data chose neither that argument nor whether to call. */
function sink(name: string, arg: string): Tool {
  return defineTool({
    name,
    description: `Sends to \`${arg}\`.`,
    parameters: { type: "object", properties: { [arg]: {} } },
    sideEffect: true,
    policy: (call) => (call.label(arg).trusted && call.context.trusted ? { kind: "allow" } : { kind: "ask", reason: `untrusted data chose ${arg}` }),
    run: () => ({ ok: true }),
  });
}

const invite = (): Tool => sink("invite", "to");

const tools = (i: SoundnessInput) => [...soundnessTools(i, { guard: "integrity" }), invite()];

async function decisions(program: string, i: SoundnessInput): Promise<string[]> {
  const r = await createRuntime({ ...RUNTIME, tools: tools(i) }).run(program);
  expect(r.error, program).toBeUndefined();
  return r.calls.filter((c) => c.tool === "invite" || c.tool === "send").map((c) => `${c.tool}: ${c.decision}`);
}

const U = "const u = read_untrusted();\nconst t = read_trusted();\n";
const BOTH: [SoundnessInput, SoundnessInput] = [input({ u: { c: true, a: 1, b: "eve@evil.com" } }), input({ u: { c: false, a: 0, b: "" } })];

describe("a spread whose text bounds its keys leaves the other keys alone", () => {
  it.each([
    ["a literal or nothing (the live plans)", `...(u.c ? { location: u.b } : {})`],
    ["a literal or null", `...(u.c ? { location: u.b } : null)`],
    ["undefined or a literal", `...(u.c ? undefined : { location: u.b, notes: "x" })`],
    ["`&&`", `...(u.c && { location: u.b })`],
    ["`&&` on a string", `...(u.b && { location: u.b })`],
    ["nested conditionals", `...(u.a > 0 ? { location: u.b } : u.c ? { notes: u.b } : {})`],
    ["two spreads", `...(u.c ? { location: u.b } : {}), ...(u.a > 0 ? { notes: u.b } : {})`],
    ["a numeric key", `...(u.c ? { 0: u.b } : {})`],
  ])("%s: the recipient written before it stays trusted", async (_what, spread) => {
    const program = `${U}invite({ to: "leo@example.com", title: "Hike", ${spread} });`;
    for (const i of BOTH) expect(await decisions(program, i), program).toEqual(["invite: allow"]);
  });

  it("workspace 15's shape: a contact's address next to a place from the inbox, after filtering the inbox by sender", async () => {
    const contacts = defineTool({ name: "find_contact", description: "A contact.", parameters: { type: "object", properties: {} }, label: () => Label.of({ trusted: true, readers: ["maya"], sources: ["contacts"] }), run: () => ({ email: "Leo@example.com" }) });
    const inbox = (place: string) => defineTool({
      name: "get_received_emails",
      description: "The inbox.",
      parameters: { type: "object", properties: {} },
      label: () => Label.of({ trusted: false, readers: ["maya"], sources: ["inbox"] }),
      run: () => [{ from: "billing@example.com", place: "" }, { from: "leo@example.com", place }],
    });
    const createEvent = sink("create_event", "participants");
    const program = [
      `const leo = find_contact();`,
      `const fromLeo = get_received_emails().filter((e) => (e.from ?? "").toLowerCase() === leo.email.toLowerCase());`,
      `const place = fromLeo[0].place;`,
      `create_event({ title: "Hike with Leo", participants: [leo.email], ...(place ? { location: place } : {}) });`,
    ].join("\n");
    for (const place of ["Pantoll trailhead", ""]) {
      const r = await createRuntime({ tools: [contacts, inbox(place), createEvent] }).run(program);
      expect(r.calls.map((c) => `${c.tool}: ${c.decision}`), place).toEqual(["find_contact: allow", "get_received_emails: allow", "create_event: allow"]);
    }
  });

  it("what the spread may bring, and the result's keys, still carry the decision", async () => {
    for (const read of ["ev.location ?? 0", "Object.keys(ev).length", "JSON.stringify(ev)", `"location" in ev`]) {
      const program = `${U}const ev = { to: "leo@example.com", ...(u.c ? { location: "x" } : {}) };\nsend({ value: ${read} });`;
      for (const i of BOTH) expect(await decisions(program, i), program).toEqual(["send: ask"]);
    }
  });
});

/** Two runs that differ only in the untrusted record see the same allowed calls (and asks in a clean context). */
async function expectAgree(program: string): Promise<void> {
  const pair = await runPair(`${U}${program}`, BOTH, { tools, observe: ["invite", "send"], clean: cleanFor("untrusted"), runtime: RUNTIME });
  expect(pair.results.map((r) => r.status), program).toEqual(["completed", "completed"]);
  expect(pair.traces[0], program).toEqual(pair.traces[1]);
}

describe("near misses stay sound", () => {
  it.each([
    ["the key is in the literal", `invite({ to: "leo@example.com", ...(u.c ? { to: "eve@evil.com" } : {}) });`],
    ["the key is in the other branch", `invite({ to: "leo@example.com", ...(u.c ? {} : { to: "eve@evil.com" }) });`],
    ["the key is in a nested conditional", `invite({ to: "leo@example.com", ...(u.a > 0 ? { m: 1 } : u.c ? { to: "eve@evil.com" } : null) });`],
    ["a variable: its keys are unknown", `const other = { to: "eve@evil.com" };\ninvite({ to: "leo@example.com", ...(u.c ? other : {}) });`],
    ["a computed key", `const k = "to";\ninvite({ to: "leo@example.com", ...(u.c ? { [k]: "eve@evil.com" } : {}) });`],
    ["a spread inside the literal", `const other = { to: "eve@evil.com" };\ninvite({ to: "leo@example.com", ...(u.c ? { a: 1, ...other } : {}) });`],
    ["`??`: its left side may be the object", `invite({ to: "leo@example.com", ...((u.c ? { to: "eve@evil.com" } : null) ?? { m: 1 }) });`],
    ["`||`: its left side may be the object", `invite({ to: "leo@example.com", ...((u.c && { to: "eve@evil.com" }) || { m: 1 }) });`],
    ["`&&` on a string: the string is not a literal object", `const ev = { 0: "leo@example.com", ...(u.c && "eve") };\ninvite({ to: ev[0] });`],
    ["`||` on a string: it spreads its characters", `const ev = { 0: "leo@example.com", ...(u.b || { m: 1 }) };\ninvite({ to: ev[0] });`],
    ["a numeric key given as a string", `const ev = { 1: "leo@example.com", ...(u.c ? { "1": "eve@evil.com" } : {}) };\ninvite({ to: ev[1] });`],
    ["a key overwritten by an earlier spread", `const ev = { to: "leo@example.com", ...(u.c ? { to: "eve@evil.com" } : {}), ...(u.a > 0 ? { m: 1 } : {}) };\ninvite({ to: ev.to });`],
    ["a local named undefined", `{ const undefined = { to: "eve@evil.com" };\ninvite({ to: "leo@example.com", ...(u.c ? undefined : {}) }); }`],
  ])("%s", async (_what, program) => {
    await expectAgree(program);
  });

  it.each([
    ["the keys' order", `w = Object.keys({ to: 1, m: 2, ...(u.c ? { n: 3, to: 4 } : { to: 5 }) }).join();`],
    ["the keys' order, with the same keys", `w = Object.keys({ ...(u.c ? { a: 1, b: 2 } : { b: 2, a: 1 }) }).join();`],
    ["a numeric key placed first", `w = Object.keys({ x: 1, ...(u.c ? { 1: 2 } : {}) }).join();`],
    ["for…in", `for (const k in { to: 1, ...(u.c ? { n: 3 } : null) }) w = w + k;`],
    ["JSON.stringify", `w = JSON.stringify({ to: 1, ...(u.c && { n: 3 }) });`],
    ["a spread of the result", `w = Object.keys({ ...{ to: 1, ...(u.c ? { n: 3 } : {}) } }).length;`],
  ])("%s", async (_what, program) => {
    await expectAgree(`let w = "";\n${program}\nsend({ value: w });`);
  });
});
