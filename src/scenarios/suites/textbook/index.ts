/** The textbook's email example as a small suite of its own. */
import type { ScenarioSuite } from "../../types.js";
import { environment, places, USER, type TextbookEnv } from "./environment.js";
import { injectionTasks, userTasks } from "./tasks.js";
import { policies, tools } from "./tools.js";

export const textbook: ScenarioSuite<TextbookEnv> = {
  name: "textbook",
  description: "the textbook's example: a stranger's email, a private key, and send_email",
  user: { name: "the user", principal: USER },
  today: "2025-03-10",
  environment,
  places,
  tools,
  policies,
  userTasks,
  injectionTasks,
};
