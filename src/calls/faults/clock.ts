/** The part of a fake clock (such as @sinonjs/fake-timers, installed globally) the simulations drive. */
export interface SimulationClock {
  /** Runs every timer, letting promises settle between them, until none is left. */
  runAllAsync(): Promise<unknown>;
  /** Advances time by `ms`, running the timers due. */
  tickAsync(ms: number): Promise<unknown>;
}
