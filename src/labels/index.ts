export { Label, joinAll } from "./label.js";
export type { Readers, LabelSpec } from "./label.js";
export { labeled, isLabeled } from "./labeled.js";
export type { Labeled } from "./labeled.js";
