/**
 * The workspace tools: email, calendar, cloud drive and contacts, bound to one run's data.
 * Labels: an email is readable by its sender and recipients; the mail server vouches for who
 * sent it to whom and when, the sender writes its subject, body and attachments, and which
 * emails the inbox holds is for senders to decide (the listing is untrusted); a file is readable
 * by its owner and the people it is shared with, trusted only when no one but the user may write
 * it (owned by the user, shared with no one as `rw`); an event by its participants, trusted only
 * when the user organised it; contacts are the user's own. A change returns an acknowledgement:
 * ids and what the caller sent, never stored records.
 * Where a person can decide (a recipient or place read from an email, a summary of a private
 * document) the policies ask rather than deny.
 */
import { Label, labeled } from "../../../labels/index.js";
import type { OutputLabels } from "../../../tools/output.js";
import { all, askInstead, calendarInvitePolicy, emailPolicy, fileSharePolicy, requireTrusted, requireTrustedContext } from "../../../policy/index.js";
import { defineTool, type Tool } from "../../../tools/types.js";
import { fromOthers, list, listingOf, mentions, nextId, params, postedBy, text, usersOwn } from "../common.js";
import { USER, type CalendarEvent, type DriveFile, type Email, type WorkspaceEnv } from "./environment.js";

export const policies: Record<string, string> = {
  send_email: "emailPolicy({ askUntrustedRecipient, askUntrustedPrivateContent })",
  create_event: "calendarInvitePolicy({ askUntrustedRecipient, askUntrustedPrivateContent })",
  add_event_participants: "calendarInvitePolicy({ recipients: [\"participants\"], content: [\"event_id\"], askUntrustedRecipient, askUntrustedPrivateContent })",
  reschedule_event: "askInstead(requireTrusted(event_id, start, end)) + askInstead(requireTrustedContext())",
  create_file: "askInstead(requireTrusted(name, content)) + askInstead(requireTrustedContext())",
  share_file: "fileSharePolicy({ recipients: [\"email\"], file: [\"file_id\"] })",
  delete_file: "askInstead(requireTrusted(file_id)) + askInstead(requireTrustedContext())",
};

const EMAIL = { type: "object", properties: { id: text(), from: text(), to: list(text()), cc: list(text()), subject: text(), body: text(), date: text(), attachments: list(text()) } };

/** A person decides about recipients and content read from untrusted text: they are shown both. */
const ASKS = { askUntrustedRecipient: true, askUntrustedPrivateContent: true } as const;

/**
 * The inbox: a listing senders add to (untrusted, whoever is in it now: see `postedBy`); the
 * server vouches for the headers, the sender writes the rest.
 */
const INBOX: OutputLabels = {
  trusted: false,
  parts: {
    "*": { readers: ["{from}", "{to}", "{cc}"], sources: ["email:{from}"] },
    "*.subject": { trusted: false },
    "*.body": { trusted: false },
    "*.attachments": { trusted: false },
  },
};

/** What a change the user asked for returns: the service's acknowledgement. */
const DONE = { trusted: true, sources: ["workspace"] } as const;

function eventLabel(e: CalendarEvent): Label {
  if (e.organizer === USER) return usersOwn(USER, `calendar:${e.title}`, e.participants);
  return fromOthers(e.participants, `calendar:"${e.title}" organised by ${e.organizer}`);
}

/** Who may write a file: its owner and everyone it is shared with edit rights. */
function writersOf(f: DriveFile): string[] {
  return [f.owner, ...Object.entries(f.shared_with).filter(([, p]) => p === "rw").map(([who]) => who)];
}

/** A file's record (id, name, sharing) is its owner's word. */
function fileLabel(f: DriveFile): Label {
  const readers = [f.owner, ...Object.keys(f.shared_with)];
  if (f.owner === USER) return usersOwn(USER, `file:${f.name}`, readers);
  return fromOthers([...readers, USER], `file:${f.name} (owned by ${f.owner})`);
}

/** Its content is the word of everyone who may edit it: the user's own only when no one else may. */
function contentLabel(f: DriveFile): Label | undefined {
  const others = writersOf(f).filter((w) => w !== USER);
  if (f.owner !== USER || others.length === 0) return undefined;
  return fromOthers([f.owner, ...Object.keys(f.shared_with)], `file:${f.name} (editable by ${others.join(", ")})`);
}

function fileRecord(f: DriveFile) {
  const content = contentLabel(f);
  return labeled({ ...f, ...(content === undefined ? {} : { content: labeled(f.content, content) }) }, fileLabel(f));
}

const emails = (items: Email[]) => items.map((e) => ({ ...e }));
const events = (items: CalendarEvent[]) => items.map((e) => labeled({ ...e }, eventLabel(e)));
const files = (items: DriveFile[]) => items.map(fileRecord);

function visibleFiles(env: WorkspaceEnv): DriveFile[] {
  return env.files.filter((f) => f.owner === USER || USER in f.shared_with);
}

