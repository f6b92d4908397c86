import MiniSearch from "minisearch";
import type { Tool } from "../tools/types.js";
import { parameterKinds, requestEntities } from "./entities.js";
import { type Action, foreignVerbs, requestActions, toolActions } from "./intent.js";
import { DEFAULT_LEXICON, type Lexicon, type PreparedLexicon, expand, prepareLexicon } from "./lexicon.js";
import { spellOut } from "./shorthand.js";
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
  /**
   * Share each lexicon entry's weight among the tool words it adds (one thing said, however
   * many words it lists), so one ambiguous word cannot outweigh the rest of the request. Default true.
   */
  shareExpansion?: boolean;
  /**
   * Weigh tools whose name's verb does what the request asks (read, create, update, delete,
   * send) above those that do something else: their score is multiplied by `1 + intent`
   * (by `1 + intent / 2` when the tool's name has no known verb). `false` or 0 for none. Default 0.5.
   */
  intent?: number | false;
  /**
   * Read the names a request gives by shape (paths, `owner/repo`, `#channel`, `@user`,
   * addresses, links, dates, amounts) as names: their parts do not trigger the lexicon, and a
   * tool with parameters that take them scores up to `1 + identifiers` times higher. `false`
   * or 0 for none. Default 0.5.
   */
  identifiers?: number | false;
  /** Spell out the shorthand people type ("appt", "ppl", "tmrw") before reading the request. Default true. */
  shorthand?: boolean;
  /**
   * Weigh a tool by how well its server as a whole fits the request: its score is multiplied
   * by `1 + servers × m / max`, where `m` is the mean score of the server's tools and `max` the
   * best server's. Servers are those of `notes`. `false` or 0 for none. Default 0.5.
   */
  servers?: number | false;
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

/** The server whose `<server>_` is the longest prefix of the tool's name, and its note. */
function serverOf(name: string, notes: Readonly<Record<string, string>>): { server: string; note: string } {
  let server = "";
  let note = "";
  for (const [s, text] of Object.entries(notes)) {
    if (name.startsWith(`${s}_`) && s.length > server.length) {
      server = s;
      note = text;
    }
  }
  return { server, note };
}

function parameterList(tool: Tool<any, any>): string[] {
  const props = (tool.parameters as { properties?: unknown }).properties;
  return props !== null && typeof props === "object" ? Object.keys(props) : [];
}

function factorOption(name: string, value: number | false | undefined, dflt: number): number {
  const v = value === false ? 0 : value ?? dflt;
  if (typeof v !== "number" || !(v >= 0)) throw new TypeError(`searchTools: ${name} must be a non-negative number or false, got ${JSON.stringify(value)}`);
  return v;
}

/** What the re-rank knows of each tool: the actions its name's verb does, the kinds its parameters take. */
interface ToolTraits {
  actions: Action[];
  kinds: Set<string>;
}

