/**
 * The quarantined reader's texts for a model sluice reaches without structured output: the
 * client's model under `sluice serve`, through MCP sampling. The same instructions and envelope
 * as sluice's own reader; the schema is spelled out in the message, since nothing constrains
 * the output, and the answer is checked against it.
 */
import type { SamplingTexts } from "../mcp/serve/index.js";
import type { JsonSchema } from "../tools/types.js";
import { READER_SYSTEM_PROMPT, envelopeSchema, interpretAnswer } from "./reader-output.js";
import { createSchemaValidator } from "./validate.js";

/** The texts `createPlanServer({ sampling })` needs. */
export function samplingTexts(): SamplingTexts {
  const validator = createSchemaValidator();
  return {
    system: READER_SYSTEM_PROMPT,
    message: (prompt: string, schema: JsonSchema) =>
      `${prompt}\n\nAnswer with one JSON object and nothing else, matching this JSON Schema:\n${JSON.stringify(envelopeSchema(schema))}`,
    interpret: (text: string, schema: JsonSchema) => interpretAnswer(text, schema, validator),
  };
}
