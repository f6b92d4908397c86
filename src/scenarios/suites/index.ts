/** The bundled suites. */
import type { ScenarioSuite } from "../types.js";
import { banking } from "./banking/index.js";
import { messaging } from "./messaging/index.js";
import { textbook } from "./textbook/index.js";
import { travel } from "./travel/index.js";
import { workspace } from "./workspace/index.js";

/** Every bundled suite, in the order reports show them. */
export const suites: readonly ScenarioSuite[] = Object.freeze([workspace, banking, messaging, travel, textbook]);

/** The bundled suite of that name. */
export function suiteNamed(name: string): ScenarioSuite | undefined {
  return suites.find((s) => s.name === name);
}
