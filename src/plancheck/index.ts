/**
 * The static plan check: before anything runs, predicts from the program text, the tools'
 * declared result labels (`output`) and what their policies require, which tool calls will be
 * refused whatever the data, and says so in words the planner can act on. It is a
 * must-analysis: every finding holds in every run that reaches the call (assuming the tools
 * return what they declare); when unsure it says nothing, and the runtime still decides every
 * call. Its words come from the program, the declarations and the policies only, never from
 * tool data, so the feedback is trusted by construction.
 */
import { checkProgram, parseProgram, ProgramError } from "../language/index.js";
import { labelIsDeclared, type Tool } from "../tools/types.js";
import { analyzeProgram } from "./analyze.js";
import { describeFinding, type PlanFinding } from "./feedback.js";
import { prescan } from "./prescan.js";
import type { Analysis, ToolModel } from "./state.js";
import { toolModel } from "./tool-models.js";

export type { PlanFinding } from "./feedback.js";
export { planFeedback } from "./feedback.js";

/** What {@link checkPlan} found. */
export interface PlanCheck {
  /** Calls that will be refused (denied, or asked and refused without approval) whatever the data, in program order. */
  findings: PlanFinding[];
  /** Set when the program does not parse or uses a construct outside the language: nothing was checked (the run reports it). */
  error?: { kind: "syntax" | "unsupported"; message: string; line: number; column: number };
}

/** Options of {@link checkPlan}. */
export interface PlanCheckOptions {
  /** Walks of function bodies and callbacks, at most (each call of a function of the program is one). Default 2000. */
  budget?: number;
}

/** Tools whose whole result is declared trusted: where values the user owns can be looked up. */
function trustedSources(tools: readonly Tool<any, any>[]): string[] {
  return tools.filter((t) => !t.sideEffect && labelIsDeclared(t) && t.output?.trusted === true).map((t) => t.name).sort();
}

/**
 * Checks `source` against `tools` without running anything. Never throws: a program that does
 * not compile is reported in `error`, and a walk that fails for any other reason says nothing
 * (the runtime still decides every call).
 */
export function checkPlan(source: string, tools: readonly Tool<any, any>[], options: PlanCheckOptions = {}): PlanCheck {
  let program;
  try {
    program = parseProgram(source);
    checkProgram(program);
  } catch (err) {
    if (err instanceof ProgramError) return { findings: [], error: { kind: err.kind, message: err.reason, line: err.line, column: err.column } };
    return { findings: [], error: { kind: "syntax", message: String(err), line: 1, column: 1 } };
  }
  const models = new Map<string, ToolModel>(tools.map((t) => [t.name, toolModel(t)]));
  const a: Analysis = { tools: models, pre: prescan(program), findings: [], stack: [], budget: options.budget ?? 2000 };
  try {
    analyzeProgram(a, program);
  } catch {
    // Host limits (the stack, memory) or a construct the walk does not expect: no finding is
    // certain, so none is given.
    return { findings: [] };
  }
  const trusted = trustedSources(tools);
  const findings = a.findings
    .map((f) => describeFinding(f, trusted))
    .sort((x, y) => x.line - y.line || x.column - y.column);
  return { findings };
}
