import { stemmer } from "stemmer";
import { type TermOptions, term, words } from "./text.js";

/**
 * The words people use for the common tool domains, mapped to the words tools use. A request
 * that says "call off the meeting" shares no word with "Delete a calendar event"; the lexicon
 * adds "delete event" to the query, weighted below the words the person wrote.
 */

/** One lexicon entry: phrases people say, and the words tools use for the same thing. */
export interface LexiconEntry {
  /** Phrases as people say them ("call off", "1:1", "pr"). Matched on stems, in order. */
  readonly say: readonly string[];
  /** Words as tools write them ("delete", "event"). */
  readonly means: readonly string[];
}

/** A lexicon: entries, grouped by domain for reading. */
export type Lexicon = Readonly<Record<string, readonly LexiconEntry[]>>;

function entry(say: string, means: string): LexiconEntry {
  return { say: say.split(",").map((s) => s.trim()).filter((s) => s !== ""), means: means.split(/\s+/).filter((s) => s !== "") };
}

/**
 * sluice's lexicon for messages, meetings, code hosting, files, issues, money, mail, databases
 * and the web: everyday words and jargon on the left, tool vocabulary on the right.
 */
export const DEFAULT_LEXICON: Lexicon = {
  messages: [
    entry("dm, direct message, privately, private message, pm, ping, text, chat, tell, let know, shoot, drop a line, say, notify, announce, ask, note", "message post send"),
    entry("room, group, chat room, team chat, workspace", "channel"),
    entry("thread, reply, replies, respond, answer, answers, follow up, responses", "reply thread replies"),
    entry("react, thumbs up, emoji, upvote, heart, like, tada", "reaction emoji"),
    entry("people, members, colleagues, teammates, coworkers, everyone, staff, who's in, directory", "users"),
    entry("job title, title, role, time zone, timezone, bio, contact, phone, about", "profile user"),
    entry("catch up, been saying, said, history, backlog, scroll back, recent, latest, going on", "history messages recent"),
  ],
  meetings: [
    entry("meeting, meet, call, appointment, 1:1, one on one, standup, sync, session, kickoff, review, lunch, dinner, interview, offsite, party, demo, catch-up", "event"),
    entry("schedule, agenda, diary, plans, my day, my week, my morning, my afternoon", "calendar events"),
    entry("call off, cancel, scrap, nix, drop, remove, get rid of, won't happen", "delete"),
    entry("reschedule, push, postpone, move, shift, bring forward, change time, add to, rename", "update"),
    entry("book, set up, arrange, organize, put in, block, plan, add, pencil in, ooo, out of office", "create event"),
    entry("free, available, availability, busy, open slot, slot, when can", "freebusy free busy"),
    entry("accept, decline, rsvp, attend, going, can't make it, yes to, maybe", "respond invitation"),
    entry("invite, invitation", "invitation attendees"),
    entry("when is, find, look up, where is", "search"),
  ],
  code: [
    entry("pr, prs, pull, merge request, mr, patch, change request, pulls", "pull request"),
    entry("merge, land, ship, squash, integrate", "merge"),
    entry("approve, lgtm, review, request changes, sign off, looks good", "review pull request"),
    entry("diff, changes, changed, touch, touched", "files changed"),
    entry("cut a branch, feature branch, off main, kick off a branch", "branch create"),
    entry("commit, commits, pushed, push, history, log, changelog, committed, who changed", "commits"),
    entry("repo, repos, project, codebase, source", "repository"),
    entry("copy of the repo, own copy, clone, upstream", "fork repository"),
    entry("grep, where in our code, call site, usage, usages, definition, todo", "search code"),
    entry("readme, source file, peek, file in repo", "file contents"),
    entry("bug, defect, crash, crashes, problem, feature request, ticket", "issue"),
    entry("close, reopen, relabel, rename", "update state"),
    entry("comment, remark, tell them, note, mention", "comment"),
  ],
  files: [
    entry("folder, folders, dir, subfolder", "directory"),
    entry("ls, what's in, contents of, inside the folder", "list directory"),
    entry("tree, structure, layout, hierarchy", "tree"),
    entry("mv, rename, put into, move into", "move"),
    entry("cat, open, view, show, look at, inside, what's inside, say", "read contents"),
    entry("save, store, write down, new file, dump", "write file create"),
    entry("edit, fix, typo, replace, modify, change line, patch", "edit"),
    entry("where's, locate, look for, find, called, named", "search files"),
    entry("size, how big, modified, last touched, created, metadata, when was", "info metadata size"),
    entry("allowed, access, can you see, permitted", "allowed directories"),
    entry("md, txt, json, yml, yaml, csv, ini, log, ts, js, py, toml, cfg, conf", "file"),
    entry("laptop, computer, machine, local, desktop, disk, downloads, documents, home", "file directory"),
    entry("doc, docs, document, spreadsheet, sheet, deck, slides, presentation, pdf, cv, contract, report", "file"),
    entry("cloud, gdrive, google drive", "drive"),
    entry("share, give access, edit access, send link, let them view, can view", "share"),
    entry("who can see, who has access, access, sharing, visibility", "permissions"),
    entry("trash, bin, delete, get rid of, remove, throw away", "trash"),
    entry("upload, back up, put a copy, put on drive, copy to drive", "upload"),
  ],
  database: [
    entry("db, database, sql, rows, records, data", "database query table"),
    entry("columns, fields, schema, structure, layout", "schema table describe"),
    entry("how many, count, select, top, report, stats, pull, look up, average, sum, total", "select query"),
    entry("insert, update, mark as, set, wipe, delete rows, add a row, remove rows", "insert update delete query"),
    entry("tables", "tables list"),
    entry("new table, add a table", "create table"),
  ],
  issues: [
    entry("ticket, tickets, bug, bugs, task, story, todo, backlog", "issue"),
    entry("assigned, my plate, on me, mine, my work, my tasks", "assigned user issues"),
    entry("priority, urgent, bump, p0, p1, escalate, high priority", "priority update"),
    entry("status, done, move to, close, resolve, reopen, in progress", "state update status"),
    entry("reassign, hand over, give to, assign", "assignee update"),
    entry("note, comment, remark, tell", "comment"),
    entry("make a ticket, log a bug, file, report, open a ticket", "create issue"),
  ],
  money: [
    entry("money back, refund, reimburse, chargeback, return payment, double charged", "refund payment"),
    entry("balance, how much money, funds, payout, available money, in the account", "balance"),
    entry("bill, invoice, charge, due", "invoice"),
    entry("client, buyer, account holder, paying", "customer"),
    entry("checkout, pay link, payment page, buy button, checkout link", "payment link"),
    entry("charges, payments, transactions, paid, went through, sales, revenue, earn, earned, payment", "payment intents"),
    entry("plan, subscription, pricing, price tag, cost, per month, a month", "price"),
    entry("sell, selling, item, ebook, merchandise, product", "product"),
  ],
  mail: [
    entry("email, mail, e-mail, write to, write back, by mail, drop an email", "email send"),
    entry("inbox, check my mail, anything from, received, got, did i get, answer my email", "search emails"),
    entry("draft, don't send, prepare, not yet", "draft"),
    entry("archive, mark as read, read, unread, star, label, labels", "modify labels"),
    entry("spam, junk, promos, delete, trash", "delete email"),
    entry("folders in my mail, mail folders", "labels"),
    entry("forward, pass on", "send email"),
    entry("message from, latest message, open the message", "email read"),
  ],
  web: [
    entry("google, look up, search online, internet, web, online, browse, who is, what is, population, weather, news", "web search"),
    entry("near me, nearby, around, place, shop, shops, restaurant, cafe, coffee, pizza, open now, open late, dentist, store", "local businesses places"),
    entry("url, link, page, website, article, blog, blog post, scrape, http, https, docs page", "fetch url"),
  ],
};

