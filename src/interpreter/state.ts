/**
 * The state of the one execution in progress. Execution is synchronous and never re-entered,
 * so a single mutable record serves every compiled closure without threading it through calls.
 */
import type { Label } from "../labels/index.js";
import { BOT, type Val, setTextCheck, setWalkStep } from "./values.js";
import type { HostAnswerer, HostOutcome, Pending } from "./program.js";

/** The limits an execution enforces, all required. */
export interface ResolvedLimits {
  steps: number;
  timeMs: number;
  memoryBytes: number;
  stringLength: number;
  arrayLength: number;
  callDepth: number;
  hostCalls: number;
}

export const DEFAULT_LIMITS: ResolvedLimits = {
  steps: 20_000_000,
  timeMs: 10_000,
  memoryBytes: 256 * 1024 * 1024,
  stringLength: 16 * 1024 * 1024,
  arrayLength: 4 * 1024 * 1024,
  callDepth: 200,
  hostCalls: 10_000,
};

/** Switches that break one label rule on purpose, for the planted-leak (mutant) suite only. */
export interface Mutants {
  [name: string]: boolean | undefined;
}

export interface ExecState {
  /** Label register: the label of the value the last expression produced. */
  l: Label;
  /** Effective program counter: what decided that the current code runs. */
  pc: Label;
  /** The structured part of the pc: enclosing branches, loops, callbacks, catch. */
  spc: Label;
  /** Breaks and continues that did or could have left the current loop. */
  brk: Label;
  /** Returns that did or could have left the current function. */
  ret: Label;
  /** Throws that did or could have left the current try block or function. */
  thr: Label;
  /** Raised when a branch not taken had effects that cannot be enumerated; joins every sink. */
  floor: Label;
  /**
   * What decided that the run did not end at an earlier exit: every region (branch, loop,
   * callback) that could have thrown, whatever the try depth. Where an uncaught throw ends the
   * run carries it. (An operation that throws on its operands, outside a try, is not counted:
   * that it did not end the run is the termination channel, docs/security-model.md.)
   */
  endL: Label;
  tryDepth: number;
  depth: number;
  steps: number;
  memory: number;
  deadline: number;
  limits: ResolvedLimits;
  retV: Val;
  retL: Label;
  /** pc at the return statement that ended the current function. */
  retPc: Label;
  /** Target name of the labelled break/continue in flight. */
  jump: string | null;
  /** The completion value of the program and its label. */
  cv: Val;
  cvl: Label;
  mutants: Mutants;
  /** Lines written with console.log. */
  logs: string[];
  /** Seed of Math.random: runs are deterministic. */
  seed: number;
  /** What decided the seed's state: every call of Math.random so far, and the pc of each. */
  seedL: Label;
  /** The run's clock: `new Date()` and `Date.now()` give this instant (ms since the epoch), fixed for the run. */
  now: number;
  /** The host's recorded answers for this run, and how many the run has used. */
  hostRecord: HostOutcome[];
  hostIndex: number;
  /** Host calls deferred while `Promise.all`'s argument is evaluated (null: none is). */
  batch: Pending[] | null;
  /** Answers host calls past the record's end, blocking (null: such a call suspends the run). */
  ask: HostAnswerer | null;
  /** Set by a call in tail position of `Promise.all`'s argument, right before it dispatches. */
  defer: boolean;
  /** Labels of the optional links of the chain being evaluated: what decided that its rest runs. */
  chainL: Label;
  /** Call depth at which the callback of the `.map` that is `Promise.all`'s argument runs (-1: none). */
  deferDepth: number;
}

export const st: ExecState = {
  l: BOT,
  pc: BOT,
  spc: BOT,
  brk: BOT,
  ret: BOT,
  thr: BOT,
  floor: BOT,
  endL: BOT,
  tryDepth: 0,
  depth: 0,
  steps: 0,
  memory: 0,
  deadline: Infinity,
  limits: DEFAULT_LIMITS,
  retV: undefined,
  retL: BOT,
  retPc: BOT,
  jump: null,
  cv: undefined,
  cvl: BOT,
  mutants: {},
  logs: [],
  seed: 1,
  seedL: BOT,
  now: 0,
  hostRecord: [],
  hostIndex: 0,
  batch: null,
  ask: null,
  defer: false,
  deferDepth: -1,
  chainL: BOT,
};

export function resetState(limits: ResolvedLimits, mutants: Mutants, record: HostOutcome[] = [], ask: HostAnswerer | null = null, now = 0): void {
  st.now = now;
  st.hostRecord = record;
  st.ask = ask;
  st.hostIndex = 0;
  st.batch = null;
  st.defer = false;
  st.deferDepth = -1;
  st.chainL = BOT;
  st.l = st.pc = st.spc = st.brk = st.ret = st.thr = st.floor = st.endL = st.retL = st.retPc = st.cvl = BOT;
  st.tryDepth = st.depth = st.steps = st.memory = 0;
  st.deadline = Date.now() + limits.timeMs;
  st.limits = limits;
  st.retV = st.cv = undefined;
  st.jump = null;
  st.mutants = mutants;
  st.logs = [];
  st.seed = 0x2545f491;
  st.seedL = BOT;
}

