/** The workspace suite: email, calendar and a cloud drive with sharing. */
import type { ScenarioSuite } from "../../types.js";
import { environment, places, USER, USER_NAME, type WorkspaceEnv } from "./environment.js";
import { injectionTasks } from "./injection-tasks.js";
import { policies, tools } from "./tools.js";
import { userTasks } from "./user-tasks.js";

export const workspace: ScenarioSuite<WorkspaceEnv> = {
  name: "workspace",
  description: "email, calendar and a cloud drive with sharing, for a designer at a small studio",
  user: { name: USER_NAME, principal: USER },
  today: environment().today,
  environment,
  places,
  tools,
  policies,
  userTasks,
  injectionTasks,
};
