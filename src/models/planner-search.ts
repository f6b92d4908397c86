import { createToolIndex } from "../search/index.js";
import type { Tool } from "../tools/types.js";
import { plannerToolsBlock, toolDeclaration } from "./planner-prompt.js";
import type { AgentToolSearch } from "./agent.js";
import type { PlannerSearch } from "./types.js";

/**
 * Tool search in front of the planner, and during planning: the declarations of the `k` tools
 * found for the request follow the fixed part of the prompt, and the planner may ask for more
 * with `search_tools({ query })` before it writes its program. Only offered tools (pinned or
 * trusted ones, as the caller decides) are ever searched, so only their declarations reach it.
 */

/** The name of the planner's search tool. */
export const SEARCH_TOOL_NAME = "search_tools";

/**
 * The search tool as the Messages API declares tools. Fixed bytes: it comes before the system
 * prompt in the provider's cache prefix, so it must not change from request to request.
 */
export const SEARCH_TOOL = {
  name: SEARCH_TOOL_NAME,
  description:
    "Searches the tools available to the program and answers with the TypeScript declarations of the ones that match, " +
    "for when none of the tools declared so far does what the request needs. Give a few words for what the tool should do, " +
    'e.g. "delete a calendar event" or "list pull requests". Call it before writing the program; the program may call any tool declared so far.',
  input_schema: {
    type: "object" as const,
    properties: { query: { type: "string", description: "What the tool should do, in a few words." } },
    required: ["query"],
  },
} as const;

/** One search the planner made, for the record. */
export interface PlanningSearch {
  query: string;
  /** The tools found, best first (those already declared included). */
  found: string[];
}

/** The searches of one agent run: what was declared so far and how many searches are left. */
export interface SearchSession {
  /** The declarations for the request, after the fixed prompt. */
  readonly block: string;
  /** Whether the planner is offered `search_tools`. */
  readonly canSearch: boolean;
  /** Answers one search: the text of the tool result, and whether it is an error. */
  answer(search: PlannerSearch): { text: string; isError: boolean };
  /** Every search answered, in order. */
  readonly searches: PlanningSearch[];
}

/** Tool search for an agent, built once: the offered tools and their index. */
export interface PlannerToolSearch {
  /** A session for one request. */
  start(request: string): SearchSession;
}

function nonNegativeInt(name: string, value: number | undefined, dflt: number): number {
  const v = value ?? dflt;
  if (!Number.isInteger(v) || v < 0) throw new TypeError(`createAgent: toolSearch.${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return v;
}

function searchHint(max: number): string {
  return `\nIf none of these does what the request needs, call \`${SEARCH_TOOL_NAME}\` with a few words for what you need before writing the program (at most ${max} ${max === 1 ? "time" : "times"}); it answers with more declarations, and the program may call every tool declared so far.\n`;
}

/** Builds tool search over a runtime's tools, as `createAgent({ toolSearch })` is given it. */
export function plannerToolSearch(tools: readonly Tool<any, any>[], settings: AgentToolSearch): PlannerToolSearch {
  if (settings === null || typeof settings !== "object") throw new TypeError("createAgent: toolSearch must be an object");
  const k = nonNegativeInt("k", settings.k, 8);
  const maxSearches = nonNegativeInt("maxSearches", settings.maxSearches, 2);
  const offered = tools.filter((t) => settings.offer?.(t) ?? true);
  const byName = new Map(offered.map((t) => [t.name, t]));
  const index = settings.search === undefined ? createToolIndex(offered, { notes: settings.notes }) : undefined;
  const find = (query: string): string[] => {
    const names = index !== undefined ? index.search(query, k) : [...settings.search!(offered, query, k)];
    // A retriever of the caller's own may name anything: only offered tools are ever declared.
    return names.filter((n, i) => byName.has(n) && names.indexOf(n) === i);
  };

  return {
    start(request) {
      const shown = new Set(find(request));
      const searches: PlanningSearch[] = [];
      const block = plannerToolsBlock(offered.filter((t) => shown.has(t.name))) + (maxSearches > 0 ? searchHint(maxSearches) : "");
      return {
        block,
        canSearch: maxSearches > 0,
        searches,
        answer(search) {
          if (searches.length >= maxSearches) {
            return { text: `No more searches: the limit of ${maxSearches} is reached. Write the program with the tools declared so far.`, isError: true };
          }
          const query = search.query.trim();
          if (query === "") return { text: `${SEARCH_TOOL_NAME} needs { query: string }: a few words for what the tool should do.`, isError: true };
          const found = find(query);
          searches.push({ query, found });
          const fresh = found.filter((n) => !shown.has(n));
          const again = found.filter((n) => shown.has(n));
          for (const n of fresh) shown.add(n);
          if (found.length === 0) return { text: `No tool matches "${query}". Try other words, or write the program with the tools declared so far.`, isError: false };
          const declarations = fresh
            .map((n) => byName.get(n)!)
            .sort((a, b) => (a.name < b.name ? -1 : 1))
            .map(toolDeclaration)
            .join("\n\n");
          const parts = [`Tools found for "${query}":`];
          if (fresh.length > 0) parts.push("```ts\n" + declarations + "\n```");
          if (again.length > 0) parts.push(`Already declared: ${again.join(", ")}.`);
          return { text: parts.join("\n\n"), isError: false };
        },
      };
    },
  };
}
