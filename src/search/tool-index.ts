import MiniSearch from "minisearch";
import type { Tool } from "../tools/types.js";
import { DEFAULT_LEXICON, type Lexicon, type PreparedLexicon, expand, prepareLexicon } from "./lexicon.js";
import { type TermOptions, terms, words } from "./text.js";

/**
 * BM25 retrieval over tool declarations (minisearch): each tool is a document with its name,
 * description, parameter names and its server's note as fields.
 */

/** Options of {@link createToolIndex} and {@link searchTools}. */
export interface ToolSearchOptions {
  /**
   * A note per server, keyed by server name: what the server is for, in words people use
   * ("Slack, the team's chat"). A tool belongs to the server whose name followed by `_` is the
   * longest prefix of the tool's name, as MCP tools are named `<server>_<tool>`.
   */
  notes?: Readonly<Record<string, string>>;
  /** Reduce words to their stems on both sides. Default true. */
  stem?: boolean;
  /** Query expansion: sluice's lexicon (default), your own, or `false` for none. */
  lexicon?: Lexicon | false;
  /** Weight of a term the lexicon added, against 1 for a term of the request. Default 0.5. */
  expansionWeight?: number;
  /** Extra expansion of a request's terms (for experiments such as WordNet synonyms): term → terms. */
  expandTerm?: (term: string) => readonly string[];
  /** Field weights. Defaults: name 2, description 1, parameters 0.5, note 0.25. */
  fields?: Partial<Record<"name" | "description" | "parameters" | "note", number>>;
}

/** A tool index built once, searched many times. */
export interface ToolIndex {
  /** Names of the `k` tools most relevant to `request`, best first; only tools sharing a term with it. */
  search(request: string, k: number): string[];
  /** The scored ranking behind {@link ToolIndex.search}, for inspection. */
  rank(request: string): Array<{ name: string; score: number; terms: string[] }>;
}

const DEFAULT_FIELDS = { name: 2, description: 1, parameters: 0.5, note: 0.25 };
const FIELD_NAMES = ["name", "description", "parameters", "note"] as const;

function parameterNames(tool: Tool<any, any>): string {
  const props = (tool.parameters as { properties?: unknown }).properties;
  return props !== null && typeof props === "object" ? Object.keys(props).join(" ") : "";
}

/** The note of the server whose `<server>_` is the longest prefix of the tool's name. */
function noteFor(name: string, notes: Readonly<Record<string, string>>): string {
  let best = "";
  let note = "";
  for (const [server, text] of Object.entries(notes)) {
    if (name.startsWith(`${server}_`) && server.length > best.length) {
      best = server;
      note = text;
    }
  }
  return note;
}

function checkTools(tools: unknown): readonly Tool<any, any>[] {
  if (!Array.isArray(tools)) throw new TypeError("searchTools: tools must be an array of tools from defineTool");
  const seen = new Set<string>();
  for (const t of tools) {
    if (t === null || typeof t !== "object" || typeof (t as Tool).name !== "string") {
      throw new TypeError("searchTools: every tool must come from defineTool (an object with a name)");
    }
    if (seen.has((t as Tool).name)) throw new TypeError(`searchTools: two tools are named ${(t as Tool).name}`);
    seen.add((t as Tool).name);
  }
  return tools as readonly Tool<any, any>[];
}

function checkK(k: unknown): number {
  if (typeof k !== "number" || !Number.isInteger(k) || k < 0) {
    throw new TypeError(`searchTools: k must be a non-negative integer, got ${JSON.stringify(k)}`);
  }
  return k;
}

interface QueryPlan {
  own: string[];
  added: string[];
}

