/**
 * One circuit breaker per resource (a tool, or an MCP server shared by its tools), from
 * cockatiel: closed → open after `failures` failed calls in a row → after `cooldownMs`,
 * half-open with one trial call → closed when it succeeds, open again when it fails.
 */
import { circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from "cockatiel";
import type { BreakerOptions } from "../tools/types.js";
import { isCallerFault, LayerStop, unwrap } from "./classify.js";
import { BudgetRefusal } from "./types.js";

/**
 * Whether a failed call counts against its tool's health. The tool saying the request was
 * wrong (a 4xx) does not, and neither do the layer's own refusals (budget, local rate limit,
 * a stopped run): none of them says the tool is down.
 */
export function countsAgainstBreaker(failure: unknown): boolean {
  const err = unwrap(failure);
  if (err instanceof BudgetRefusal) return false;
  if (err instanceof LayerStop) return err.kind === "deadline";
  return !isCallerFault(err);
}

/** The breakers of one runtime. */
export interface Breakers {
  /** The resource's breaker, made on first use; undefined when the runtime has none. */
  get(resource: string): CircuitBreakerPolicy | undefined;
  /** The resource's state, or undefined without a breaker. */
  state(resource: string): "closed" | "open" | "half-open" | undefined;
  readonly options: BreakerOptions | undefined;
}

const STATE_NAMES: Record<number, "closed" | "open" | "half-open"> = {
  [CircuitState.Closed]: "closed",
  [CircuitState.Open]: "open",
  [CircuitState.HalfOpen]: "half-open",
  [CircuitState.Isolated]: "open",
};

export function createBreakers(options: BreakerOptions | undefined): Breakers {
  const byResource = new Map<string, CircuitBreakerPolicy>();
  const get = (resource: string): CircuitBreakerPolicy | undefined => {
    if (options === undefined) return undefined;
    let b = byResource.get(resource);
    if (b === undefined) {
      b = circuitBreaker(handleWhen(countsAgainstBreaker), { halfOpenAfter: options.cooldownMs, breaker: new ConsecutiveBreaker(options.failures) });
      byResource.set(resource, b);
    }
    return b;
  };
  return {
    get,
    state: (resource) => {
      const b = get(resource);
      return b === undefined ? undefined : STATE_NAMES[b.state];
    },
    options,
  };
}
