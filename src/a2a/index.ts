/** Remote agents over A2A (`@a2a-js/sdk`, protocol 1.0) as untrusted, side-effecting tools. */
export { a2aAgent, a2aToolName } from "./agent.js";
export type { A2AAgentOptions, A2AToolResult } from "./agent.js";
export { A2ADeadlineError } from "./task.js";
export type { A2AAnswer, A2AQuestion, A2AState, AskPerson } from "./task.js";
