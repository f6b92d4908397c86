/**
 * Plan runs that stop to wait for a person. A run's `approve` callback may be asked to
 * approve a call; the run stays suspended in this process (its tool calls are not repeated)
 * while the question travels to the client and back, which may take several MCP requests.
 */
import type { ApprovalRequest, RunResult } from "../../runtime/index.js";

/** One question a run is waiting on. */
export interface OpenAsk {
  /** Its key in the input_required round, unique within the run. */
  readonly key: string;
  readonly request: ApprovalRequest;
}

/** Where a run stands: ended, or waiting on questions. */
export type RunStep = { kind: "done"; result: RunResult } | { kind: "asks"; asks: OpenAsk[] };

/** A run that may wait for a person. */
export interface WaitingRun {
  /** Resolves when the run ends or has questions nobody has answered. */
  next(): Promise<RunStep>;
  /** Answers an open question; false when none with that key is open. */
  answer(key: string, approved: boolean): boolean;
  /** Declines every open question and every later one (a timeout, a shutdown). */
  abandon(): void;
}

/** The run itself, given the approve callback it must use. */
export type RunBody = (approve: (request: ApprovalRequest) => Promise<boolean>) => Promise<RunResult>;

function crashed(err: unknown): RunResult {
  const message = `internal error: ${err instanceof Error ? err.message : String(err)}`;
  return { status: "failed", error: { kind: "runtime", message }, calls: [], logs: [], queries: [], steps: 0 };
}

/** Starts `body`; its questions wait until {@link WaitingRun.answer} answers them. */
export function startWaitingRun(body: RunBody): WaitingRun {
  const open = new Map<string, OpenAsk & { resolve(approved: boolean): void }>();
  let asked = 0;
  let abandoned = false;
  let done: RunResult | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const approve = (request: ApprovalRequest): Promise<boolean> => {
    if (abandoned) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const key = `ask${++asked}`;
      open.set(key, { key, request, resolve });
      notify();
    });
  };
  body(approve)
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
          if (done === undefined && open.size > 0) return { kind: "asks", asks: [...open.values()].map(({ key, request }) => ({ key, request })) };
          continue;
        }
        await new Promise<void>((r) => (wake = r));
      }
    },
    answer(key, approved) {
      const ask = open.get(key);
      if (ask === undefined) return false;
      open.delete(key);
      ask.resolve(approved);
      return true;
    },
    abandon() {
      abandoned = true;
      for (const ask of open.values()) ask.resolve(false);
      open.clear();
    },
  };
}
