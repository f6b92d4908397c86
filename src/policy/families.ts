/**
 * Ready policies for common tool families. Each names argument paths with defaults that fit
 * the usual tool shapes; paths absent from a call are skipped, so one default list covers
 * `to`/`cc`/`bcc` alike. The pattern is the same everywhere: untrusted text choosing where
 * data goes, or shaping something that carries private data, is denied; anything a person
 * could reasonably want (sharing private data with someone the user named, acting under a
 * branch that read untrusted data) is asked.
 */
import { allow, deny } from "../tools/types.js";
import { askIfApproverMayRead, askInstead, all, requireOneOf, requirePublic, requireReadableBy, requireTrusted, requireTrustedContext, requireTrustedIfPrivate } from "./rules.js";
import { hasPath, lookup, nameArg } from "./paths.js";
import { dataText, listText, originText } from "./describe.js";
import { declareRequirements } from "./requirements.js";
import type { PrincipalReader } from "./argument.js";
import type { Policy } from "./types.js";

type Paths = string | readonly string[];

/**
 * Where a person can decide: ask instead of denying. The person sees the value and where it
 * came from, with what to check before approving; without approval the call is still refused.
 */
export interface AskOptions {
  /** Ask, instead of denying, when untrusted text chose a recipient (an address or IBAN read from a document). Default false. */
  askUntrustedRecipient?: boolean;
  /** Ask, instead of denying, when content is both private and shaped by untrusted text. Default false. */
  askUntrustedPrivateContent?: boolean;
  /**
   * The principal of the person who answers asks (the runtime's `approve` callback), as labels
   * name readers. Given, an ask about who may read private data goes to that person only when
   * they may read everything the call would disclose; otherwise it is denied (they cannot
   * decide about a secret that is not theirs). Absent: those asks are made as before.
   */
  approver?: string;
}

/** Argument paths of a message-like tool. */
export interface MessagePolicyOptions extends AskOptions {
  /** Paths naming who receives the message. */
  recipients?: Paths;
  /** Paths of what the message carries. */
  content?: Paths;
  /** How the tool's recipient values name people, for shapes sluice does not read; see {@link ReadableByOptions.principalsOf}. */
  principalsOf?: PrincipalReader;
}

function list(paths: Paths | undefined, fallback: readonly string[]): readonly string[] {
  if (paths === undefined) return fallback;
  return typeof paths === "string" ? [paths] : paths;
}

/** The hint given when a tool's arguments are named differently from the policy's defaults. */
function configure(example: string): string {
  return `name the argument with ${example} so it can be checked`;
}

const WHERE = "untrusted text chose where the data goes";
const SHAPED = "untrusted text shaped a message that carries private data";
const CHECK_RECIPIENT = "approve only if you recognise it as the one you meant";
const CHECK_CONTENT = "read it first, and approve only if every recipient may see all of it";
const CHECK_READERS = "approve only if you are willing to show it to them";

/**
 * The textbook outbound-message policy: deny when a recipient is untrusted (untrusted text
 * chose where data goes); deny when the content is both private and untrusted (untrusted text
 * shaped a message that carries private data). Defaults: recipients `to`, content `body`.
 */
export function outboundMessagePolicy(options: MessagePolicyOptions = {}): Policy {
  return all(
    outbound(list(options.recipients, ["to"]), list(options.content, ["body"]), WHERE),
    // Whether the message is sent at all is part of where data goes (CaMeL's strict mode):
    // a call under a branch that untrusted data decided is refused like an untrusted recipient.
    requireTrustedContext({ why: "untrusted text decided whether this message is sent" }),
  );
}

function outbound(recipients: readonly string[], content: readonly string[], where: string, asks: AskOptions = {}): Policy {
  return all(
    ...recipients.map((p) =>
      asks.askUntrustedRecipient === true ? askInstead(requireTrusted(p, { why: `${where}; ${CHECK_RECIPIENT}` })) : requireTrusted(p, { why: where }),
    ),
    ...content.map((p) =>
      asks.askUntrustedPrivateContent === true ? askInstead(requireTrustedIfPrivate(p, { why: `${SHAPED}; ${CHECK_CONTENT}` })) : requireTrustedIfPrivate(p, { why: SHAPED }),
    ),
  );
}

interface Family {
  recipients: readonly string[];
  content: readonly string[];
  /** Why a reader check asks, e.g. "the email would show it to them". */
  shows: string;
  /** Why an untrusted context asks, e.g. "whether this email is sent". */
  whether: string;
  /** Why an untrusted recipient is denied. */
  where?: string;
  extra?: Policy[];
  /** How to configure the recipients, for the hint when none is present; absent when none is needed. */
  requiredBy?: string;
  asks?: AskOptions;
  principalsOf?: PrincipalReader;
}

