import type { Decision, ToolCall } from "../tools/types.js";

/** A sink policy: decides one tool call before it runs, from its arguments and their labels. */
export type Policy = (call: ToolCall) => Decision;

/** The three decisions, from most to least permissive. */
export type Effect = Decision["kind"];
