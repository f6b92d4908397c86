/**
 * The label rules of calls: the one gate every builtin, method, tool and host call goes through,
 * its default rule, and the named refinements a builtin may declare instead. A sibling of
 * rules.ts (which holds the rules of the other constructs); calls of the program's own functions
 * are in compile/functions.ts and meet this gate first ({@link callBuiltin} is its builtin half).
 *
 * **The default (coarse) rule.** The call's *inputs* are the callee's label, the argument count's
 * label (a spread decides it), the receiver's label and deep label, and every argument's label
 * and deep label (contents, length and shape included). Then:
 * - the result carries the inputs and the labels of every answer of every callback it called;
 * - an error it throws, a host RangeError included, carries the inputs and the pc;
 * - inside a try, whether it throws is decided by the inputs: the rest of the try runs under them
 *   whether it threw or not ({@link mayThrowOn});
 * - it runs under the pc raised by the callee's label and the argument count (so a tool or a
 *   builtin chosen by data, or called with a data-decided number of arguments, records that in its
 *   context, its errors and everything it changes), and when that pc was raised its effects are
 *   upgraded afterwards as a region's would be, whether or not they happened;
 * - a builtin that may change state may not be chosen by data beyond its receiver (the run stops).
 *
 * **Refinements.** A builtin may declare, instead of the default result rule, one refinement from
 * {@link REFINEMENTS}, and instead of the default throw rule `throws: false` (it then makes every
 * throw it can make decided by a label it passes to mayThrowOn before deciding). What a builtin
 * may change (`writes`) and whether it calls its arguments (`calls`) are declared the same way;
 * undeclared, it may change anything and call anything. A builtin nobody refined is coarse,
 * never leaky. Each refinement has a generated-program test (test/soundness/refinements.test.ts).
 */
import type { Label } from "../labels/index.js";
import { brief, enterPc, join2, leavePc, mayStopOn, mayThrowOn, underPc, upgradeCallee, upgradeWrites, withContents } from "./rules.js";
import { makeError } from "./errors.js";
import { ProgramThrow, SecurityStop, charge, checkString, limit, st } from "./state.js";
import { BOT, FN, type BuiltinFlags, type BuiltinImpl, type Fn, type Val, flagsOf, isRef } from "./values.js";

export type { BuiltinFlags } from "./values.js";

/**
 * The named refinements of the default result rule. Each line is the rule a builtin that declares
 * it follows; the builtins compute it with the helpers of their own module, named after it.
 */
