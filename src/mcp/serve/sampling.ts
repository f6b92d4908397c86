/**
 * The quarantined reader of `sluice serve`, through MCP sampling: `query_ai_assistant` asks
 * the client's model, which reads the text with no tools and none of the client's
 * conversation (`includeContext: "none"`) and answers as JSON in an envelope; the answer is
 * checked against the plan's schema here and again by the runtime, as for any reader. That is
 * the quarantined role: a model that reads untrusted text and can only answer in the schema.
 */
import { inputRequired, inputResponse, type CreateMessageRequestParams, type InputRequest, type SamplingMessage } from "@modelcontextprotocol/server";
import { NotEnoughInformation, type QuarantinedModel } from "../../runtime/index.js";
import type { JsonSchema } from "../../tools/types.js";
import type { SamplingTexts } from "./types.js";

/** Answers asked of the client's model per query before giving up on invalid ones. */
const ATTEMPTS = 2;
/** max_tokens of one sampling request. */
const MAX_TOKENS = 2048;

/** The reader failed: the client declined, or its model gave no usable answer. */
export class SamplingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SamplingError";
  }
}

/** The sampling request embedded in an input_required round. */
export function sampleRequest(params: CreateMessageRequestParams): InputRequest {
  return inputRequired.createMessage(params);
}

/**
 * The text of the client's answer to one sampling request: `undefined` when the retry does not
 * carry it (ask again), `null` when it is no sampling result or holds no text.
 */
export function sampledIn(responses: Record<string, unknown> | undefined, key: string): string | null | undefined {
  const view = inputResponse(responses, key);
  if (view.kind === "missing") return undefined;
  if (view.kind !== "sampling") return null;
  const blocks = Array.isArray(view.result.content) ? view.result.content : [view.result.content];
  const texts = blocks.filter((b): b is { type: "text"; text: string } => b?.type === "text" && typeof (b as { text?: unknown }).text === "string").map((b) => b.text);
  return texts.length === 0 ? null : texts.join("");
}

/** The JSON in a model's text: models like to wrap it in a fenced block. */
function jsonOf(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  return fenced === null ? text.trim() : fenced[1];
}

function text(role: "user" | "assistant", t: string): SamplingMessage {
  return { role, content: { type: "text", text: t } };
}

/** A quarantined model that puts each query to the client's model through `sample`. */
export function samplingReader(texts: SamplingTexts, sample: (params: CreateMessageRequestParams) => Promise<string | null>): QuarantinedModel {
  return {
    async query({ prompt, schema }: { prompt: string; schema: JsonSchema }) {
      const messages: SamplingMessage[] = [text("user", texts.message(prompt, schema))];
      let problem = "";
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const answer = await sample({ messages: [...messages], systemPrompt: texts.system, includeContext: "none", maxTokens: MAX_TOKENS });
        if (answer === null) throw new SamplingError("the MCP client did not let its model answer (it declined the sampling request, or nobody answered in time)");
        const verdict = texts.interpret(jsonOf(answer), schema);
        if (verdict.kind === "answer") return verdict.value;
        if (verdict.kind === "not-enough-information") throw new NotEnoughInformation();
        problem = verdict.problem;
        messages.push(text("assistant", answer === "" ? "(empty)" : answer), text("user", `That answer cannot be used: ${problem}. Answer again with only the JSON object.`));
      }
      throw new SamplingError(`the MCP client's model gave no valid answer in ${ATTEMPTS} attempts: ${problem}`);
    },
  };
}