function fileById(env: WorkspaceEnv, id: string): DriveFile {
  const f = visibleFiles(env).find((x) => x.id === id);
  if (f === undefined) throw new Error(`no file with id ${JSON.stringify(id)}`);
  return f;
}

function emailTools(env: WorkspaceEnv): Tool<any, any>[] {
  return [
    defineTool({
      name: "search_emails",
      description: "Emails in the inbox whose sender, subject or body contains the query (case-insensitive).",
      parameters: params({ query: text() }),
      returns: list(EMAIL),
      label: () => postedBy(env.inbox.map((e) => e.from), "email"),
      output: INBOX,
      run: ({ query }: { query: string }) => emails(env.inbox.filter((e) => mentions(`${e.from} ${e.subject} ${e.body}`, query))),
    }),
    defineTool({
      name: "get_received_emails",
      description: "Every email in the inbox, oldest first.",
      returns: list(EMAIL),
      label: () => postedBy(env.inbox.map((e) => e.from), "email"),
      output: INBOX,
      run: () => emails(env.inbox),
    }),
    defineTool({
      name: "send_email",
      description: "Sends an email from the user. attachments are file ids from the drive.",
      parameters: params({ to: list(text()), cc: list(text()), subject: text(), body: text(), attachments: list(text()) }, ["cc", "attachments"]),
      sideEffect: true,
      policy: emailPolicy(ASKS),
      output: DONE,
      run: (a: { to: string[]; cc?: string[]; subject: string; body: string; attachments?: string[] }) => {
        for (const id of a.attachments ?? []) fileById(env, id);
        const sent: Email = { id: nextId(env.sent, "s"), from: USER, to: a.to, cc: a.cc ?? [], subject: a.subject, body: a.body, date: `${env.today}T12:00`, attachments: a.attachments ?? [] };
        env.sent.push(sent);
        return { id: sent.id, sent: true };
      },
    }),
  ];
}

const EVENT = { type: "object", properties: { id: text(), title: text(), start: text(), end: text(), location: text(), description: text(), organizer: text(), participants: list(text()) } };

function calendarTools(env: WorkspaceEnv): Tool<any, any>[] {
  const eventById = (id: string) => {
    const e = env.calendar.find((x) => x.id === id);
    if (e === undefined) throw new Error(`no event with id ${JSON.stringify(id)}`);
    return e;
  };
  return [
    defineTool({
      name: "get_day_events",
      description: "Events on a day (YYYY-MM-DD), in order. Times are local, YYYY-MM-DDTHH:MM.",
      parameters: params({ day: text("YYYY-MM-DD") }),
      returns: list(EVENT),
      label: (result: CalendarEvent[]) => listingOf(result.map((e) => e.organizer), USER, "calendar"),
      run: ({ day }: { day: string }) => events(env.calendar.filter((e) => e.start.startsWith(day))),
    }),
    defineTool({
      name: "search_events",
      description: "Events whose title or description contains the query (case-insensitive).",
      parameters: params({ query: text() }),
      returns: list(EVENT),
      label: (result: CalendarEvent[]) => listingOf(result.map((e) => e.organizer), USER, "calendar"),
      run: ({ query }: { query: string }) => events(env.calendar.filter((e) => mentions(`${e.title} ${e.description}`, query))),
    }),
    defineTool({
      name: "create_event",
      description: "Creates an event organised by the user and invites the participants (the user is added).",
      parameters: params({ title: text(), start: text("YYYY-MM-DDTHH:MM"), end: text("YYYY-MM-DDTHH:MM"), participants: list(text()), description: text(), location: text() }, ["description", "location"]),
      sideEffect: true,
      policy: calendarInvitePolicy(ASKS),
      output: DONE,
      run: (a: { title: string; start: string; end: string; participants: string[]; description?: string; location?: string }) => {
        const e: CalendarEvent = { id: nextId(env.calendar, "ev"), title: a.title, start: a.start, end: a.end, location: a.location ?? "", description: a.description ?? "", organizer: USER, participants: [...new Set([USER, ...a.participants])] };
        env.calendar.push(e);
        return { id: e.id };
      },
    }),
    defineTool({
      name: "add_event_participants",
      description: "Invites more people to an existing event.",
      parameters: params({ event_id: text(), participants: list(text()) }),
      sideEffect: true,
      policy: calendarInvitePolicy({ recipients: ["participants"], content: ["event_id"], ...ASKS }),
      output: DONE,
      run: ({ event_id, participants }: { event_id: string; participants: string[] }) => {
        const e = eventById(event_id);
        e.participants = [...new Set([...e.participants, ...participants])];
        // Who else is invited is the event's (private, maybe others') data: say only who was added.
        return { id: e.id, added: participants };
      },
    }),
    defineTool({
      name: "reschedule_event",
      description: "Moves an event to a new start and end time.",
      parameters: params({ event_id: text(), start: text("YYYY-MM-DDTHH:MM"), end: text("YYYY-MM-DDTHH:MM") }),
      sideEffect: true,
      policy: all(
        ...["event_id", "start", "end"].map((p) => askInstead(requireTrusted(p, { why: "untrusted text chose which event moves, or when" }))),
        askInstead(requireTrustedContext({ why: "untrusted data decided whether the event moves" })),
      ),
      output: DONE,
      run: ({ event_id, start, end }: { event_id: string; start: string; end: string }) => {
        const e = eventById(event_id);
        Object.assign(e, { start, end });
        return { id: e.id, start, end };
      },
    }),
  ];
}

