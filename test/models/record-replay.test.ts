import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { startMessagesServer, type MessagesServer } from "../support/messages-server.js";
import { anthropicPlanner, anthropicReader, recordReplay } from "../../src/models/index.js";
import { NotEnoughInformation } from "../../src/runtime/types.js";

let server: MessagesServer;
let dir: string;
beforeAll(async () => {
  server = await startMessagesServer();
  dir = await mkdtemp(join(tmpdir(), "sluice-rr-"));
});
afterAll(() => server.close());

const ask = { system: "planner prompt", messages: [{ role: "user" as const, content: "User request:\n\nlist files" }] };
const SCHEMA = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };

/** A fresh copy of the module, as a new process would load it: nothing cached in memory. */
async function freshRecordReplay(): Promise<typeof recordReplay> {
  vi.resetModules();
  return (await import("../../src/models/record-replay.js")).recordReplay;
}

function offlinePlanner() {
  return anthropicPlanner({ model: "test-planner", apiKey: "unused", baseURL: "http://127.0.0.1:9", maxRetries: 0 });
}

describe("recordReplay", () => {
  test("a run recorded once with a key replays offline from the file", async () => {
    const file = join(dir, "planner.json");
    const client = new Anthropic({ apiKey: "real-key", baseURL: server.url, maxRetries: 0 });
    server.enqueue({ text: "```js\nlist_files()\n```" });
    const recorder = recordReplay(anthropicPlanner({ client, model: "test-planner" }), { file, mode: "record" });
    const recorded = await recorder.complete(ask);
    const saved = JSON.parse(await readFile(file, "utf8"));
    const keys = Object.keys(saved.entries);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(saved.entries[keys[0]].response.text).toBe("```js\nlist_files()\n```");

    const before = server.requests.length;
    const replayer = (await freshRecordReplay())(offlinePlanner(), { file });
    const replayed = await replayer.complete(ask);
    expect(replayed).toEqual(recorded);
    expect(server.requests.length).toBe(before);
  });

  test("a request that was not recorded is a clear miss in replay mode, and recorded in auto mode", async () => {
    const file = join(dir, "auto.json");
    const rr = await freshRecordReplay();
    const other = { ...ask, messages: [{ role: "user" as const, content: "User request:\n\nsomething else" }] };
    await expect(rr(offlinePlanner(), { file }).complete(other)).rejects.toThrow(/no recorded planner response/);
    const client = new Anthropic({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
    server.enqueue({ text: "```js\n1\n```" });
    const auto = rr(anthropicPlanner({ client, model: "test-planner" }), { file, mode: "auto" });
    await auto.complete(other);
    const before = server.requests.length;
    await auto.complete(other);
    expect(server.requests.length).toBe(before);
  });

  test("the key covers the whole request: a changed system prompt is a miss", async () => {
    const file = join(dir, "planner.json");
    const replayer = (await freshRecordReplay())(offlinePlanner(), { file });
    await expect(replayer.complete({ ...ask, system: "planner prompt, v2" })).rejects.toThrow(/no recorded/);
  });

  test("with tool search the chosen declarations and the search tool are part of the key", async () => {
    const file = join(dir, "planner-tools.json");
    const client = new Anthropic({ apiKey: "real-key", baseURL: server.url, maxRetries: 0 });
    server.enqueue({ text: "```js\nrefund()\n```" });
    const withTools = { ...ask, tools: "declare function refund(): unknown;" };
    await recordReplay(anthropicPlanner({ client, model: "test-planner" }), { file, mode: "record" }).complete(withTools);
    const replayer = (await freshRecordReplay())(offlinePlanner(), { file });
    expect((await replayer.complete(withTools)).text).toContain("refund()");
    await expect(replayer.complete({ ...ask, tools: "declare function delete_event(): unknown;" })).rejects.toThrow(/no recorded/);
    await expect(replayer.complete({ ...withTools, searchTool: true })).rejects.toThrow(/no recorded/);
  });

  test("reader answers and NotEnoughInformation are recorded and replayed", async () => {
    const file = join(dir, "reader.json");
    const client = new Anthropic({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
    server.enqueue({ json: { have_enough_information: true, answer: { n: 3 } } }, { json: { have_enough_information: false, answer: null } });
    const recorder = recordReplay(anthropicReader({ client, model: "test-reader" }), { file, mode: "record" });
    await expect(recorder.query({ prompt: "three apples", schema: SCHEMA })).resolves.toEqual({ n: 3 });
    await expect(recorder.query({ prompt: "no fruit", schema: SCHEMA })).rejects.toBeInstanceOf(NotEnoughInformation);

    const before = server.requests.length;
    const replayer = (await freshRecordReplay())(anthropicReader({ model: "test-reader", apiKey: "unused", baseURL: "http://127.0.0.1:9" }), { file });
    await expect(replayer.query({ prompt: "three apples", schema: SCHEMA })).resolves.toEqual({ n: 3 });
    const err = await replayer.query({ prompt: "no fruit", schema: SCHEMA }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("NotEnoughInformation");
    expect(server.requests.length).toBe(before);
  });

  test("planner and reader can share one file", async () => {
    const file = join(dir, "shared.json");
    const client = new Anthropic({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
    server.enqueue({ text: "```js\n1\n```" }, { json: { have_enough_information: true, answer: { n: 1 } } });
    const p = recordReplay(anthropicPlanner({ client, model: "test-planner" }), { file, mode: "record" });
    const r = recordReplay(anthropicReader({ client, model: "test-reader" }), { file, mode: "record" });
    await Promise.all([p.complete(ask), r.query({ prompt: "one", schema: SCHEMA })]);
    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(Object.values(saved.entries).map((e) => (e as { role: string }).role).sort()).toEqual(["planner", "reader"]);
  });

  test("bad options and foreign files are clear errors", async () => {
    expect(() => recordReplay(offlinePlanner(), { file: "" })).toThrow(/file/);
    expect(() => recordReplay(offlinePlanner(), { file: "x.json", mode: "rewind" as never })).toThrow(/mode/);
    expect(() => recordReplay({} as never, { file: "x.json" })).toThrow(/planner .* or a quarantined reader/);
    const file = join(dir, "foreign.json");
    await writeFile(file, JSON.stringify({ hello: "world" }));
    await expect(recordReplay(offlinePlanner(), { file }).complete(ask)).rejects.toThrow(/not a sluice recordings file/);
  });
});
