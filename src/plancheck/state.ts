/**
 * The state one analysis shares: the tools as the check models them, the pre-pass, the findings
 * so far, and where the walk is (the control flow it sits under, the calls that led here).
 */
import type * as acorn from "acorn";
import type { Requirement } from "../policy/index.js";
import { joinFacts, NOTHING, type Fact } from "./facts.js";
import type { Prescan } from "./prescan.js";
import type { FnValue, PartFact } from "./values.js";

/** A tool as the check sees it. */
export interface ToolModel {
  readonly name: string;
  readonly sideEffect: boolean;
  /** The declared label of the whole result, when the runtime labels it from the declaration alone. */
  readonly top: Fact | undefined;
  readonly parts: readonly PartFact[];
  readonly requirements: readonly Requirement[];
  /** The tool declares what it returns (`returns`), so a call that returns gives a value. */
  readonly returnsValue: boolean;
}

/** A call that led to the code being walked: a function of the program, or a callback. */
export interface ViaStep {
  readonly what: string;
  readonly line: number;
}

/** A sink call the check predicts to be refused, before it is put in words. */
export interface RawFinding {
  readonly node: acorn.CallExpression;
  readonly tool: string;
  readonly effect: "deny" | "ask";
  /** The argument path, or undefined when the control flow is the problem. */
  readonly argument?: string;
  readonly requirement: Requirement;
  /** The fact that breaks the requirement. */
  readonly fact: Fact;
  /** For reader checks: who may not read it, and who may. */
  readonly missing?: readonly string[];
  readonly via: readonly ViaStep[];
}

/** Per function being walked: what its returns carry, and the label a possible early return puts on what follows. */
export interface FnFrame {
  returns: Array<import("./values.js").Abs>;
  /** Raised by regions that may return, for the rest of the function. */
  ret: Fact;
}

/** Per loop (or switch) being walked: the label a possible break or continue puts on what follows in it. */
export interface LoopFrame {
  brk: Fact;
}

export interface Analysis {
  readonly tools: ReadonlyMap<string, ToolModel>;
  readonly pre: Prescan;
  readonly findings: RawFinding[];
  /** Functions being walked, innermost last: a call of one of them again is not followed. */
  readonly stack: FnValue[];
  /** Walks of function bodies left; when it runs out, calls are no longer followed. */
  budget: number;
}

/** Where the walk is: the structural control flow, and the frames whose jumps raise it. */
export interface Flow {
  readonly pc: Fact;
  readonly fn: FnFrame | undefined;
  readonly loops: readonly LoopFrame[];
  readonly via: readonly ViaStep[];
}

/** The label of the control flow at this point: what the interpreter's pc is at least. */
export function contextOf(flow: Flow): Fact {
  let f = joinFacts(flow.pc, flow.fn?.ret ?? NOTHING);
  for (const l of flow.loops) f = joinFacts(f, l.brk);
  return f;
}

/** The same flow, under one more decision. */
export function under(flow: Flow, decision: Fact): Flow {
  return decision === NOTHING ? flow : { ...flow, pc: joinFacts(flow.pc, decision) };
}