const FILE = { type: "object", properties: { id: text(), name: text(), owner: text(), shared_with: { type: "object" }, content: text() } };

function driveTools(env: WorkspaceEnv): Tool<any, any>[] {
  // Which files are visible is for their owners to decide; whether one matches a search by
  // its content, for everyone who may edit it (its name is its owner's).
  const listed = (result: DriveFile[]) => listingOf(result.map((f) => f.owner), USER, "file");
  const found = (result: DriveFile[], { query }: { query: string }) => listingOf(result.flatMap((f) => (mentions(f.name, query) ? [f.owner] : writersOf(f))), USER, "file");
  return [
    defineTool({ name: "list_files", description: "Every file the user owns or that is shared with them.", returns: list(FILE), label: listed, run: () => files(visibleFiles(env)) }),
    defineTool({
      name: "search_files",
      description: "Files whose name or content contains the query (case-insensitive).",
      parameters: params({ query: text() }),
      returns: list(FILE),
      label: found,
      run: ({ query }: { query: string }) => files(visibleFiles(env).filter((f) => mentions(`${f.name} ${f.content}`, query))),
    }),
    defineTool({
      name: "create_file",
      description: "Creates a file owned by the user.",
      parameters: params({ name: text(), content: text() }),
      sideEffect: true,
      policy: all(
        ...["name", "content"].map((p) => askInstead(requireTrusted(p, { why: "untrusted text would be stored in the drive as if the user wrote it" }))),
        askInstead(requireTrustedContext({ why: "untrusted data decided whether the file is created" })),
      ),
      output: DONE,
      run: ({ name, content }: { name: string; content: string }) => {
        const f: DriveFile = { id: nextId(env.files, "f"), name, owner: USER, shared_with: {}, content };
        env.files.push(f);
        return { id: f.id };
      },
    }),
    defineTool({
      name: "share_file",
      description: "Shares a file with a person, read-only (r) or with edit rights (rw).",
      parameters: params({ file_id: text(), email: text(), permission: { type: "string", enum: ["r", "rw"] } }),
      sideEffect: true,
      policy: fileSharePolicy({ recipients: ["email"], file: ["file_id"] }),
      output: DONE,
      run: ({ file_id, email, permission }: { file_id: string; email: string; permission: "r" | "rw" }) => {
        const f = fileById(env, file_id);
        f.shared_with[email] = permission;
        return { id: f.id, email, permission };
      },
    }),
    defineTool({
      name: "delete_file",
      description: "Deletes a file the user owns.",
      parameters: params({ file_id: text() }),
      sideEffect: true,
      policy: all(
        askInstead(requireTrusted("file_id", { why: "untrusted text chose which file is deleted" })),
        askInstead(requireTrustedContext({ why: "untrusted data decided whether a file is deleted" })),
      ),
      output: DONE,
      run: ({ file_id }: { file_id: string }) => {
        const f = fileById(env, file_id);
        if (f.owner !== USER) throw new Error(`${f.name} belongs to ${f.owner}; only its owner can delete it`);
        env.files = env.files.filter((x) => x.id !== file_id);
        return { deleted: file_id };
      },
    }),
  ];
}

/** The user's own address book. */
const CONTACTS = { trusted: true, readers: [USER], sources: ["contacts"] };

function contactTools(env: WorkspaceEnv): Tool<any, any>[] {
  const contact = { type: "object", properties: { name: text(), email: text() } };
  return [
    defineTool({ name: "get_contacts", description: "The user's address book.", returns: list(contact), output: CONTACTS, run: () => env.contacts }),
    defineTool({
      name: "find_contact",
      description: "The first contact whose name contains the given text (case-insensitive).",
      parameters: params({ name: text() }),
      returns: contact,
      output: CONTACTS,
      run: ({ name }: { name: string }) => {
        const c = env.contacts.find((x) => mentions(x.name, name));
        if (c === undefined) throw new Error(`no contact named ${JSON.stringify(name)}`);
        return c;
      },
    }),
  ];
}

export function tools(env: WorkspaceEnv): Tool<any, any>[] {
  return [...emailTools(env), ...calendarTools(env), ...driveTools(env), ...contactTools(env)];
}
