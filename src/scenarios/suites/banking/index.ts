/** The banking suite: transactions, scheduled payments, files and account settings. */
import type { ScenarioSuite } from "../../types.js";
import { environment, places, USER, USER_NAME, type BankingEnv } from "./environment.js";
import { injectionTasks } from "./injection-tasks.js";
import { policies, tools } from "./tools.js";
import { userTasks } from "./user-tasks.js";

export const banking: ScenarioSuite<BankingEnv> = {
  name: "banking",
  description: "an online bank account with transfers, scheduled payments, downloaded bills and settings",
  user: { name: USER_NAME, principal: USER },
  today: environment().today,
  environment,
  places,
  tools,
  policies,
  userTasks,
  injectionTasks,
};