/** Builds a BM25 index over the tools' declarations. */
export function createToolIndex(tools: readonly Tool<any, any>[], options: ToolSearchOptions = {}): ToolIndex {
  const list = checkTools(tools);
  const termOptions: TermOptions = { stem: options.stem !== false };
  const lexicon: PreparedLexicon | undefined = options.lexicon === false ? undefined : prepareLexicon(options.lexicon ?? DEFAULT_LEXICON);
  const weight = options.expansionWeight ?? 0.5;
  if (typeof weight !== "number" || !(weight >= 0)) throw new TypeError(`searchTools: expansionWeight must be a non-negative number, got ${JSON.stringify(weight)}`);
  const boost = { ...DEFAULT_FIELDS, ...options.fields };
  const notes = options.notes ?? {};

  // Documents are already turned into terms: minisearch only counts and scores them.
  const index = new MiniSearch<{ id: number }>({
    fields: [...FIELD_NAMES],
    tokenize: (text) => text.split(" ").filter((t) => t !== ""),
    processTerm: (t) => t,
    searchOptions: { boost, combineWith: "OR", prefix: false, fuzzy: false },
  });
  index.addAll(
    list.map((tool, id) => ({
      id,
      name: terms(tool.name, termOptions).join(" "),
      description: terms(tool.description ?? "", termOptions).join(" "),
      parameters: terms(parameterNames(tool), termOptions).join(" "),
      note: terms(noteFor(tool.name, notes), termOptions).join(" "),
    })),
  );

  function plan(request: string): QueryPlan {
    const own = [...new Set(terms(request, termOptions))];
    const ownSet = new Set(own);
    const added = new Set(lexicon === undefined ? [] : expand(request, lexicon, ownSet, termOptions));
    if (options.expandTerm !== undefined) {
      for (const w of words(request)) for (const x of options.expandTerm(w)) for (const t of terms(x, termOptions)) if (!ownSet.has(t)) added.add(t);
    }
    return { own, added: [...added].sort() };
  }

  function rank(request: string): Array<{ name: string; score: number; terms: string[] }> {
    if (typeof request !== "string") throw new TypeError("searchTools: the request must be a string");
    const { own, added } = plan(request);
    const queries: Array<string | { queries: string[]; boostTerm: () => number }> = [];
    if (own.length > 0) queries.push(own.join(" "));
    if (added.length > 0 && weight > 0) queries.push({ queries: [added.join(" ")], boostTerm: () => weight });
    if (queries.length === 0) return [];
    const hits = index.search({ queries, combineWith: "OR" });
    return hits
      .map((h) => ({ name: list[h.id as number].name, score: h.score, terms: [...h.terms].sort() }))
      .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  return {
    rank,
    search(request, k) {
      const n = checkK(k);
      return rank(request).slice(0, n).map((h) => h.name);
    },
  };
}

const cache = new WeakMap<readonly Tool<any, any>[], { tools: readonly Tool<any, any>[]; index: ToolIndex }>();

/** The index for this array of tools, rebuilt when the array's tools changed since it was built. */
function cachedIndex(tools: readonly Tool<any, any>[]): ToolIndex {
  const hit = cache.get(tools);
  if (hit !== undefined && hit.tools.length === tools.length && hit.tools.every((t, i) => t === tools[i])) return hit.index;
  const index = createToolIndex(tools);
  cache.set(tools, { tools: [...tools], index });
  return index;
}

/**
 * The names of the `k` tools most relevant to `request`, best first (BM25 over each tool's
 * name, description, parameter names and server note, with stemming and sluice's lexicon;
 * ties broken by name). Only tools that share at least one term with the request, or with
 * its expansion, are returned, so fewer than `k` names may come back. The index is kept for
 * the same array of tools when no options are given.
 */
export function searchTools(tools: readonly Tool<any, any>[], request: string, k: number, options?: ToolSearchOptions): string[] {
  checkK(k);
  if (typeof request !== "string") throw new TypeError("searchTools: the request must be a string");
  if (options !== undefined) return createToolIndex(tools, options).search(request, k);
  if (!Array.isArray(tools)) throw new TypeError("searchTools: tools must be an array of tools from defineTool");
  return cachedIndex(tools).search(request, k);
}
