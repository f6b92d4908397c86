export { ProgramError } from "./errors.js";
export type { ProgramErrorKind } from "./errors.js";
export { parseProgram } from "./parse.js";
export { checkProgram, NEWABLE } from "./check.js";
export { regionEffects, mergeEffects, accessPath, staticKey } from "./effects.js";
export type { RegionEffects, AccessPath } from "./effects.js";
export { resolveScopes } from "./scopes.js";
export type { Resolution, Decl } from "./scopes.js";
export { patternNames } from "./patterns.js";
