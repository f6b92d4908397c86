/** Fault injection for the call layer, on a fake clock: see README, "The tool-call layer, measured". */
export { predictFlaky, binomialTolerance, type FlakyPrediction } from "./closed-forms.js";
export { simulateFlaky, type FlakyOptions, type FlakyReport, type EffectCount } from "./flaky.js";
export { simulateContention, type ContentionOptions, type ContentionReport } from "./contention.js";
export { simulateDeadTool, type DeadToolOptions, type DeadToolReport, type DeadToolCall } from "./dead-tool.js";
export type { SimulationClock } from "./clock.js";
