/**
 * The banking tools, bound to one run's data. Labels: the bank's ledger, payees, scheduled
 * payments and settings are facts the bank or the user asserts (trusted, readable by the user);
 * the ledger vouches for who sent what to whom and when, not for which transfers others chose to
 * send (a listing holding one is untrusted) nor for a transfer's subject, which is free text
 * whoever made the transfer typed (untrusted); a file is trusted only when the user wrote it.
 * A change returns an acknowledgement: ids and what the caller sent, never stored records. Payees read from documents are asked about, not denied: the person sees the IBAN
 * and the document it came from.
 */
import { Label } from "../../../labels/index.js";
import { all, paymentPolicy, requireTrusted, requireTrustedContext, askInstead } from "../../../policy/index.js";
import { defineTool, type Tool } from "../../../tools/types.js";
import { fromOthers, list, listingOf, nextId, number, params, text, usersOwn } from "../common.js";
import { USER, type BankFile, type BankingEnv, type Transaction } from "./environment.js";

export const policies: Record<string, string> = {
  send_money: "paymentPolicy({ askUntrustedRecipient, askUntrustedPrivateContent })",
  schedule_transaction: "paymentPolicy({ askUntrustedRecipient, askUntrustedPrivateContent })",
  update_scheduled_transaction: "paymentPolicy({ recipient: [\"recipient\", \"id\"], askUntrustedRecipient, askUntrustedPrivateContent })",
  update_user_info: "requireTrusted(street, city, phone) + askInstead(requireTrustedContext())",
  update_password: "requireTrusted(password) + requireTrustedContext()",
};

const TRANSACTION = { type: "object", properties: { id: text(), sender: text(), recipient: text(), amount: number(), subject: text(), date: text(), recurring: { type: "boolean" } } };

/** The user's own records at the bank: trusted, readable by the user. */
const own = (source: string) => ({ trusted: true, readers: [USER], sources: [source] });

function fileLabel(f: BankFile): Label {
  return f.author === USER ? usersOwn(USER, `file:${f.name}`) : fromOthers([USER, f.author], `file:${f.name} (from ${f.author})`);
}

/** The ledger vouches for each transfer's facts, but who added the transfers is each sender's decision. */
function ledgerLabel(env: BankingEnv, result: readonly Transaction[]): Label {
  const own = Label.of({ trusted: true, readers: [USER], sources: ["bank ledger"] });
  return own.join(listingOf(result.map((t) => t.sender), env.account.iban, "transaction"));
}

function pay(env: BankingEnv, a: { recipient: string; amount: number; subject: string; date?: string }): Transaction {
  if (!(a.amount > 0)) throw new Error("the amount must be positive");
  if (a.amount > env.account.balance) throw new Error(`the balance (${env.account.balance} EUR) does not cover ${a.amount} EUR`);
  const t: Transaction = { id: nextId(env.transactions, "t"), sender: env.account.iban, recipient: a.recipient, amount: a.amount, subject: a.subject, date: a.date ?? env.today, recurring: false };
  env.transactions.push(t);
  env.account.balance = Math.round((env.account.balance - a.amount) * 100) / 100;
  return t;
}

function readTools(env: BankingEnv): Tool<any, any>[] {
  return [
    defineTool({ name: "get_iban", description: "The IBAN of the user's account.", returns: text(), output: own("bank account"), run: () => env.account.iban }),
    defineTool({ name: "get_balance", description: "The account balance in EUR.", returns: number(), output: own("bank account"), run: () => env.account.balance }),
    defineTool({
      name: "get_user_info",
      description: "The name, street, city and phone number on the account.",
      output: own("account settings"),
      run: () => ({ name: env.settings.name, street: env.settings.street, city: env.settings.city, phone: env.settings.phone }),
    }),
    defineTool({ name: "get_payees", description: "The user's saved payees: name and IBAN.", returns: list({ type: "object", properties: { name: text(), iban: text() } }), output: own("payees"), run: () => env.payees }),
    defineTool({
      name: "get_transactions",
      description: "The n most recent transactions, newest first.",
      parameters: params({ n: { type: "integer", minimum: 1 } }),
      returns: list(TRANSACTION),
      // Which transactions the ledger holds is partly for others to decide (anyone may send
      // the user a transfer), so the listing is untrusted whenever it holds one.
      label: (result: Transaction[]) => ledgerLabel(env, result),
      output: { readers: [USER], parts: { "*.subject": { trusted: false, sources: ["transaction:{sender}"] } } },
      run: ({ n }: { n: number }) => [...env.transactions].sort((a, b) => b.date.localeCompare(a.date)).slice(0, n).map((t) => ({ ...t })),
    }),
    defineTool({ name: "get_scheduled_transactions", description: "Payments the user scheduled.", returns: list(TRANSACTION), output: own("scheduled payments"), run: () => env.scheduled }),
    defineTool({
      name: "read_file",
      description: "Reads a file from the user's downloads by name.",
      parameters: params({ name: text() }),
      returns: text(),
      label: (_r: unknown, a: { name: string }) => {
        const f = env.files.find((x) => x.name === a.name);
        return f === undefined ? Label.trusted() : fileLabel(f);
      },
      run: ({ name }: { name: string }) => {
        const f = env.files.find((x) => x.name === name);
        if (f === undefined) throw new Error(`no file named ${JSON.stringify(name)}; files: ${env.files.map((x) => x.name).join(", ")}`);
        return f.content;
      },
    }),
  ];
}

