import { stemmer } from "stemmer";
import { words } from "./text.js";

/**
 * What a request wants done, in five actions, and what a tool does, from the verb its name
 * starts with (`create_issue`, `list_events`, `post_message`). Tool names are written
 * verb-first by convention, so a tool's action is known without reading its description; a
 * request's is its first action word (requests are written verb-first as commands, or begin
 * with a question, which reads).
 */

/** The actions a request or a tool can be about. */
export type Action = "read" | "create" | "update" | "delete" | "send";

/**
 * The verbs of each action, as people and tool names use them (tool names use the first few).
 * Phrases are matched on stems, in order. A word may belong to two actions ("post" creates
 * and sends, "share" updates and sends).
 */
export const ACTION_WORDS: Readonly<Record<Action, readonly string[]>> = {
  read: [
    "get", "list", "search", "read", "retrieve", "fetch", "describe", "query", "find", "show", "see", "view", "look",
    "check", "display", "browse", "lookup", "pull up", "open up", "dig up", "grab", "give me", "tell me", "what", "which", "who", "when", "where",
    "how many", "how much", "any", "anything", "is there", "are there", "catch up", "scan", "skim", "peek", "summarize", "count",
    "ls", "cat", "grep", "explain", "inspect", "review", "print", "download",
  ],
  create: [
    "create", "add", "new", "make", "open", "start", "set up", "file", "log", "raise", "spin up", "kick off", "write", "draft",
    "compose", "upload", "post", "book", "schedule", "fork", "cut", "init", "generate", "insert", "register", "put", "save",
    "store", "mkdir", "touch", "plan", "arrange", "organize", "invite", "invoice", "charge", "bill", "copy",
  ],
  update: [
    "update", "change", "edit", "modify", "rename", "move", "set", "mark", "fix", "bump", "reassign", "assign", "reschedule",
    "push back", "postpone", "shift", "merge", "close", "reopen", "resolve", "respond", "accept", "decline", "rsvp", "share",
    "label", "archive", "tag", "star", "approve", "replace", "tweak", "adjust", "correct", "mv", "transfer", "refund", "escalate",
    "prioritize", "land", "ship",
  ],
  delete: [
    "delete", "remove", "cancel", "call off", "drop", "trash", "bin", "scrap", "nix", "get rid of", "erase", "wipe", "purge",
    "kill", "rm", "rmdir", "clear", "discard", "destroy", "throw away", "unsubscribe",
  ],
  send: [
    "send", "post", "reply", "message", "tell", "ping", "dm", "notify", "email", "mail", "forward", "text", "announce",
    "let know", "respond", "share", "shoot", "answer", "remind", "broadcast", "say",
  ],
};

/** The verbs tool names start with, per action. */
export const NAME_VERBS: Readonly<Record<Action, readonly string[]>> = {
  read: ["get", "list", "search", "read", "retrieve", "fetch", "describe", "query", "find"],
  create: ["create", "add", "upload", "write", "draft", "fork", "insert", "new"],
  update: ["update", "modify", "edit", "move", "merge", "respond", "share", "set", "rename"],
  delete: ["delete", "remove", "trash", "cancel"],
  send: ["send", "post", "reply", "forward", "share", "respond"],
};

/**
 * The tool-name verbs of every action but `actions` (as terms: stemmed when `stem`): words the
 * lexicon should not add to a request that asks only for `actions` ("book" adds "create
 * event", which a question "am I booked?" does not want).
 */
export function foreignVerbs(actions: readonly Action[], stem: boolean): Set<string> {
  const form = (w: string): string => (stem ? stemmer(w) : w);
  const own = new Set(actions.flatMap((a) => NAME_VERBS[a]).map(form));
  const out = new Set<string>();
  for (const list of Object.values(NAME_VERBS)) for (const w of list) if (!own.has(form(w))) out.add(form(w));
  return out;
}

/** Question openings that read, however the sentence goes on ("am I booked", "did Bob answer"). */
const QUESTION_OPENINGS = new Set(["is", "are", "am", "was", "were", "do", "does", "did", "has", "have", "had"].map((w) => stemmer(w)));

interface ActionRule {
  phrase: readonly string[];
  actions: Action[];
}

function prepare(table: Readonly<Record<Action, readonly string[]>>): ActionRule[] {
  const byPhrase = new Map<string, ActionRule>();
  for (const [action, list] of Object.entries(table) as Array<[Action, readonly string[]]>) {
    for (const say of list) {
      const phrase = words(say).map((w) => stemmer(w));
      const key = phrase.join(" ");
      const rule = byPhrase.get(key) ?? { phrase, actions: [] };
      if (!rule.actions.includes(action)) rule.actions.push(action);
      byPhrase.set(key, rule);
    }
  }
  // Longer phrases first, so "call off" wins over "call" at the same place.
  return [...byPhrase.values()].sort((a, b) => b.phrase.length - a.phrase.length);
}

const RULES = prepare(ACTION_WORDS);
const SINGLE = new Map(RULES.filter((r) => r.phrase.length === 1).map((r) => [r.phrase[0], r.actions]));

function ruleAt(stems: readonly string[], i: number): ActionRule | undefined {
  return RULES.find((r) => r.phrase.every((p, j) => stems[i + j] === p));
}

/**
 * The actions a request asks for: those of its first action word, or "read" when it opens
 * like a question. Empty when it names no action.
 */
export function requestActions(request: string): Action[] {
  const stems = words(request).map((w) => stemmer(w));
  if (stems.length > 0 && QUESTION_OPENINGS.has(stems[0])) return ["read"];
  for (let i = 0; i < stems.length; i++) {
    const rule = ruleAt(stems, i);
    if (rule !== undefined) return [...rule.actions];
  }
  return [];
}

/** The actions of a tool: those of the first word of its name that is an action verb. */
export function toolActions(nameWords: readonly string[]): Action[] {
  for (const w of nameWords) {
    const actions = SINGLE.get(stemmer(w));
    if (actions !== undefined) return [...actions];
  }
  return [];
}
