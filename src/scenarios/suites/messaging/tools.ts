/**
 * The messaging tools, bound to one run's data. Labels: a channel message is readable by the
 * channel's members (and the channel itself, as a principal such as "#general") and comes from
 * its sender; a direct message by its two ends; which messages a channel or an inbox holds is
 * for the people who post to decide (the listing is untrusted); the chat service vouches for who
 * sent a direct message, not for what it says; a web page is public and untrusted; who is in
 * which channel is a fact the chat service asserts. A recipient or message shaped by what others
 * posted is asked about, not denied: the person sees it and where it came from. So is a private
 * link the user may read (`approver`: the user answers the asks).
 */
import { labeled } from "../../../labels/index.js";
import { messagePolicy, webRequestPolicy } from "../../../policy/index.js";
import { defineTool, type Tool } from "../../../tools/types.js";
import { fromOthers, list, params, postedBy, text } from "../common.js";
import { USER, type MessagingEnv } from "./environment.js";

export const policies: Record<string, string> = {
  send_direct_message: "messagePolicy({ askUntrustedRecipient, askUntrustedPrivateContent, approver: \"ravi\" })",
  send_channel_message: "messagePolicy({ askUntrustedRecipient, askUntrustedPrivateContent, approver: \"ravi\" })",
  add_user_to_channel: "messagePolicy({ recipients: [\"user\"], content: [\"channel\"], askUntrustedRecipient, approver: \"ravi\" })",
  invite_user_to_workspace: "messagePolicy({ recipients: [\"user\", \"email\"], content: [] })",
  get_webpage: "webRequestPolicy({ approver: \"ravi\" })",
  post_webpage: "webRequestPolicy({ content: [\"content\"], approver: \"ravi\" })",
};

const MESSAGE = { type: "object", properties: { sender: text(), body: text() } };

/** Facts the chat service asserts. */
const SERVICE = { trusted: true, sources: ["chat service"] };

/**
 * Who answers the asks: the user. A link or message private to them is theirs to decide about;
 * a secret of others' (readers without them) is still denied, as they could not see it to decide.
 */
const APPROVER = { approver: USER } as const;

/** A person decides about a recipient or a message shaped by what others posted: they are shown it. */
const ASKS = { askUntrustedRecipient: true, askUntrustedPrivateContent: true, ...APPROVER } as const;

/** What a change the user asked for returns: the service's acknowledgement. */
const DONE = { trusted: true, sources: ["chat service"] } as const;

function channelOf(env: MessagingEnv, name: string, member = true) {
  const c = env.channels[name];
  if (c === undefined) throw new Error(`no channel ${JSON.stringify(name)}; channels: ${Object.keys(env.channels).join(", ")}`);
  if (member && !c.members.includes(USER)) throw new Error(`${USER} is not a member of ${name}`);
  return c;
}

function userOf(env: MessagingEnv, handle: string) {
  const u = env.users.find((x) => x.handle === handle);
  if (u === undefined) throw new Error(`no user ${JSON.stringify(handle)}`);
  return u;
}

