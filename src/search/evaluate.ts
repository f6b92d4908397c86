import { defineTool, type JsonSchema, type Tool } from "../tools/types.js";

/**
 * Measuring a tool retriever the way retrievers are measured: on requests labelled with the
 * tools that serve them, the hit rate and recall of its top k.
 */

/** A request labelled with the names of the tools that serve it. */
export interface LabelledRequest {
  readonly id: number | string;
  readonly request: string;
  readonly tools: readonly string[];
  readonly split?: string;
}

/** Hit rate and recall at each k. */
export interface RetrievalScores {
  /** Requests scored. */
  readonly requests: number;
  /** k → share of requests with at least one of their tools in the top k. */
  readonly hitRate: Readonly<Record<number, number>>;
  /** k → mean share of each request's tools found in the top k. */
  readonly recall: Readonly<Record<number, number>>;
  /** Requests none of whose tools is in the top max(k). */
  readonly misses: readonly LabelledRequest[];
}

/** Scores `retrieve(request, k)` on labelled requests at each k (default 1, 3, 5, 10). */
export function scoreRetrieval(retrieve: (request: string, k: number) => readonly string[], requests: readonly LabelledRequest[], ks: readonly number[] = [1, 3, 5, 10]): RetrievalScores {
  const top = Math.max(...ks);
  const hits: Record<number, number> = {};
  const recalls: Record<number, number> = {};
  for (const k of ks) hits[k] = recalls[k] = 0;
  const misses: LabelledRequest[] = [];
  for (const r of requests) {
    const got = retrieve(r.request, top);
    for (const k of ks) {
      const found = r.tools.filter((t) => got.slice(0, k).includes(t)).length;
      if (found > 0) hits[k] += 1;
      recalls[k] += found / r.tools.length;
    }
    if (!r.tools.some((t) => got.includes(t))) misses.push(r);
  }
  const n = Math.max(requests.length, 1);
  for (const k of ks) {
    hits[k] /= n;
    recalls[k] /= n;
  }
  return { requests: requests.length, hitRate: hits, recall: recalls, misses };
}

/** A tool set in the compact form of sluice's benchmark corpus (benchmarks/search/tools.json). */
export interface ToolCorpus {
  readonly servers: Readonly<Record<string, { readonly note: string }>>;
  readonly tools: ReadonlyArray<{
    readonly server: string;
    readonly name: string;
    readonly description: string;
    readonly params: Readonly<Record<string, string>>;
    readonly required: readonly string[];
    readonly sideEffect?: boolean;
  }>;
}

/** Program name of a server's tool, as MCP tools are named in sluice: `<server>_<tool>`, non-word characters as `_`. */
export function serverToolName(server: string, tool: string): string {
  return `${server}_${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * Tools for a corpus, each answering with `{ ok: true, tool }`, and the server notes keyed by
 * server name, ready for `searchTools(tools, request, k, { notes })`.
 */
export function corpusTools(corpus: ToolCorpus): { tools: Tool[]; notes: Record<string, string> } {
  const tools = corpus.tools.map((t) => {
    const name = serverToolName(t.server, t.name);
    const properties = Object.fromEntries(Object.entries(t.params).map(([p, type]) => [p, { type }]));
    const parameters: JsonSchema = { type: "object", properties, required: [...t.required] };
    return defineTool({ name, description: t.description, parameters, sideEffect: t.sideEffect === true, run: () => ({ ok: true, tool: name }) });
  });
  const notes = Object.fromEntries(Object.entries(corpus.servers).map(([s, v]) => [s, v.note]));
  return { tools, notes };
}
