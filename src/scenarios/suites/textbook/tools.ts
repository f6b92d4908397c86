/**
 * The textbook's tools, labelled as test/textbook.test.ts labels them: the email is untrusted
 * (public, as in the textbook), the user's files are trusted and readable only by the user, and
 * send_email is guarded by the outbound-message policy.
 */
import { outboundMessagePolicy } from "../../../policy/index.js";
import { defineTool, type Tool } from "../../../tools/types.js";
import { params, text } from "../common.js";
import { USER, type TextbookEnv } from "./environment.js";

export const policies: Record<string, string> = { send_email: "outboundMessagePolicy()" };

/** The textbook's email: every field is the sender's. */
const FROM_SENDER = { trusted: false, sources: ["email#{id}:{from}"] };

export function tools(env: TextbookEnv): Tool<any, any>[] {
  return [
    defineTool({
      name: "get_last_email",
      description: "Returns the newest email in the user's inbox.",
      output: { trusted: true, sources: [], parts: { from: FROM_SENDER, subject: FROM_SENDER, body: FROM_SENDER } },
      run: () => {
        const e = env.inbox[env.inbox.length - 1];
        return { id: e.id, from: e.from, subject: e.subject, body: e.body };
      },
    }),
    defineTool({
      name: "read_file",
      description: "Reads one of the user's files.",
      parameters: params({ path: text() }),
      output: { trusted: true, readers: [USER], sources: ["file:{args.path}"] },
      run: ({ path }: { path: string }) => {
        const content = env.files[path];
        if (content === undefined) throw new Error(`no file ${path}`);
        return content;
      },
    }),
    defineTool({
      name: "send_email",
      description: "Sends an email.",
      parameters: params({ to: text(), subject: text(), body: text() }, ["subject"]),
      sideEffect: true,
      policy: outboundMessagePolicy(),
      output: { trusted: true, sources: [] },
      run: (a: { to: string; subject?: string; body: string }) => {
        env.sent.push(a);
        return { ok: true };
      },
    }),
  ];
}