export const REFINEMENTS = {
  /** The result is a new container made from the inputs: it and every part carry the default label (split, match, exec, JSON.parse, new Date). */
  fresh: "a new container made from the inputs carries the default label on itself and on every part",
  /** Which keys or elements exist, not their values: reference ⊔ container label ⊔ shape ⊔ the key's deep label (Object.keys, Object.hasOwn, arr.keys). */
  shape: "the result depends on which keys exist, not on the values",
  /** A type test reads the argument's type, which its reference label decides, not its contents (Array.isArray, Number.isInteger, …). */
  typeOf: "a type test carries the argument's reference label, not its contents",
  /** Elements (or entries) are copied with their own labels; the structure carries what decided positions and length (slice, concat, flat, Object.values, Array.from, …). */
  elements: "copied parts keep their own labels; the structure carries what decided it",
  /** One element is read: base ⊔ index ⊔ that element's own label (at, pop, shift). */
  element: "a read of one element carries the base, the index and that element's label",
  /** A search compares elements by identity: base ⊔ the arguments' deep labels ⊔ every element's own label, not their contents (indexOf, includes). */
  search: "a search carries every element's own label and the needle, not the elements' contents",
  /** One callback per element: element i of the result carries answer i; the structure carries the decision label, re-joined at every step (map, flatMap, forEach, Array.from with a function). */
  eachElement: "element i of the result carries answer i; the structure carries the live length",
  /** The result is decided by the callbacks' answers: base ⊔ every answer that could decide it; answers that stop the walk raise the pc of the calls after them (filter, some, every, find…). */
  answers: "the result carries the live base and every answer that could decide it",
  /** A fold: the accumulator carries the previous accumulator's label, the live base and each element's label (reduce, reduceRight). */
  fold: "the accumulator carries each step's inputs and the live base",
  /** A sort: the order carries everything the comparisons saw; each comparator call runs under the answers before it. */
  order: "the order carries what every comparison saw",
  /** A change of the receiver or the first argument: new parts carry their own label and the pc; the structure carries the pc and the arguments that chose positions (push, splice, fill, Object.assign, Date setters). */
  mutation: "changed parts carry their own label and the pc; the structure carries the pc and the positions' labels",
  /** A regular expression's lastIndex: the regex's label takes the pc and the text of every call that moved it (test, exec). */
  lastIndex: "the regex's label takes the pc and the text of every call that may move lastIndex",
  /** The random seed: the seed's label takes the pc of every call (Math.random). */
  seed: "the seed's label takes the pc of every call, and each number carries it",
  /** The result is the argument itself with its label (Object.freeze, Promise.all). */
  identity: "the result is the argument, with the argument's label",
  /** A new Error: its message carries the message's deep label, its cause keeps its own; the reference is new (Error, TypeError, …). */
  error: "a new Error's parts carry their inputs; the reference itself is new",
  /** JSON.stringify: the deep label of what it serialised, the replacer's answers, and the other arguments. */
  serialised: "a serialisation carries the deep label of everything serialised and the replacer's answers",
  /** A host call: the tool's (or the reader's) label of its answer joined with the inputs and the context (program.ts callHost). */
  host: "a host answer carries its own label, the inputs and the context",
} as const;

export type Refinement = keyof typeof REFINEMENTS;

/** True when the builtin changes nothing and calls nothing. */
export function isInertBuiltin(f: Fn): boolean {
  const fx = flagsOf(f);
  return fx.writes === "none" && fx.calls === false;
}

/** The default label of a call's inputs: receiver and arguments, deep. */
export function inputsLabel(args: Val[], argLs: Label[], self: Val, selfL: Label): Label {
  let l = isRef(self) && !st.mutants.defaultDropsContents ? withContents(self, selfL) : selfL;
  if (st.mutants.defaultDropsArgs) return l;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    l = join2(l, isRef(a) ? withContents(a, argLs[i] ?? BOT) : argLs[i] ?? BOT);
  }
  return l;
}

/** The call in progress of a builtin: what its callbacks answered (kept on the stack: nested calls have their own). */
interface Frame {
  coarse: boolean;
  answers: Label;
  /** The pc the builtin was called at, before it raised it for its callbacks. */
  callerPc: Label;
}

let frame: Frame | null = null;

/**
 * The frame of a builtin that declared it calls nothing: a callback it called through callBack
 * anyway would have its answer dropped, so callBack ends the run instead. Builtins that run
 * callbacks their own way are held to the declaration by test/interpreter/calls-declared.test.ts.
 */
const NO_CALLS: Frame = Object.freeze({ coarse: false, answers: BOT, callerPc: BOT });

/**
 * Calls a callback on behalf of the builtin in progress. Under the default rule, its answer
 * (contents included) joins the builtin's result.
 */
export function callBack(cb: Val, cbL: Label, args: Val[], argLs: Label[]): Val {
  // Which callback runs was chosen where the builtin was called: a callback chosen by data is a
  // callee chosen by data, judged against that pc, not the one the builtin raised to run it.
  if (frame === NO_CALLS) throw new Error("internal: a builtin that declares `calls: false` called back");
  const r = callFunction(cb, cbL, args, argLs, BOT, frame?.callerPc);
  if (frame !== null && frame.coarse) frame.answers = join2(frame.answers, withContents(r, st.l));
  return r;
}

/**
 * After a builtin called (or could have called) callback `cb` reached through a reference
 * labelled `cbL`, as many times as `l` decided: what it may write carries `l`. A callback data
 * chose (its label beyond the pc the builtin was called at) is left alone: where it ran, it ran
 * under that label and one that changes state stopped the run, so in every run that goes on it
 * did nothing, and the value chosen instead in another run (a string, another function) is not
 * upgraded there either.
 */
