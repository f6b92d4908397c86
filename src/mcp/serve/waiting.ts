/**
 * Plan runs that stop to wait for the client: a person asked to approve a call, or the
 * client's model asked to read text (sampling). The run stays suspended in this process (its
 * tool calls are not repeated) while the question travels to the client and back, which may
 * take several MCP requests.
 */
import type { CreateMessageRequestParams } from "@modelcontextprotocol/server";
import type { ApprovalRequest, RunResult } from "../../runtime/index.js";

/** What a run asks the client: a person's approval, or a sampling request. */
export type Question = { kind: "approve"; request: ApprovalRequest } | { kind: "sample"; params: CreateMessageRequestParams };

/** The answer to a question: approved or not; the sampled text, or `null` when there is none. */
export type Answer<Q extends Question> = Q extends { kind: "approve" } ? boolean : string | null;

/** One question a run is waiting on. */
export interface OpenAsk {
  /** Its key in the input_required round, unique within the run; it starts with the question's kind. */
  readonly key: string;
  readonly question: Question;
}

/** Where a run stands: ended, or waiting on questions. */
export type RunStep = { kind: "done"; result: RunResult } | { kind: "asks"; asks: OpenAsk[] };

/** A run that may wait for a person. */
export interface WaitingRun {
  /** Resolves when the run ends or has questions nobody has answered. */
  next(): Promise<RunStep>;
  /** Answers an open question (a boolean for an approval, text or `null` for a sample); false when none with that key is open. */
  answer(key: string, value: boolean | string | null): boolean;
  /** Declines every open question and every later one (a timeout, a shutdown); samples get `null`. */
  abandon(): void;
}

/** Puts a question to the client and waits for its answer. */
export type Ask = <Q extends Question>(question: Q) => Promise<Answer<Q>>;

/** The run itself, given the callback its questions go through. */
export type RunBody = (ask: Ask) => Promise<RunResult>;

function declined(question: Question): boolean | null {
  return question.kind === "approve" ? false : null;
}

/** The answer as the question's kind needs it: anything but `true` is no, anything but text is none. */
function shaped(question: Question, value: unknown): boolean | string | null {
  return question.kind === "approve" ? value === true : typeof value === "string" ? value : null;
}

function crashed(err: unknown): RunResult {
  const message = `internal error: ${err instanceof Error ? err.message : String(err)}`;
  return { status: "failed", error: { kind: "runtime", message }, calls: [], logs: [], queries: [], steps: 0 };
}

/** Starts `body`; its questions wait until {@link WaitingRun.answer} answers them. */
export function startWaitingRun(body: RunBody): WaitingRun {
  const open = new Map<string, OpenAsk & { resolve(value: boolean | string | null): void }>();
  let asked = 0;
  let abandoned = false;
  let done: RunResult | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const ask: Ask = <Q extends Question>(question: Q): Promise<Answer<Q>> => {
    if (abandoned) return Promise.resolve(declined(question) as Answer<Q>);
    return new Promise<Answer<Q>>((resolve) => {
      const key = `${question.kind}${++asked}`;
      open.set(key, { key, question, resolve: (v) => resolve(v as Answer<Q>) });
      notify();
    });
  };
  body(ask)
    .catch(crashed)
    .then((result) => {
      done = result;
      notify();
    });
  return {
    async next() {
      for (;;) {
        if (done !== undefined) return { kind: "done", result: done };
        if (open.size > 0) {
          // Calls that Promise.all starts together ask together: let the rest of them arrive.
          await new Promise((r) => setImmediate(r));
          if (done === undefined && open.size > 0) return { kind: "asks", asks: [...open.values()].map(({ key, question }) => ({ key, question })) };
          continue;
        }
        await new Promise<void>((r) => (wake = r));
      }
    },
    answer(key, value) {
      const question = open.get(key);
      if (question === undefined) return false;
      open.delete(key);
      question.resolve(shaped(question.question, value));
      return true;
    },
    abandon() {
      abandoned = true;
      for (const question of open.values()) question.resolve(declined(question.question));
      open.clear();
    },
  };
}
