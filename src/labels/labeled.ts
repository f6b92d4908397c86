import { Label } from "./label.js";

const BRAND = Symbol.for("sluice.labeled");

/** A part of a tool's result that carries its own label; see {@link labeled}. */
export interface Labeled<T = unknown> {
  readonly [BRAND]: true;
  readonly value: T;
  readonly label: Label;
}

/**
 * Marks a part of a tool's result with its own label (for example each email of an inbox
 * listing with its sender). When a program reads that part, its label is this label joined
 * with the labels of every container on the way to it.
 */
export function labeled<T>(value: T, label: Label): Labeled<T> {
  if (!(label instanceof Label)) throw new TypeError("labeled(value, label): label must be a Label");
  return Object.freeze({ [BRAND]: true as const, value, label });
}

/** True when `x` was made by {@link labeled}. */
export function isLabeled(x: unknown): x is Labeled {
  return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
}
