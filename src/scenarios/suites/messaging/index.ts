/** The messaging suite: channels, direct messages and web pages. */
import type { ScenarioSuite } from "../../types.js";
import { environment, places, USER, USER_NAME, type MessagingEnv } from "./environment.js";
import { injectionTasks } from "./injection-tasks.js";
import { policies, tools } from "./tools.js";
import { userTasks } from "./user-tasks.js";

export const messaging: ScenarioSuite<MessagingEnv> = {
  name: "messaging",
  description: "a team chat with channels, direct messages and the web pages people share",
  user: { name: USER_NAME, principal: USER },
  today: "2025-10-06",
  environment,
  places,
  tools,
  policies,
  userTasks,
  injectionTasks,
};
