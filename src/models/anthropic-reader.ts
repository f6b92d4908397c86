import type Anthropic from "@anthropic-ai/sdk";
import { NotEnoughInformation } from "../runtime/types.js";
import type { JsonSchema } from "../tools/types.js";
import { textOf, type AnthropicConnection } from "./anthropic-client.js";
import { modelSender } from "./anthropic-calls.js";
import { READER_SYSTEM_PROMPT, interpretAnswer, outputFormat } from "./reader-output.js";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS, REQUEST_OVERHEAD_TOKENS, type UsageMeter } from "./usage.js";
import { createSchemaValidator } from "./validate.js";
import type { NamedReader } from "./types.js";

/** Options of {@link anthropicReader}. */
export interface AnthropicReaderOptions extends AnthropicConnection {
  /** Model identifier, e.g. `"claude-haiku-5-5"`. */
  model: string;
  /** max_tokens of each call. Default 2048. */
  maxTokens?: number;
  /** Answers tried per query before giving up on invalid ones. Default 3. */
  maxAttempts?: number;
  /**
   * Meter charged when no agent run is in progress (inside `agent.run` the run's meter is used).
   */
  meter?: UsageMeter;
}

/** The quarantined model failed to give an answer matching the schema within its attempts. */
export class ReaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReaderError";
  }
}

/**
 * Tokens the structured-output machinery adds on the provider's side (its own instructions and
 * the grammar of the schema). An estimate, kept generous so the worst case stays an upper bound.
 */
const STRUCTURED_OUTPUT_OVERHEAD_TOKENS = 512;

/**
 * The quarantined reader on the Messages API: no tools, the answer constrained by the JSON-schema
 * output format and checked again with ajv before the program sees it. An invalid answer is
 * retried with the problem pointed out, up to `maxAttempts` answers in all.
 */
export function anthropicReader(options: AnthropicReaderOptions): NamedReader {
  if (options === null || typeof options !== "object") throw new TypeError("anthropicReader: expected an options object");
  if (typeof options.model !== "string" || options.model === "") throw new TypeError("anthropicReader: model must be a non-empty string");
  const maxTokens = options.maxTokens ?? 2048;
  const maxAttempts = options.maxAttempts ?? 3;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new TypeError(`anthropicReader: maxTokens must be a positive integer, got ${maxTokens}`);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new TypeError(`anthropicReader: maxAttempts must be a positive integer, got ${maxAttempts}`);
  const send = modelSender(options, "reader", "anthropicReader");
  const validator = createSchemaValidator();

  async function ask(messages: Anthropic.Messages.MessageParam[], format: ReturnType<typeof outputFormat>): Promise<Anthropic.Messages.Message> {
    const text = READER_SYSTEM_PROMPT + JSON.stringify(format.schema) + messages.map((m) => m.content as string).join("");
    const estimate = {
      model: options.model,
      role: "reader",
      inputTokens: estimateTokens(text) + messages.length * MESSAGE_OVERHEAD_TOKENS + REQUEST_OVERHEAD_TOKENS + STRUCTURED_OUTPUT_OVERHEAD_TOKENS,
      maxTokens,
    };
    const params = { model: options.model, max_tokens: maxTokens, system: READER_SYSTEM_PROMPT, messages, output_config: { format } };
    return send({ params, estimate, ...(options.meter !== undefined ? { meter: options.meter } : {}) });
  }

  async function query(request: { prompt: string; schema: JsonSchema }): Promise<unknown> {
    const { prompt, schema } = request ?? ({} as { prompt: string; schema: JsonSchema });
    if (typeof prompt !== "string") throw new TypeError("query_ai_assistant: prompt must be a string");
    try {
      validator.check(schema);
    } catch (err) {
      throw new TypeError(`query_ai_assistant: ${(err as Error).message}`);
    }
    const format = outputFormat(schema);
    const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: prompt }];
    let problem = "";
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const message = await ask(messages, format);
      if (message.stop_reason === "refusal") throw new NotEnoughInformation("the quarantined model declined to answer");
      const text = textOf(message);
      const verdict = interpretAnswer(text, schema, validator);
      if (verdict.kind === "answer") return verdict.value;
      if (verdict.kind === "not-enough-information") throw new NotEnoughInformation();
      problem = message.stop_reason === "max_tokens" ? `the answer was cut off at max_tokens (${maxTokens})` : verdict.problem;
      messages.push({ role: "assistant", content: text === "" ? "(empty)" : text });
      messages.push({ role: "user", content: `That answer cannot be used: ${problem}. Answer again with JSON matching the schema.` });
    }
    throw new ReaderError(`the quarantined model gave no valid answer in ${maxAttempts} attempts: ${problem}`);
  }

  return { model: options.model, query };
}