function traitsOf(tool: Tool<any, any>, notes: Readonly<Record<string, string>>): ToolTraits {
  const { server } = serverOf(tool.name, notes);
  const nameWords = words(server === "" ? tool.name : tool.name.slice(server.length + 1));
  return { actions: toolActions(nameWords), kinds: parameterKinds(parameterList(tool)) };
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
  added: Map<string, number>;
  actions: Action[];
  kinds: readonly string[];
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
  const share = options.shareExpansion !== false;
  const intent = factorOption("intent", options.intent, 0.5);
  const identifiers = factorOption("identifiers", options.identifiers, 0.5);
  const serverWeight = factorOption("servers", options.servers, 0.5);
  const traits = list.map((t) => traitsOf(t, notes));
  const serverIds = list.map((t) => serverOf(t.name, notes).server);
  const serverSize = new Map<string, number>();
  for (const s of serverIds) if (s !== "") serverSize.set(s, (serverSize.get(s) ?? 0) + 1);

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
      parameters: terms(parameterList(tool).join(" "), termOptions).join(" "),
      note: terms(serverOf(tool.name, notes).note, termOptions).join(" "),
    })),
  );

  function plan(request: string): QueryPlan {
    const entities = identifiers > 0 ? requestEntities(request) : { kinds: [], cues: [], prose: request, names: [] };
    const prose = options.shorthand === false ? entities.prose : spellOut(entities.prose);
    const own = [...new Set(terms([prose, ...entities.names].join(" "), termOptions))];
    const ownSet = new Set(own);
    const added = lexicon === undefined ? new Map<string, number>() : expand(prose, lexicon, ownSet, termOptions, weight, share);
    // A name's shape is said like a word: its kind's cue words join the expansion as an entry's would.
    for (const cue of entities.cues) {
      const ts = terms(cue, termOptions).filter((t) => !ownSet.has(t));
      for (const t of ts) added.set(t, Math.max(added.get(t) ?? 0, share ? weight / ts.length : weight));
    }
    if (options.expandTerm !== undefined) {
      for (const w of words(request)) for (const x of options.expandTerm(w)) for (const t of terms(x, termOptions)) if (!ownSet.has(t) && !added.has(t)) added.set(t, weight);
    }
    const actions = intent > 0 ? requestActions(prose) : [];
    // A question only reads: the lexicon's verbs of doing ("book" adds "create") do not belong in it.
    if (actions.length === 1 && actions[0] === "read") for (const t of foreignVerbs(actions, termOptions.stem)) added.delete(t);
    return { own, added, actions, kinds: entities.kinds };
  }

  /** How much a tool's traits fit the request: a factor of at least 1. */
  function fit(id: number, q: QueryPlan): number {
    const { actions, kinds } = traits[id];
    let f = 1;
    if (q.actions.length > 0) f *= actions.length === 0 ? 1 + intent / 2 : actions.some((a) => q.actions.includes(a)) ? 1 + intent : 1;
    if (q.kinds.length > 0) f *= 1 + (identifiers * q.kinds.filter((k) => kinds.has(k)).length) / q.kinds.length;
    return f;
  }

  /** Each server's factor: 1 + servers × (mean score of its tools) / (the best server's mean). */
  function serverFits(hits: ReadonlyArray<{ id: number; score: number }>): Map<string, number> {
    const out = new Map<string, number>();
    if (serverWeight === 0 || serverSize.size === 0) return out;
    const sums = new Map<string, number>();
    for (const h of hits) {
      const s = serverIds[h.id];
      if (s !== "") sums.set(s, (sums.get(s) ?? 0) + h.score);
    }
    const means = [...sums].map(([s, sum]) => [s, sum / serverSize.get(s)!] as const);
    const best = Math.max(0, ...means.map(([, m]) => m));
    if (best > 0) for (const [s, m] of means) out.set(s, 1 + (serverWeight * m) / best);
    return out;
  }

  function rank(request: string): Array<{ name: string; score: number; terms: string[] }> {
    if (typeof request !== "string") throw new TypeError("searchTools: the request must be a string");
    const q = plan(request);
    const queries: Array<string | { queries: string[]; boostTerm: (t: string) => number }> = [];
    if (q.own.length > 0) queries.push(q.own.join(" "));
    const added = [...q.added].filter(([, w]) => w > 0);
    if (added.length > 0) queries.push({ queries: [added.map(([t]) => t).join(" ")], boostTerm: (t) => q.added.get(t) ?? 0 });
    if (queries.length === 0) return [];
    const factors = new Map<number, number>();
    const factor = (id: number): number => {
      let f = factors.get(id);
      if (f === undefined) factors.set(id, (f = fit(id, q)));
      return f;
    };
    const hits = index.search({ queries, combineWith: "OR" }, { boostDocument: (id) => factor(id as number) });
    const fits = serverFits(hits.map((h) => ({ id: h.id as number, score: h.score })));
    return hits
      .map((h) => ({ name: list[h.id as number].name, score: h.score * (fits.get(serverIds[h.id as number]) ?? 1), terms: [...h.terms].sort() }))
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
