/**
 * Closed forms for the flaky tool of {@link simulateFlaky}. Each attempt independently is
 * lost before it arrives (probability a), executed with its reply lost (b), or executed and
 * answered (s = 1 − a − b); a call makes attempts until one is answered or n have been made.
 */

/** What the model predicts for n attempts. */
export interface FlakyPrediction {
  /** Share of calls that get an answer: 1 − (a + b)^n. */
  availability: number;
  /** Without idempotency keys, share of calls executed twice or more. */
  duplicates: number;
  /** Without keys, mean executions per call. */
  executionsPerCall: number;
}

/**
 * A call is executed at most once unless an executed attempt's reply was lost and a later
 * attempt executed too. P(no execution) = a^n; P(exactly one) = the one is the answered
 * attempt after only lost ones, Σ_k a^(k−1)·s = s(1 − a^n)/(1 − a), or it is an unanswered
 * execution among n − 1 lost attempts, n·b·a^(n−1). Duplicates are the rest.
 */
export function predictFlaky(a: number, b: number, n: number): FlakyPrediction {
  const s = 1 - a - b;
  const none = a ** n;
  const once = (a === 1 ? 0 : (s * (1 - a ** n)) / (1 - a)) + n * b * a ** (n - 1);
  // Attempt k happens when the k − 1 before it were all unanswered; it executes with probability b + s.
  let executions = 0;
  for (let k = 1; k <= n; k++) executions += (a + b) ** (k - 1) * (b + s);
  return { availability: 1 - (a + b) ** n, duplicates: Math.max(0, 1 - none - once), executionsPerCall: executions };
}

/** Four binomial standard errors of a share p measured over `trials`, plus one count of slack. */
export function binomialTolerance(p: number, trials: number): number {
  return 4 * Math.sqrt((p * (1 - p)) / trials) + 1 / trials;
}