export function upgradeCallback(cb: Val, cbL: Label, l: Label, callerPc: Label = frame === null || frame === NO_CALLS ? st.pc : frame.callerPc): void {
  if (cbL !== BOT && !cbL.flowsTo(callerPc) && !st.mutants.noAliasFloor) return;
  upgradeCallee(cb, l);
}

/** The program's calling convention, installed by compile/functions.ts (which imports this file). */
let callFunction: (f: Val, fl: Label, args: Val[], argLs: Label[], shape?: Label, choosePc?: Label) => Val = () => undefined;
export function setCallFunction(fn: typeof callFunction): void {
  callFunction = fn;
}

/** A host RangeError other than a stack overflow is the program's error (`(1).toFixed(500)`). */
function hostError(e: unknown): e is RangeError {
  return e instanceof RangeError && !/call stack/i.test(e.message);
}

/**
 * The gate's builtin half: calls builtin `f` (reached through a reference labelled `fl`) with
 * arguments whose count was decided by `shape`, applying the default rule or `f`'s refinements.
 * Sets `st.l` to the result's label.
 */
export function callBuiltin(f: Fn, fl: Label, args: Val[], argLs: Label[], shape: Label, choosePc: Label = st.pc): Val {
  const fx = flagsOf(f);
  if (fl === BOT && shape === BOT && fx.calls === false) return callPlain(f.builtin!, f.self, f.selfL ?? BOT, args, argLs);
  const self = f.self;
  const selfL = f.selfL ?? BOT;
  // Which function runs (beyond which receiver it runs on) and with how many arguments.
  const decided = join2(fl, shape);
  if (fl !== BOT && !fl.flowsTo(choosePc) && !st.mutants.noAliasFloor) {
    // Data chose the function (not only its receiver, by a name in the text: `byName`, whose
    // label is its receiver's): another run's choice may stop where this one does not, or write
    // where this one does not (attack r11-bind: `(u.c ? p.push : p.at)(1)` on an untrusted p).
    if (f.byName !== true) mayStopOn(fl);
    // Beyond its receiver: the builtins not called would have changed other things, which
    // cannot be accounted for.
    if (fx.writes !== "none" && !fl.flowsTo(join2(choosePc, selfL))) throw new SecurityStop(`cannot call \`${f.name}\`: which function runs was chosen by untrusted or private data (${brief(fl)}), and it changes state; choose the function with trusted data, or build a new value instead`, fl);
  }
  if (fx.calls !== false) mayStopOnCallables(argLs, shape === BOT ? fx.callsAt : undefined);
  let inputs: Label | undefined;
  const inputsNow = (): Label => (inputs ??= join2(inputsLabel(args, argLs, self, selfL), decided));
  if (fx.throws !== false && st.tryDepth > 0) mayThrowOn(inputsNow());
  const guarded = decided !== BOT && !underPc(decided);
  // The pc the builtin is called at: its callbacks are judged against it, not against the pc
  // it raises by what chose it (which holds the very label a data-chosen callback carries).
  const callerPc = st.pc;
  const saved = guarded ? enterPc(decided) : st.spc;
  const outer = frame;
  const mine: Frame = { coarse: fx.refine === undefined, answers: BOT, callerPc };
  frame = mine;
  try {
    const v = f.builtin!(args, argLs, self, selfL);
    // Every text a builtin returns is charged and checked against the string limit.
    if (typeof v === "string" && v.length > 1024) (charge(2 * v.length), checkString(v));
    const l = mine.coarse ? join2(inputsNow(), mine.answers) : join2(st.l, fx.calls !== false ? callableArgsLabel(argLs) : BOT);
    st.l = join2(l, decided);
    return v;
  } catch (e) {
    // Rule: an error a builtin throws carries its inputs (its message may quote any of them).
    throw failed(e, fx, inputsNow());
  } finally {
    frame = outer;
    if (guarded) {
      const rl = st.l;
      leavePc(saved);
      // What the builtins that could have run instead, or with other arguments, would have
      // changed, and the functions they would have called: any argument, whether or not this
      // builtin calls its own (`(c ? Array.from : Array.of)([1], f)`).
      upgradeWrites(f, args, decided, true);
      for (let i = 0; i < args.length; i++) upgradeCallback(args[i], argLs[i] ?? BOT, decided, callerPc);
      st.l = rl;
    }
  }
}