/** An ask about readers: to the approver only when they may read it all, when the policy names one. */
function askAboutReaders(rule: Policy, approver: string | undefined, check: string): Policy {
  return approver === undefined ? askInstead(rule) : askIfApproverMayRead(rule, { approver, check });
}

function messageFamily({ recipients, content, shows, whether, where = WHERE, extra = [], requiredBy, asks, principalsOf }: Family): Policy {
  const present = requiredBy === undefined ? [] : [requireOneOf(recipients, configure(requiredBy))];
  return all(
    ...present,
    outbound(recipients, content, where, asks),
    ...content.map((p) =>
      askAboutReaders(requireReadableBy(p, { principalsFrom: recipients, why: shows, ...(principalsOf ? { principalsOf } : {}) }), asks?.approver, CHECK_READERS),
    ),
    askInstead(requireTrustedContext({ why: `untrusted data decided ${whether}` })),
    ...extra,
  );
}

/**
 * Email: the outbound-message policy over `to`, `cc`, `bcc` and `subject`, `body`,
 * `attachments`; asks when the content is private and a recipient is not among its readers,
 * or when the call sits under an untrusted branch.
 */
export function emailPolicy(options: MessagePolicyOptions = {}): Policy {
  return messageFamily({
    recipients: list(options.recipients, ["to", "cc", "bcc"]),
    content: list(options.content, ["subject", "body", "attachments"]),
    requiredBy: `emailPolicy({ recipients: [...] })`,
    shows: "the email would show it to them",
    whether: "whether this email is sent",
    asks: options,
    principalsOf: options.principalsOf,
  });
}

/** Chat messages: like {@link emailPolicy}, over `to`/`recipient`/`channel` and `body`/`text`/`message`. */
export function messagePolicy(options: MessagePolicyOptions = {}): Policy {
  return messageFamily({
    recipients: list(options.recipients, ["to", "recipient", "channel"]),
    content: list(options.content, ["body", "text", "message"]),
    requiredBy: `messagePolicy({ recipients: [...] })`,
    shows: "the message would show it to them",
    whether: "whether this message is sent",
    asks: options,
    principalsOf: options.principalsOf,
  });
}

/**
 * Calendar invitations: an invitation is a message to its attendees. Recipients
 * `participants`/`attendees`, content `title`/`description`/`location`.
 */
export function calendarInvitePolicy(options: MessagePolicyOptions = {}): Policy {
  return messageFamily({
    recipients: list(options.recipients, ["participants", "attendees"]),
    content: list(options.content, ["title", "description", "location"]),
    shows: "the invitation would show it to them",
    whether: "whether this invitation is sent",
    asks: options,
    principalsOf: options.principalsOf,
  });
}

/** Argument paths of a file-sharing tool. */
export interface FileSharePolicyOptions extends AskOptions {
  /** How the tool's recipient values name people; see {@link ReadableByOptions.principalsOf}. */
  principalsOf?: PrincipalReader;
  /** Paths naming who the file is shared with. Default `with`, `email`, `to`. */
  recipients?: Paths;
  /** Paths naming the file. Its label should carry the file's readers. Default `file`, `file_id`, `path`. */
  file?: Paths;
}

/**
 * File sharing: sharing is sending the file. Denies untrusted recipients and private files
 * picked by untrusted text; asks when the file is not readable by everyone it is shared with,
 * when untrusted text chose the file, or under an untrusted branch.
 */
export function fileSharePolicy(options: FileSharePolicyOptions = {}): Policy {
  const file = list(options.file, ["file", "file_id", "path"]);
  const chosen = file.map((p) => askInstead(requireTrusted(p, { why: "untrusted text chose which file is shared" })));
  return messageFamily({
    recipients: list(options.recipients, ["with", "email", "to"]),
    content: file,
    requiredBy: `fileSharePolicy({ recipients: [...] })`,
    shows: "sharing would show it to them",
    whether: "whether this file is shared",
    extra: chosen,
    asks: options,
    principalsOf: options.principalsOf,
  });
}

/** Argument paths of a payment tool. */
export interface PaymentPolicyOptions extends AskOptions {
  /** How the tool's recipient values name people; see {@link ReadableByOptions.principalsOf}. */
  principalsOf?: PrincipalReader;
  /** Paths naming who is paid. Default `recipient`, `to`, `iban`. */
  recipient?: Paths;
  /** Paths of the amount. Default `amount`. */
  amount?: Paths;
  /** Paths of text sent along with the payment. Default `subject`, `memo`, `description`, `note`. */
  content?: Paths;
}

