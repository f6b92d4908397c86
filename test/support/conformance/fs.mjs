// node:fs as it is, plus the one export Node 20 lacks; calling it says why it cannot work.
import fs from "node:fs";

export * from "node:fs";
export default fs;

export function globSync() {
  throw new Error("fs.globSync needs Node 22; `conformance server` does not use it");
}
