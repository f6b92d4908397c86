import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Part, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";

/**
 * Following one A2A task from the first message to an end: a final state, a question no one
 * answered, or the deadline. Text the remote agent wrote is returned as data, never acted on.
 */

/** A task's state as sluice reports it: A2A 1.0's names in kebab case. */
export type A2AState = "submitted" | "working" | "input-required" | "auth-required" | "completed" | "failed" | "canceled" | "rejected" | "unknown";

/** What a call of a remote agent gives the program. */
export interface A2AAnswer {
  state: A2AState;
  text: string;
}

/** A question a remote agent asked back (`input-required`), put to the person. */
export interface A2AQuestion {
  /** The agent's name as configured. */
  agent: string;
  /** The agent's question: text the remote agent wrote, untrusted. */
  question: string;
  /** The task being asked about. */
  taskId: string;
}

/** Asks the person; resolves to their answer, or to `undefined`/`null` to leave the question unanswered. */
export type AskPerson = (question: A2AQuestion) => string | null | undefined | Promise<string | null | undefined>;

const STATES: Readonly<Record<number, A2AState>> = {
  [TaskState.TASK_STATE_SUBMITTED]: "submitted",
  [TaskState.TASK_STATE_WORKING]: "working",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
  [TaskState.TASK_STATE_AUTH_REQUIRED]: "auth-required",
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
  [TaskState.TASK_STATE_REJECTED]: "rejected",
};

/** States after which the agent will do nothing more for this task without a new message. */
const STOPS: ReadonlySet<A2AState> = new Set(["input-required", "auth-required", "completed", "failed", "canceled", "rejected"]);

function partText(part: Part): string {
  const c = part.content;
  if (c === undefined) return "";
  if (c.$case === "text") return c.value;
  if (c.$case === "data") return JSON.stringify(c.value ?? null);
  if (c.$case === "url") return c.value;
  return part.filename !== "" ? `[file ${part.filename}]` : "";
}

function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map(partText).filter((t) => t !== "").join("\n");
}

/** A user message in A2A's shape, continuing `task` when given. */
export function userMessage(text: string, task?: { id: string; contextId: string }): Message {
  return {
    messageId: randomUUID(),
    contextId: task?.contextId ?? "",
    taskId: task?.id ?? "",
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** What the task has said so far, folded from the stream's events. */
interface Progress {
  task?: { id: string; contextId: string };
  state: A2AState;
  status: string;
  artifacts: Map<string, string>;
  reply?: string;
}

function fold(p: Progress, task: Task): void {
  p.task = { id: task.id, contextId: task.contextId };
  p.state = STATES[task.status?.state ?? -1] ?? "unknown";
  p.status = partsText(task.status?.message?.parts);
  for (const a of task.artifacts ?? []) p.artifacts.set(a.artifactId, partsText(a.parts));
}

/** The answer's text: the artifacts when the task completed with some, else the status message. */
function answerOf(p: Progress): A2AAnswer {
  if (p.reply !== undefined) return { state: "completed", text: p.reply };
  const artifacts = [...p.artifacts.values()].filter((t) => t !== "").join("\n");
  const text = p.state === "completed" && artifacts !== "" ? artifacts : p.status !== "" ? p.status : artifacts;
  return { state: p.state, text };
}

/** Sends one message and reads the task's events until it stops or the signal aborts. */
async function exchange(client: Client, message: Message, p: Progress, signal: AbortSignal): Promise<void> {
  const request = { tenant: "", message, configuration: undefined, metadata: undefined };
  for await (const event of client.sendMessageStream(request, { signal })) {
    const e = event.payload;
    if (e === undefined) continue;
    if (e.$case === "message") {
      p.reply = partsText(e.value.parts);
      p.state = "completed";
      return;
    }
    // A task snapshot may be the one the turn starts from (still input-required when the
    // person's answer goes back), so only a status update, or the stream's end, ends a turn.
    if (e.$case === "task") fold(p, e.value);
    else if (e.$case === "statusUpdate") {
      p.state = STATES[e.value.status?.state ?? -1] ?? "unknown";
      p.status = partsText(e.value.status?.message?.parts);
      p.task ??= { id: e.value.taskId, contextId: e.value.contextId };
      if (STOPS.has(p.state)) return;
    } else if (e.$case === "artifactUpdate" && e.value.artifact !== undefined) {
      const a = e.value.artifact;
      const before = e.value.append ? p.artifacts.get(a.artifactId) ?? "" : "";
      p.artifacts.set(a.artifactId, before + partsText(a.parts));
    }
  }
}

/** Options of {@link followTask}. */
export interface FollowOptions {
  agent: string;
  deadlineMs: number;
  ask?: AskPerson;
  /** Most questions put to the person in one call. */
  maxQuestions: number;
  /** Aborted by the caller (e.g. a runtime's per-attempt timeout). */
  signal?: AbortSignal;
}

/** Raised when the deadline passes first; the remote task is asked to cancel. */
export class A2ADeadlineError extends Error {
  constructor(agent: string, ms: number, state: A2AState) {
    super(`the A2A agent ${agent} did not finish within ${ms} ms (its task was still ${state}); the task was asked to cancel`);
    this.name = "A2ADeadlineError";
  }
}

/**
 * Sends `text` and follows the task to a final state, putting each `input-required` question
 * to the person through `ask`; an unanswered question ends the call in that state.
 */
export async function followTask(client: Client, text: string, options: FollowOptions): Promise<A2AAnswer> {
  const deadline = AbortSignal.timeout(options.deadlineMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  const p: Progress = { state: "submitted", status: "", artifacts: new Map() };
  let message = userMessage(text);
  try {
    for (let asked = 0; ; asked++) {
      await exchange(client, message, p, signal);
      if (p.state !== "input-required" || options.ask === undefined || p.task === undefined || asked >= options.maxQuestions) break;
      const reply = await options.ask({ agent: options.agent, question: p.status, taskId: p.task.id });
      if (typeof reply !== "string" || reply === "") break;
      message = userMessage(reply, p.task);
      p.artifacts.clear();
    }
  } catch (err) {
    if (!signal.aborted) throw err;
    if (p.task !== undefined) await client.cancelTask({ tenant: "", id: p.task.id, metadata: undefined }, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    if (deadline.aborted) throw new A2ADeadlineError(options.agent, options.deadlineMs, p.state);
    throw new Error(`the call of the A2A agent ${options.agent} was aborted`);
  }
  return answerOf(p);
}