/**
 * Rule: an argument a builtin may call, chosen by data beyond the pc (`xs.forEach(c ? f : g)`,
 * `s.replace(re, c ? f : "x")`), decides whether a call happens and what it does, so whether
 * the run stops or throws there, in this run or in another that chose otherwise: where the run
 * may end carries its label whether or not it is called here (attack r10-stops). `at`: the
 * positions the builtin calls (all when undefined).
 */
function mayStopOnCallables(argLs: Label[], at: readonly number[] | undefined): void {
  for (let i = 0; i < argLs.length; i++) {
    const l = argLs[i] ?? BOT;
    if (l !== BOT && (at === undefined || at.includes(i)) && !l.flowsTo(st.pc)) mayStopOn(l);
  }
}

/**
 * The gate for the common case, the same rules with nothing to decide: a trusted callee, a fixed
 * argument count (so no region is entered and nothing is upgraded), and a builtin that calls
 * nothing (so no answers are collected). Most string, number and element methods come here,
 * from the call site directly when the receiver is trusted (compile/calls.ts).
 */
export function callPlain(fx: BuiltinImpl, self: Val, selfL: Label, args: Val[], argLs: Label[]): Val {
  if (fx.throws !== false && st.tryDepth > 0) mayThrowOn(inputsLabel(args, argLs, self, selfL));
  const outer = frame;
  frame = NO_CALLS;
  try {
    const v = fx(args, argLs, self, selfL);
    if (typeof v === "string" && v.length > 1024) (charge(2 * v.length), checkString(v));
    if (fx.refine === undefined) st.l = inputsLabel(args, argLs, self, selfL);
    return v;
  } catch (e) {
    throw failed(e, fx, inputsLabel(args, argLs, self, selfL));
  } finally {
    frame = outer;
  }
}

/**
 * What a builtin's failure becomes, `inputs` being its inputs' label: an error it throws carries
 * them and the pc (its message may quote any of them); a host RangeError is the program's error
 * or, for a text too long, a limit.
 */
function failed(e: unknown, fx: BuiltinFlags, inputs: Label): unknown {
  if (e instanceof ProgramThrow) {
    const l = join2(join2(e.label, inputs), st.pc);
    // A failed call's throw keeps apart what decided its place but for the failure: raised alike.
    const raise = join2(inputs, st.pc);
    if (l === e.label && (e.call === undefined || raise.flowsTo(e.call.reached))) return e;
    const call = e.call === undefined ? undefined : { ...e.call, reached: join2(e.call.reached, raise) };
    return new ProgramThrow(e.value, l, e.line, e.column, join2(join2(e.at, inputs), st.pc), call);
  }
  if (hostError(e)) {
    // A text too long for the host, or any host error of a builtin that declared it does not
    // throw (so no label decided whether it would): the run ends at a limit, uncatchable.
    if (fx.throws === false || /invalid string length/i.test(e.message)) limit(`a string or array grew past what the host can hold (${e.message})`);
    const l = join2(inputs, st.pc);
    return new ProgramThrow(makeError("RangeError", e.message, l), l);
  }
  return e;
}

/**
 * What a refined builtin that may call its arguments returns also carries every argument's
 * reference label: which function it was given, or that it was given none (`undefined`, a
 * string), decided which path it took, and a refinement labels only the parts it read
 * (`Array.from(xs, c ? f : undefined)`, `JSON.parse(t, c ? f : undefined)`).
 */
function callableArgsLabel(argLs: Label[]): Label {
  let l: Label = BOT;
  for (const a of argLs) l = join2(l, a ?? BOT);
  return l;
}

/** True when `v` is a function value. */
export function isFn(v: Val): v is Fn {
  return isRef(v) && v.k === FN;
}

