/** sluice as an MCP server (`sluice serve`): code mode over stdio or Streamable HTTP. */
export { createPlanServer, type PlanServer } from "./server.js";
export { serveOverStdio, type StdioServing } from "./stdio.js";
export { serveOverHttp, type HttpServing } from "./http.js";
export { PLAN_ANSWER_SCHEMA, planAnswer, type PlanAnswer, type CallAnswer, type LabelAnswer } from "./answer.js";
export type { ServeOptions, PlanLanguage, AskFallback, SamplingTexts } from "./types.js";
export { SamplingError } from "./sampling.js";
