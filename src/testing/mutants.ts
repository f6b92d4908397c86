/**
 * Planted leaks: deliberately broken variants of the label rules, each switched on for one
 * runtime by `mutants: { <name>: true }`, and a hunt that measures how fast the noninterference
 * properties find each one. A property suite that misses a planted leak is too weak to trust.
 */
import fc from "fast-check";
import type { Label } from "../labels/index.js";
import { inputPairArb, type PairKind, planArb, type SoundnessInput, soundnessTools } from "./arbitraries.js";
import { placeStatementArb } from "./gen-places.js";
import { obedientReader } from "./kit-tools.js";
import { cleanFor, runPair, type PairSetup } from "./noninterference.js";

/** A planted leak: the switch's name, the rule it breaks, and where. */
export interface MutantInfo {
  name: string;
  breaks: string;
  where: string;
  /** Why no sink can tell this mutant from the correct rule, when that is so. */
  equivalent?: string;
  /** The planner's feedback after a failed run is the sink that tells it apart (not a tool call). */
  feedback?: true;
}

/** Every mutant switch of the interpreter. */
export const MUTANTS: readonly MutantInfo[] = [
  {
    name: "noPcOnAssign",
    breaks: "assignment forgets the pc (a variable written in a branch does not carry the branch's label)",
    where: "rules.ts stored",
    equivalent:
      "every write under a pc is also in the static effects of the region that raised it, whose exit upgrades it with the same label; it showed only while such an upgrade was missing (the array-callback leak of known-leaks.test.ts, now fixed)",
  },
  { name: "noThrowPc", breaks: "an operation that may throw inside a try does not raise the context of the rest of the try", where: "rules.ts mayThrowOn, exitRegion" },
  { name: "noContainerLabel", breaks: "a read skips the container's own label", where: "rules.ts readSlot, readElem" },
  { name: "noAliasFloor", breaks: "a write through a data-chosen reference, or a call of a data-chosen function, goes through", where: "rules.ts writeThrough, functions.ts callFunction" },
  { name: "noHeapUpgrade", breaks: "fields and arrays a branch not taken could write keep their labels", where: "rules.ts upgradeEffects" },
  { name: "noUntakenUpgrade", breaks: "nothing a branch not taken could write is upgraded", where: "rules.ts exitRegion" },
  { name: "noJumpPc", breaks: "break, continue and return under a label do not raise the pc of what follows", where: "rules.ts exitRegion" },
  { name: "noBranchPc", breaks: "a branch (and a call of a data-chosen function) forgets the program counter", where: "rules.ts enterPc, functions.ts" },
  { name: "noLoopPc", breaks: "a loop's test and length do not raise the pc of its body", where: "loops.ts decide" },
  { name: "noDeepLabel", breaks: "converting an array or object to a string ignores its contents' labels", where: "rules.ts withContents" },
  { name: "templateDropsLabels", breaks: "a template literal drops its parts' labels", where: "expressions.ts TemplateLiteral" },
  { name: "binaryDropsRight", breaks: "a binary operator drops its right operand's label", where: "expressions.ts BinaryExpression" },
  { name: "conditionalDropsTest", breaks: "`c ? a : b` drops the label of c", where: "expressions.ts ConditionalExpression" },
  { name: "callbackDropsResult", breaks: "some, every, find, filter and sort drop the labels of the callback's answers", where: "builtins/array.ts" },
  { name: "defaultDropsArgs", breaks: "a builtin under the default call rule (a string method, Math, join, …) drops its arguments' labels", where: "rules-calls.ts inputsLabel" },
  { name: "defaultDropsContents", breaks: "a builtin under the default call rule drops its receiver's contents (`arr.join` its elements' labels)", where: "rules-calls.ts inputsLabel" },
  { name: "stringifyShallow", breaks: "`JSON.stringify` keeps only the outer label", where: "builtins/json.ts stringify" },
  { name: "toolResultUnlabeled", breaks: "a tool's result is not labelled", where: "program.ts callHost" },
  { name: "readerAnswerUnlabeled", breaks: "the reader's answer is not labelled with its prompt and the context that asked", where: "program.ts callHost" },
  { name: "returnDropsPc", breaks: "a return value does not carry the pc of the return", where: "statements.ts ReturnStatement" },
  { name: "catchNoPc", breaks: "a catch block does not run under the label of what threw", where: "statements.ts TryStatement" },
  { name: "switchNoPc", breaks: "switch cases do not run under the discriminant's label", where: "statements.ts SwitchStatement" },
  { name: "lengthDropsLabel", breaks: "`arr.length` skips the array's own label (its length)", where: "members.ts getMember" },
  { name: "keyDropsLabel", breaks: "`o[k]` skips the label of k", where: "members.ts getMember" },
  { name: "hasDropsShape", breaks: "`k in o` ignores which keys exist (the shape)", where: "members.ts hasMember" },
  { name: "missingKeyNoShape", breaks: "reading a missing key ignores the shape", where: "rules.ts readSlot" },
  { name: "unknownNoFloor", breaks: "a branch not taken whose writes cannot be named does not raise the floor", where: "rules.ts upgradeEffects" },
  { name: "defaultDropsTest", breaks: "a destructuring default drops the label of the value it replaced", where: "patterns.ts withDefault" },
  { name: "logicalDropsLeft", breaks: "`a && b`, `a || b`, `a ?? b` drop a's label when they yield b", where: "expressions.ts LogicalExpression" },
  { name: "compoundDropsRight", breaks: "`x op= y` drops y's label", where: "calls.ts AssignmentExpression" },
  { name: "finallyDropsPc", breaks: "a finally block that completes normally forgets what decided it did not return, break or throw instead", where: "statements.ts TryStatement" },
  { name: "finallyDropsThr", breaks: "after a finally where no try is open, what the catch block raised as inside a try leaves the pc without upgrading what the regions it covered skipped", where: "statements.ts endFinally" },
  { name: "calledPositionShifted", breaks: "the branch not taken upgrades the callbacks of a builtin one position after the ones it calls (JSON.parse's text, not its reviver)", where: "rules.ts calledArgs" },
  { name: "guardIgnoresTry", breaks: "a branch that can only throw counts as a guard that ends the run also inside a try, or in a catch block whose finally runs after it", where: "rules.ts guardEndsRun" },
  { name: "spreadKeysNone", breaks: "a spread whose text bounds its keys (`c ? { k: x } : {}`) overwrites no key already there, so `k` keeps its label where it was not overwritten", where: "rules.ts spreadOverwrites" },
  { name: "stopNoEnd", breaks: "a stop that data's choice of function or object could have fired, and did not, leaves where the run may end as it was, so a later failure's place is shown", where: "rules.ts mayStopOn", feedback: true },
  { name: "hiddenStateUnlabeled", breaks: "`Math.random` and a global regex's `test`/`exec` ignore what moved their hidden state", where: "builtins/globals.ts random, builtins/regexp.ts advanced" },
];

