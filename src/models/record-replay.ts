import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { NotEnoughInformation, type QuarantinedModel } from "../runtime/types.js";
import { hashRequest } from "./canonical.js";
import { withoutMeter } from "./meter-context.js";
import type { PlannerModel, PlannerResponse } from "./types.js";

/**
 * Record/replay: a run made once against the real API (with a key) is saved, and replayed later
 * with no network and no key. Responses are keyed by the sha256 of the canonical request, so any
 * change to the prompt, the tools or the conversation is a miss, never a stale answer.
 */

/** `"replay"` (default): recorded answers only, a miss is an error. `"record"`: always call and save. `"auto"`: replay, record on a miss. */
export type RecordMode = "replay" | "record" | "auto";

/** Options of {@link recordReplay}. */
export interface RecordReplayOptions {
  /** JSON file holding the recordings; shared by planner and reader wrappers is fine. */
  file: string;
  mode?: RecordMode;
}

type ReaderResponse = { answer: unknown } | { notEnoughInformation: string };

interface Entry {
  role: "planner" | "reader";
  request: unknown;
  response: PlannerResponse | ReaderResponse;
}

interface Cassette {
  version: 1;
  entries: Record<string, Entry>;
}

/** One recordings file; writes are serialized and atomic (temp file + rename). */
interface Store {
  get(key: string): Promise<Entry | undefined>;
  put(key: string, entry: Entry): Promise<void>;
}

const stores = new Map<string, Store>();

function openStore(path: string): Store {
  const file = resolve(path);
  const existing = stores.get(file);
  if (existing !== undefined) return existing;
  let loaded: Promise<Cassette> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const load = (): Promise<Cassette> =>
    (loaded ??= readFile(file, "utf8").then(
      (text) => {
        const data = JSON.parse(text) as Cassette;
        if (data?.version !== 1 || typeof data.entries !== "object") throw new Error(`${file} is not a sluice recordings file`);
        return data;
      },
      (err: NodeJS.ErrnoException) => {
        if (err.code === "ENOENT") return { version: 1, entries: {} };
        throw err;
      },
    ));
  const store: Store = {
    async get(key) {
      return (await load()).entries[key];
    },
    async put(key, entry) {
      const data = await load();
      data.entries[key] = entry;
      writing = writing.then(async () => {
        const sorted: Cassette = { version: 1, entries: Object.fromEntries(Object.entries(data.entries).sort(([a], [b]) => (a < b ? -1 : 1))) };
        await mkdir(dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, JSON.stringify(sorted, null, 2) + "\n");
        await rename(tmp, file);
      });
      await writing;
    },
  };
  stores.set(file, store);
  return store;
}

function checkOptions(options: RecordReplayOptions): RecordMode {
  if (options === null || typeof options !== "object" || typeof options.file !== "string" || options.file === "") {
    throw new TypeError("recordReplay: options.file must name the recordings file");
  }
  const mode = options.mode ?? "replay";
  if (!["replay", "record", "auto"].includes(mode)) throw new TypeError(`recordReplay: mode must be replay, record or auto, got ${JSON.stringify(mode)}`);
  return mode;
}

function miss(file: string, role: string, key: string): Error {
  return new Error(`no recorded ${role} response for request ${key.slice(0, 12)} in ${file}; record it once with mode "record" or "auto" (and an API key)`);
}

function plannerRecorder(inner: PlannerModel, file: string, mode: RecordMode): PlannerModel {
  const store = openStore(file);
  return {
    model: inner.model,
    maxTokens: inner.maxTokens,
    async complete(request) {
      const keyed = {
        role: "planner", model: inner.model, maxTokens: inner.maxTokens, system: request.system, messages: request.messages,
        // With tool search the chosen declarations and the search tool are part of the request too (absent: the key is as before).
        ...(request.tools !== undefined ? { tools: request.tools } : {}),
        ...(request.searchTool === true ? { searchTool: true } : {}),
      };
      const key = hashRequest(keyed);
      if (mode !== "record") {
        const hit = await store.get(key);
        if (hit !== undefined) return { ...(hit.response as PlannerResponse) };
        if (mode === "replay") throw miss(file, "planner", key);
      }
      // The agent charges this wrapper's answer; an inner planner that meters itself must not charge it again.
      const response = await (inner.metered === true ? withoutMeter(() => inner.complete(request)) : inner.complete(request));
      const summary = { model: inner.model, maxTokens: inner.maxTokens, systemSha256: hashRequest(request.system), messages: request.messages };
      await store.put(key, { role: "planner", request: summary, response });
      return response;
    },
  };
}

function readerRecorder(inner: QuarantinedModel, file: string, mode: RecordMode): QuarantinedModel & { model?: string } {
  const store = openStore(file);
  const name = (inner as { model?: unknown }).model;
  const model = typeof name === "string" ? name : undefined;
  return {
    model,
    async query(request) {
      const key = hashRequest({ role: "reader", model, prompt: request.prompt, schema: request.schema });
      if (mode !== "record") {
        const hit = await store.get(key);
        if (hit !== undefined) {
          const r = hit.response as ReaderResponse;
          if ("notEnoughInformation" in r) throw new NotEnoughInformation(r.notEnoughInformation);
          return r.answer;
        }
        if (mode === "replay") throw miss(file, "reader", key);
      }
      const entry = (response: ReaderResponse): Entry => ({ role: "reader", request: { model, prompt: request.prompt, schema: request.schema }, response });
      try {
        const answer = await inner.query(request);
        await store.put(key, entry({ answer }));
        return answer;
      } catch (err) {
        if (err instanceof NotEnoughInformation) await store.put(key, entry({ notEnoughInformation: err.message }));
        throw err;
      }
    },
  };
}

/** Wraps a planner so its answers are recorded to, or replayed from, `options.file`. */
export function recordReplay(model: PlannerModel, options: RecordReplayOptions): PlannerModel;
/** Wraps a quarantined reader so its answers are recorded to, or replayed from, `options.file`. */
export function recordReplay(model: QuarantinedModel, options: RecordReplayOptions): QuarantinedModel;
export function recordReplay(model: PlannerModel | QuarantinedModel, options: RecordReplayOptions): PlannerModel | QuarantinedModel {
  const mode = checkOptions(options);
  if (model !== null && typeof model === "object" && typeof (model as PlannerModel).complete === "function") {
    return plannerRecorder(model as PlannerModel, options.file, mode);
  }
  if (model !== null && typeof model === "object" && typeof (model as QuarantinedModel).query === "function") {
    return readerRecorder(model as QuarantinedModel, options.file, mode);
  }
  throw new TypeError("recordReplay: expected a planner (with complete) or a quarantined reader (with query)");
}
