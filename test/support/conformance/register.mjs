// The conformance suite (0.1.14 and later) imports fs.globSync, which Node 22 added, though
// `conformance server` never calls it (only tier-check does). Preloaded with `node --import`,
// this hands the suite, and nothing else, a node:fs that also has a globSync that throws.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