const MONEY = { recipient: text("IBAN"), amount: number("EUR"), subject: text(), date: text("YYYY-MM-DD") };

/** A payee or memo read from a document is asked about: the person sees them and where they came from. */
const ASKS = { askUntrustedRecipient: true, askUntrustedPrivateContent: true } as const;

/** What a change the user asked for returns: the bank's acknowledgement. */
const DONE = { trusted: true, sources: ["bank"] } as const;

function payTools(env: BankingEnv): Tool<any, any>[] {
  return [
    defineTool({
      name: "send_money",
      description: "Sends money now from the user's account. date defaults to today.",
      parameters: params(MONEY, ["date"]),
      sideEffect: true,
      policy: paymentPolicy(ASKS),
      output: DONE,
      run: (a: { recipient: string; amount: number; subject: string; date?: string }) => ({ id: pay(env, a).id }),
    }),
    defineTool({
      name: "schedule_transaction",
      description: "Schedules a payment on a date, optionally repeating every month.",
      parameters: params({ ...MONEY, recurring: { type: "boolean" } }),
      sideEffect: true,
      policy: paymentPolicy(ASKS),
      output: DONE,
      run: (a: Omit<Transaction, "id" | "sender">) => {
        const t: Transaction = { id: nextId(env.scheduled, "s"), sender: env.account.iban, ...a };
        env.scheduled.push(t);
        return { id: t.id };
      },
    }),
    defineTool({
      name: "update_scheduled_transaction",
      description: "Changes fields of a scheduled payment; fields left out stay as they are.",
      parameters: params({ id: text(), ...MONEY, recurring: { type: "boolean" } }, ["recipient", "amount", "subject", "date", "recurring"]),
      sideEffect: true,
      policy: paymentPolicy({ recipient: ["recipient", "id"], ...ASKS }),
      output: DONE,
      run: ({ id, ...changes }: Partial<Transaction> & { id: string }) => {
        const t = env.scheduled.find((x) => x.id === id);
        if (t === undefined) throw new Error(`no scheduled payment with id ${JSON.stringify(id)}`);
        Object.assign(t, changes);
        // The acknowledgement says what changed, not the stored payment (which is private).
        return { id: t.id, updated: Object.keys(changes) };
      },
    }),
  ];
}

function settingsTools(env: BankingEnv): Tool<any, any>[] {
  return [
    defineTool({
      name: "update_user_info",
      description: "Changes the street, city or phone number on the account.",
      parameters: params({ street: text(), city: text(), phone: text() }, ["street", "city", "phone"]),
      sideEffect: true,
      policy: all(
        ...["street", "city", "phone"].map((p) => requireTrusted(p, { why: "untrusted text would change the account's contact details" })),
        askInstead(requireTrustedContext({ why: "untrusted data decided whether the details change" })),
      ),
      output: DONE,
      run: (a: { street?: string; city?: string; phone?: string }) => {
        Object.assign(env.settings, a);
        return { updated: Object.keys(a) };
      },
    }),
    defineTool({
      name: "update_password",
      description: "Sets a new password for online banking.",
      parameters: params({ password: text() }),
      sideEffect: true,
      policy: all(requireTrusted("password", { why: "only the user may choose the password" }), requireTrustedContext({ why: "untrusted data decided whether the password changes" })),
      output: DONE,
      run: ({ password }: { password: string }) => {
        env.settings.password = password;
        return { updated: true };
      },
    }),
  ];
}

export function tools(env: BankingEnv): Tool<any, any>[] {
  return [...readTools(env), ...payTools(env), ...settingsTools(env)];
}
