/**
 * The played reader: the quarantined reader's answers to live plans, given by someone who saw
 * only what the real reader gets (its system prompt, the prompt and the output format). The
 * answers file is a `recordReplay` cassette of a reader named {@link PLAYED_MODEL}, so an answer
 * is keyed by the canonical hash of the request: a prompt or schema that differs by one byte is
 * a new request, never a stale answer.
 */
import { readFile } from "node:fs/promises";
import { hashRequest } from "../../models/canonical.js";
import { recordReplay } from "../../models/index.js";
import type { JsonSchema } from "../../tools/types.js";
import type { QuarantinedModel } from "../../runtime/index.js";

/** The model name the answers are recorded under. */
export const PLAYED_MODEL = "played";

/** A request to the reader, as the program made it. */
export interface PlayedRequest {
  prompt: string;
  schema: JsonSchema;
}

/** A request the answers file has no answer for. */
export interface UnansweredRequest extends PlayedRequest {
  /** The request's key in the answers file (and its file name in the requests folder). */
  key: string;
}

/** The key of a request in the answers file: the key `recordReplay` gives a reader named {@link PLAYED_MODEL}. */
export function requestKey(request: PlayedRequest): string {
  return hashRequest({ role: "reader", model: PLAYED_MODEL, prompt: request.prompt, schema: request.schema });
}

/** Thrown into the program when the answers file has no answer: the run cannot be measured. */
export class UnansweredRequestError extends Error {
  constructor(readonly key: string) {
    super(`the played reader has no answer for request ${key.slice(0, 12)} yet`);
    this.name = "UnansweredRequestError";
  }
}

/** A played reader over one answers file, with the requests of this run it had no answer for. */
export interface PlayedReader extends QuarantinedModel {
  readonly model: string;
  readonly unanswered: UnansweredRequest[];
}

/** A reader that answers from `file` (a missing file answers nothing) and notes each request it cannot answer. */
export function playedReader(file: string): PlayedReader {
  const unanswered: UnansweredRequest[] = [];
  const onMiss: QuarantinedModel & { model: string } = {
    model: PLAYED_MODEL,
    async query(request) {
      const key = requestKey(request);
      if (!unanswered.some((u) => u.key === key)) unanswered.push({ key, prompt: request.prompt, schema: request.schema });
      throw new UnansweredRequestError(key);
    },
  };
  // "auto" asks onMiss only on a miss; onMiss throws, so nothing is ever recorded here.
  const replay = recordReplay(onMiss, { file, mode: "auto" });
  return { model: PLAYED_MODEL, unanswered, query: (request) => replay.query(request) };
}

/**
 * Throws a clear error when `file` exists but is not an answers file, before any run reads it
 * (inside a run a broken file would look like the reader failing the plan). A missing file is fine.
 */
export async function checkAnswersFile(file: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new Error(`cannot read the played reader's answers ${file}: ${(err as Error).message}`);
  }
  let data: { version?: unknown; entries?: unknown };
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not a played reader's answers file: ${(err as Error).message}`);
  }
  if (data?.version !== 1 || data.entries === null || typeof data.entries !== "object") {
    throw new Error(`${file} is not a played reader's answers file (a recordings file of version 1 with entries)`);
  }
}