/** A stemmed phrase: its words' stems, in order. */
type Phrase = readonly string[];

/** A lexicon prepared for matching: each phrase's stems and the entry's words. */
export interface PreparedLexicon {
  readonly rules: ReadonlyArray<{ phrase: Phrase; means: readonly string[] }>;
}

/** Prepares a lexicon once: matching then costs one pass over the request per rule. */
export function prepareLexicon(lexicon: Lexicon): PreparedLexicon {
  const rules: Array<{ phrase: Phrase; means: readonly string[] }> = [];
  for (const entries of Object.values(lexicon)) {
    for (const e of entries) {
      for (const say of e.say) {
        const phrase = words(say).map((w) => stemmer(w));
        if (phrase.length > 0) rules.push({ phrase, means: e.means });
      }
    }
  }
  return { rules };
}

function contains(haystack: readonly string[], needle: Phrase): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * The terms the lexicon adds to a request, with their weights against 1 for a word of the
 * request: the tool words of every entry one of whose phrases the request contains, minus the
 * request's own terms. With `share`, an entry's words share its weight (an entry stands for the
 * one thing the person said, however many tool words it lists) and a term two entries add keeps
 * the larger weight; without, every added term weighs `weight`.
 */
export function expand(request: string, lexicon: PreparedLexicon, own: ReadonlySet<string>, options: TermOptions, weight = 1, share = false): Map<string, number> {
  const stems = words(request).map((w) => stemmer(w));
  const added = new Map<string, number>();
  for (const rule of lexicon.rules) {
    if (!contains(stems, rule.phrase)) continue;
    const ts = rule.means.flatMap((m) => words(m)).map((w) => term(w, options)).filter((t): t is string => t !== undefined && !own.has(t));
    const each = share ? weight / Math.max(ts.length, 1) : weight;
    for (const t of ts) added.set(t, Math.max(added.get(t) ?? 0, each));
  }
  return new Map([...added].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}