/** Options of {@link huntMutant}. */
export interface HuntOptions {
  /** fast-check seed. */
  seed: number;
  /** Most program/input pairs to try. Default 1000. */
  maxRuns?: number;
  /** Constructs the programs leave out (see FEATURES). */
  avoid?: readonly string[];
}

/** How one hunt went. */
export interface HuntResult {
  mutant: string;
  caught: boolean;
  /** Pairs tried until the first counterexample (or in all). */
  runs: number;
  /** Milliseconds until the first counterexample (or in all). */
  ms: number;
  /** The property that caught it. */
  kind?: PairKind;
  /** The program of the first counterexample. */
  program?: string;
  /** Pairs that failed also without the mutant (a leak of the interpreter itself, not counted). */
  realLeaks: number;
}

const LIMITS = { steps: 50_000, timeMs: 2_000, arrayLength: 10_000 };

function setup(kind: PairKind, mutants?: Record<string, boolean>, feedback = false): PairSetup<SoundnessInput> {
  return {
    feedback,
    tools: (i) => soundnessTools(i, { guard: kind }),
    observe: ["send", "publish"],
    clean: cleanFor(kind === "integrity" ? "untrusted" : "secret") as (l: Label) => boolean,
    runtime: { approve: () => true, quarantined: obedientReader(), limits: LIMITS, mutants },
  };
}

/** Integrity and confidentiality pairs, each tagged with its kind. */
export const anyPairArb: fc.Arbitrary<{ kind: PairKind; inputs: [SoundnessInput, SoundnessInput] }> = fc.oneof(
  inputPairArb("integrity").map((inputs) => ({ kind: "integrity" as const, inputs })),
  inputPairArb("confidentiality").map((inputs) => ({ kind: "confidentiality" as const, inputs })),
);

/**
 * Runs the integrity and confidentiality properties (one per generated pair, chosen at random)
 * with `mutant` switched on, until the first counterexample. A counterexample counts only when
 * the same pair passes with the mutant off, so a leak of the interpreter itself is not credited
 * to the mutant.
 */
export async function huntMutant(mutant: string, options: HuntOptions): Promise<HuntResult> {
  const started = Date.now();
  let runs = 0;
  let realLeaks = 0;
  let found: { kind: PairKind; program: string; ms: number; runs: number } | undefined;
  // A mutant the planner's feedback tells apart is hunted with plans that fail after decisions.
  const feedback = MUTANTS.find((m) => m.name === mutant)?.feedback === true;
  const plans = planArb({ avoid: options.avoid, ...(feedback ? { focus: placeStatementArb } : {}) });
  const property = fc.asyncProperty(plans, anyPairArb, async (program, pair) => {
    if (found !== undefined) return false;
    runs++;
    const broken = await runPair(program, pair.inputs, setup(pair.kind, { [mutant]: true }, feedback));
    if (broken.ok) return true;
    const sound = await runPair(program, pair.inputs, setup(pair.kind, undefined, feedback));
    if (!sound.ok) {
      realLeaks++;
      return true;
    }
    found = { kind: pair.kind, program, ms: Date.now() - started, runs };
    return false;
  });
  await fc.check(property, { numRuns: options.maxRuns ?? 1000, seed: options.seed, endOnFailure: true });
  if (found === undefined) return { mutant, caught: false, runs, ms: Date.now() - started, realLeaks };
  return { mutant, caught: true, runs: found.runs, ms: found.ms, kind: found.kind, program: found.program, realLeaks };
}

/** The median of some numbers. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