/**
 * Payments: denies an untrusted recipient (untrusted text chose who gets paid) and a private
 * memo shaped by untrusted text; asks when untrusted text chose the amount, when the memo is
 * private to others than the recipient, or under an untrusted branch.
 */
export function paymentPolicy(options: PaymentPolicyOptions = {}): Policy {
  const recipients = list(options.recipient, ["recipient", "to", "iban"]);
  const content = list(options.content, ["subject", "memo", "description", "note"]);
  const amounts = list(options.amount, ["amount"]).map((p) =>
    askInstead(requireTrusted(p, { why: "untrusted text chose how much is paid" })),
  );
  return messageFamily({
    recipients,
    content,
    requiredBy: `paymentPolicy({ recipient: [...] })`,
    shows: "the payment would show it to them",
    whether: "whether this payment is made",
    where: "untrusted text chose who gets paid",
    extra: amounts,
    asks: options,
    principalsOf: options.principalsOf,
  });
}

/** Argument paths of a web-request tool. */
export interface WebRequestPolicyOptions {
  /** Path of the URL. Default `url`. */
  url?: string;
  /** Paths of what the request sends besides the URL. Default `body`, `data`, `params`, `query`, `headers`. */
  content?: Paths;
  /** Allow public URLs that untrusted text chose (plain browsing) instead of asking. Default false. */
  allowUntrustedUrl?: boolean;
  /**
   * The principal of the person who answers asks (the runtime's `approve` callback), as labels
   * name readers, e.g. the user a link was sent to. Given, a private URL (or private content)
   * that person may read, with everything else the call would disclose, is asked about instead
   * of denied: it is theirs to show the server. Absent, a private URL is denied.
   */
  approver?: string;
}

/** The server a URL names, in words, for an explanation; the host is data, quoted when it is not plain. */
function serverOf(url: unknown): string {
  if (typeof url !== "string") return "the web server it names";
  try {
    const host = new URL(url).host;
    return host.length > 0 ? `the web server ${dataText(host)}` : "the web server it names";
  } catch {
    return "the web server it names";
  }
}

/**
 * Web requests. Fetching a URL counts as sending the URL to its server, so the URL must be
 * public: a private one is denied, or, when the policy names the `approver` and they may read
 * all the call would disclose, asked (a link sent to the user is theirs to open). Private content sent to a URL untrusted text chose is denied;
 * private content to a trusted URL, an untrusted URL, or an untrusted branch is asked.
 */
export function webRequestPolicy(options: WebRequestPolicyOptions = {}): Policy {
  const url = options.url ?? "url";
  const content = list(options.content, ["body", "data", "params", "query", "headers"]);
  const toServer = "the request would send it to the web server";
  const rules: Policy[] = [
    requireOneOf([url], configure('webRequestPolicy({ url: "..." })')),
    askIfApproverMayRead(requirePublic(url, { why: "fetching a URL sends it to the web server" }), {
      ...(options.approver === undefined ? {} : { approver: options.approver }),
      learns: (call) => serverOf(lookup(call.args, url).value),
      check: "approve only if you are willing to let that server see this address",
    }),
    ...content.map((p) => requireTrustedIfPrivate(p, { why: SHAPED })),
    privateToUntrustedUrl(url, content),
    ...content.map((p) => askAboutReaders(requirePublic(p, { why: toServer }), options.approver, CHECK_READERS)),
    askInstead(requireTrustedContext({ why: "untrusted data decided whether this request is made" })),
  ];
  if (options.allowUntrustedUrl !== true) {
    rules.push(askInstead(requireTrusted(url, { why: "untrusted text chose which server is contacted" })));
  }
  return all(...rules);
}

/** Denies private content going to a URL that untrusted text chose. */
function privateToUntrustedUrl(url: string, content: readonly string[]): Policy {
  return declareRequirements((call) => {
    if (!hasPath(call.args, url)) return allow();
    const urlLabel = call.label(url);
    if (urlLabel.trusted) return allow();
    const carried = content.filter((p) => hasPath(call.args, p) && call.label(p).readers !== "public");
    if (carried.length === 0) return allow();
    const what = listText(carried.map((p) => nameArg(call.args, p)));
    return deny(`${nameArg(call.args, url)} is untrusted (${originText(urlLabel)}) and the request carries private ${what} — ${WHERE}`);
  }, [{ kind: "privateToUntrustedUrl", url, content, effect: "deny", why: WHERE }]);
}
