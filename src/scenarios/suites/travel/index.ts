/** The travel suite: hotels, restaurants, car rental, reservations and email. */
import type { ScenarioSuite } from "../../types.js";
import { environment, places, USER, USER_NAME, type TravelEnv } from "./environment.js";
import { injectionTasks } from "./injection-tasks.js";
import { policies, tools } from "./tools.js";
import { userTasks } from "./user-tasks.js";

export const travel: ScenarioSuite<TravelEnv> = {
  name: "travel",
  description: "a booking platform with hotels, restaurants, car rental and reviews, plus email and a calendar",
  user: { name: USER_NAME, principal: USER },
  today: "2025-06-02",
  environment,
  places,
  tools,
  policies,
  userTasks,
  injectionTasks,
};
