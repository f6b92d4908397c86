/** The labelled tool-search corpus of benchmarks/search, loaded for tests. */
import { readFileSync } from "node:fs";
import { corpusTools, type LabelledRequest, type ToolCorpus } from "../../src/index.js";

function read<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(`../../benchmarks/search/${file}`, import.meta.url), "utf8")) as T;
}

export const corpus = read<ToolCorpus>("tools.json");
export const requests = read<{ requests: LabelledRequest[] }>("requests.json").requests;
/** 150 requests written by a helper given only tools.json; odd ids were studied while tuning, even ids held out. */
export const independentRequests = read<{ requests: LabelledRequest[] }>("requests-independent.json").requests;
export const { tools, notes } = corpusTools(corpus);
