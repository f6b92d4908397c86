/**
 * `@opentelemetry/api`, if it is installed. It is an optional peer: without it every tracing
 * call is a no-op. It is loaded with require, synchronously, because spans start on hot paths;
 * the API keeps its registrations on a global, so this copy sees the SDK the application set
 * up even if the application imported the ES module build.
 */
import { createRequire } from "node:module";
import type * as Api from "@opentelemetry/api";

export type OtelApi = typeof Api;

let loaded: OtelApi | null | undefined;

/** The API module, or undefined when it is not installed. */
export function otel(): OtelApi | undefined {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)("@opentelemetry/api") as OtelApi;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

export { INSTRUMENTATION } from "./attributes.js";