/** Recomputes the effective pc from its parts; call after changing any of them. */
export function syncPc(): void {
  st.pc = st.spc.join(st.brk).join(st.ret).join(st.thr);
}

/**
 * A value thrown by the program (or a runtime error it can catch), with its label. `at` is what
 * decided that it was thrown there (the pc of a throw statement, what a builtin's failure
 * depended on): where the run ended, if nothing catches it. The value's own label is not in it.
 * `line`/`column` are its place: left unset where it is raised (a builtin does not know the
 * program text) and set by the innermost statement or loop head it leaves ({@link placeAt}).
 */
export class ProgramThrow {
  readonly at: Label;
  constructor(
    readonly value: Val,
    readonly label: Label,
    public line?: number,
    public column?: number,
    at?: Label,
    /** A failed tool call's throw: its tool and kind, and its place label without the failure's own (see throwCallFailure). */
    readonly call?: { readonly tool: string; readonly kind: string; readonly reached: Label },
  ) {
    this.at = at ?? label;
  }
}

/** A resource limit was hit; the run ends and the program cannot catch it. */
export class LimitExceeded {
  constructor(readonly message: string) {}
}

/**
 * The run would write somewhere that data chose, where the writes it did not make could not
 * be accounted for; it stops (sound by termination). The program cannot catch it.
 */
export class SecurityStop {
  /** Its place, set as a {@link ProgramThrow}'s is. */
  line?: number;
  column?: number;
  /** The pc where it stopped: what decided that this code ran (its place). */
  readonly at: Label = st.pc;
  /** `label`: what decided the stop (the choice), which the message may quote. */
  constructor(
    readonly message: string,
    readonly label: Label = BOT,
  ) {}
}

/**
 * Gives an error leaving the code at `line`/`column` that place, unless code inside it gave
 * one first. The place of an error is thus the innermost statement (or loop head, case test,
 * binding) it was raised in: fixed by the program text and by which code ran, which the pc at
 * the raise covers. No place is kept in mutable state, where the last statement that ran (which
 * data may have chosen) would leave its own.
 */
export function placeAt(e: unknown, line: number, column: number): unknown {
  if ((e instanceof ProgramThrow || e instanceof SecurityStop) && e.line === undefined) {
    e.line = line;
    e.column = column;
  }
  return e;
}

/** A policy stopped the run; the program cannot catch it. */
export class Blocked {
  constructor(readonly reason: string) {}
}

export function limit(message: string): never {
  throw new LimitExceeded(message);
}

/** Counts one step; checks the step budget and, every 1024 steps, the clock. */
export function step(): void {
  if (++st.steps > st.limits.steps) limit(`the program ran more than ${st.limits.steps} steps`);
  if ((st.steps & 1023) === 0 && Date.now() > st.deadline) limit(`the program ran past its time limit of ${st.limits.timeMs} ms`);
}

/**
 * Charges an allocation of `bytes` against the memory budget. A large one is also work done in
 * one step (a builtin building a big result): it counts steps in proportion and reads the clock.
 */
export function charge(bytes: number): void {
  st.memory += bytes;
  if (st.memory > st.limits.memoryBytes) limit(`the program allocated more than ${st.limits.memoryBytes} bytes`);
  if (bytes >= 65536) work(bytes >> 6);
}

/** Counts `n` steps of work done at once by a builtin, and reads the clock. */
export function work(n: number): void {
  st.steps += n;
  if (st.steps > st.limits.steps) limit(`the program ran more than ${st.limits.steps} steps`);
  if (Date.now() > st.deadline) limit(`the program ran past its time limit of ${st.limits.timeMs} ms`);
}

/**
 * Work a builtin is about to do at once, in one host call it cannot interrupt (a regular
 * expression over a long text): `n` steps, and `ms` of expected time that must fit before the
 * deadline, so the run ends at its limit before the call rather than long after it.
 */
export function expectWork(n: number, ms: number): void {
  work(n);
  if (Date.now() + ms > st.deadline) limit(`the program ran past its time limit of ${st.limits.timeMs} ms`);
}

export function checkString(s: string): string {
  if (s.length > st.limits.stringLength) limit(`a string grew past ${st.limits.stringLength} characters`);
  return s;
}

// Conversions of nested values (values.ts) step once per element they visit: a value that
// shares parts (`a = [a, a]`) is small to build and exponential to walk.
setWalkStep(step);
// A text conversion builds its result at once: its length is checked, and it is charged, first.
setTextCheck((n) => {
  if (n > st.limits.stringLength) limit(`a string grew past ${st.limits.stringLength} characters`);
  if (n > 1024) charge(2 * n);
});

export function checkArrayLength(n: number): void {
  if (n > st.limits.arrayLength) limit(`an array grew past ${st.limits.arrayLength} elements`);
}

/**
 * The characters of `s` as the host's array, for a builtin that makes one part of something per
 * character (`Array.from(s)`, `{...s}`, `for…in` over a string): checked against the array limit
 * and charged `bytesEach` per character before the array is built.
 */
export function charsOf(s: string, bytesEach: number): string[] {
  checkArrayLength(s.length);
  charge(bytesEach * s.length);
  return [...s];
}