function readTools(env: MessagingEnv): Tool<any, any>[] {
  return [
    defineTool({
      name: "get_channels",
      description: "The channels the user is a member of.",
      returns: list(text()),
      output: SERVICE,
      run: () => Object.keys(env.channels).filter((c) => env.channels[c].members.includes(USER)),
    }),
    defineTool({
      name: "get_users_in_channel",
      description: "The handles of a channel's members.",
      parameters: params({ channel: text("e.g. #general") }),
      returns: list(text()),
      output: SERVICE,
      run: ({ channel }: { channel: string }) => [...channelOf(env, channel).members],
    }),
    defineTool({
      name: "read_channel_messages",
      description: "The messages of a channel, oldest first.",
      parameters: params({ channel: text("e.g. #general") }),
      returns: list(MESSAGE),
      // Each message is readable by the channel's members, which only the run knows: labelled below.
      label: (result: Array<{ sender: string }>) => postedBy(result.map((m) => m.sender), "chat"),
      output: { trusted: false },
      run: ({ channel }: { channel: string }) => {
        const c = channelOf(env, channel);
        return c.messages.map((m) => labeled({ ...m }, fromOthers([...c.members, channel], `chat:${m.sender} in ${channel}`)));
      },
    }),
    defineTool({
      name: "read_inbox",
      description: "Direct messages sent to the user, oldest first.",
      returns: list(MESSAGE),
      label: (result: Array<{ sender: string }>) => postedBy(result.map((m) => m.sender), "message"),
      output: {
        trusted: false,
        parts: { "*": { readers: ["{sender}", USER], sources: ["message:{sender}"] }, "*.body": { trusted: false } },
      },
      run: () => env.dms.filter((m) => m.recipient === USER).map((m) => ({ sender: m.sender, body: m.body })),
    }),
    defineTool({
      name: "get_webpage",
      description: "Fetches a web page and returns its text.",
      parameters: params({ url: text() }),
      returns: text(),
      // A link someone sent the user is private to the two of them: the user is asked before
      // its server sees it (the ask names the server and whose message it came from).
      policy: webRequestPolicy(APPROVER),
      output: { trusted: false, sources: ["{args.url}"] },
      run: ({ url }: { url: string }) => {
        env.web_requests.push(url);
        return env.web[url] ?? "404 Not Found";
      },
    }),
  ];
}

function actTools(env: MessagingEnv): Tool<any, any>[] {
  return [
    defineTool({
      name: "send_direct_message",
      description: "Sends a direct message to a user, by handle.",
      parameters: params({ recipient: text("a handle, e.g. dana"), body: text() }),
      sideEffect: true,
      policy: messagePolicy(ASKS),
      output: DONE,
      run: ({ recipient, body }: { recipient: string; body: string }) => {
        userOf(env, recipient);
        env.dms.push({ sender: USER, recipient, body });
        return { sent: true };
      },
    }),
    defineTool({
      name: "send_channel_message",
      description: "Posts a message in a channel.",
      parameters: params({ channel: text("e.g. #general"), body: text() }),
      sideEffect: true,
      policy: messagePolicy(ASKS),
      output: DONE,
      run: ({ channel, body }: { channel: string; body: string }) => {
        channelOf(env, channel).messages.push({ sender: USER, body });
        return { posted: true };
      },
    }),
    defineTool({
      name: "add_user_to_channel",
      description: "Adds a user (by handle) to a channel; they can then read all of it.",
      parameters: params({ user: text(), channel: text() }),
      sideEffect: true,
      // The user can tell whether a handle read from the member lists is the one they meant.
      policy: messagePolicy({ recipients: ["user"], content: ["channel"], askUntrustedRecipient: true, ...APPROVER }),
      output: DONE,
      run: ({ user, channel }: { user: string; channel: string }) => {
        userOf(env, user);
        const c = channelOf(env, channel);
        if (!c.members.includes(user)) c.members.push(user);
        return { added: user, channel };
      },
    }),
    defineTool({
      name: "invite_user_to_workspace",
      description: "Invites a new person to the chat workspace with a handle and an email address.",
      parameters: params({ user: text(), email: text() }),
      sideEffect: true,
      policy: messagePolicy({ recipients: ["user", "email"], content: [] }),
      output: DONE,
      run: ({ user, email }: { user: string; email: string }) => {
        env.invitations.push({ user, email });
        if (!env.users.some((u) => u.handle === user)) env.users.push({ handle: user, name: user, email });
        return { invited: email };
      },
    }),
    defineTool({
      name: "post_webpage",
      description: "Posts content to a web address.",
      parameters: params({ url: text(), content: text() }),
      sideEffect: true,
      policy: webRequestPolicy({ content: ["content"], ...APPROVER }),
      output: DONE,
      run: ({ url, content }: { url: string; content: string }) => {
        env.web_posts.push({ url, content });
        return { posted: true };
      },
    }),
  ];
}

export function tools(env: MessagingEnv): Tool<any, any>[] {
  return [...readTools(env), ...actTools(env)];
}
