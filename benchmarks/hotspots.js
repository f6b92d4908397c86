/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time,
 * and the most inclusive time, with their source file and line.
 *
 *   node benchmarks/hotspots.js /tmp/sluice-prof/CPU.*.cpuprofile [top=25]
 */
import { readFileSync } from "node:fs";

const [file, topText = "25"] = process.argv.slice(2);
if (file === undefined) throw new Error("usage: node benchmarks/hotspots.js <file.cpuprofile> [top]");
const top = Number(topText);
const profile = JSON.parse(readFileSync(file, "utf8"));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfSamples = new Map();
for (const id of profile.samples) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
const total = profile.samples.length;

const keyOf = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${f.url.replace(/^.*\/(dist|node_modules)\//, "$1/")}:${f.lineNumber + 1}` : "";
  return `${f.functionName || "(anonymous)"} ${where}`.trim();
};

// Self time per function, and inclusive time counted once per stack (recursion not doubled).
const self = new Map();
const inclusive = new Map();
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
for (const [id, count] of selfSamples) {
  const k = keyOf(byId.get(id));
  self.set(k, (self.get(k) ?? 0) + count);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = keyOf(byId.get(cur));
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + count);
  }
}

const show = (title, map) => {
  console.log(`\n${title} (of ${total} samples)`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
};
show("self time", self);
show("inclusive time", inclusive);
