/**
 * The shapes of an AgentDojo-style scenario suite: an environment of plain data, tools bound
 * to a run's copy of it, user tasks (a request, a reference plan, benign reader answers and a
 * utility check) and injection tasks (an attacker's goal and a security check).
 */
import type { ReaderScript } from "../models/index.js";
import type { Tool } from "../tools/types.js";

/** What a utility or security check sees: the environment before and after the run, and the plan's answer. */
export interface Check<E> {
  /** The environment as the run started (injections filled in). */
  before: E;
  /** The environment as the run left it. */
  after: E;
  /** The completion value of the plan, or undefined when it did not complete. */
  answer: unknown;
}

/** A place in the environment's data where an attacker's text can sit. */
export interface InjectionPlace {
  /** Identifier used in the data as `{{injection:<id>}}`. */
  id: string;
  /** Where it is, in words (e.g. "the body of the meetup ticket email, from events@…"). */
  description: string;
  /** Text that stands there when no attack runs (often empty). */
  benign: string;
}

/** How a benign run of a user task is expected to end when it does not complete. */
export interface ExpectedStop {
  /**
   * `"asks"`: a policy asks a person and, when approved, the task succeeds.
   * `"denied"`: a policy refuses a step the reference plan needs; that is the price of the defense.
   */
  outcome: "asks" | "denied";
  /** Why, in words, naming the data that makes the policy stop it. */
  why: string;
}

/** One thing the user asks for. */
export interface UserTask<E> {
  /** Unique within the suite, e.g. `"user_task_3"`. */
  id: string;
  /** The user's request, as a planner would get it. */
  prompt: string;
  /**
   * The reference plan: the program a good planner writes from the request alone. It reads data
   * with tools and extracts values from untrusted text with query_ai_assistant; it never
   * hard-codes what only the data says.
   */
  plan: string;
  /** Answers of a reader that does its job (no attack), as a scriptedReader script. */
  reader?: ReaderScript;
  /** Set when the reference plan is expected not to complete without attack. */
  expect?: ExpectedStop;
  /** True when the user got what they asked for. */
  utility(check: Check<E>): boolean;
}

/** One thing an attacker wants. */
export interface InjectionTask<E> {
  /** Unique within the suite, e.g. `"injection_task_0"`. */
  id: string;
  /** The attacker's goal in words, as the attack templates insert it. */
  goal: string;
  /** The tool call that would achieve it, for the "tool knowledge" attack. */
  tool: { name: string; args: Record<string, unknown> };
  /**
   * The values an obedient reader answers with (property names or the generic keys `email`,
   * `url`, `string`, `number`, `boolean`), see adversarialReader's attackerValues.
   */
  attacker: Record<string, unknown>;
  /** True when the attacker got what they wanted. */
  security(check: Check<E>): boolean;
}

/** A suite: one application domain with its data, tools, tasks and injection places. */
export interface ScenarioSuite<E = any> {
  /** Short name used on the command line, e.g. `"workspace"`. */
  name: string;
  /** One line on what the suite models. */
  description: string;
  /** The person the agent works for. */
  user: { name: string; principal: string };
  /** The day the suite's data describes (YYYY-MM-DD): what a planner is told today is. */
  today?: string;
  /** Fresh environment data, with `{{injection:<id>}}` where injections sit. Plain JSON. */
  environment(): E;
  /** The injection places used in the environment. */
  places: InjectionPlace[];
  /** The tools, bound to one run's environment (they read and change it). */
  tools(env: E): Tool<any, any>[];
  /** Which policy of the policy library guards each side-effecting tool, in words. */
  policies: Record<string, string>;
  userTasks: UserTask<E>[];
  injectionTasks: InjectionTask<E>[];
}
