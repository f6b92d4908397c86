/**
 * The shorthand people type in requests ("appt", "ppl", "mtg", "pls", "tmrw"), spelled out
 * before anything else reads the request, so the spelled-out word counts as the person's own.
 * General written English shorthand and chat abbreviations, not the vocabulary of any one tool.
 */
const SHORTHAND: Readonly<Record<string, string>> = {
  appt: "appointment", appts: "appointments", mtg: "meeting", mtgs: "meetings", cal: "calendar", sched: "schedule",
  msg: "message", msgs: "messages", convo: "conversation", convos: "conversations", ppl: "people", pls: "please", plz: "please",
  thx: "thanks", ty: "thanks", tmrw: "tomorrow", tmr: "tomorrow", tmw: "tomorrow", tdy: "today", tonite: "tonight",
  wk: "week", wks: "weeks", mos: "months", yr: "year", yrs: "years", hr: "hour", hrs: "hours",
  mins: "minutes", sec: "seconds", asap: "soon", eod: "end of day", eow: "end of week", fyi: "for your information",
  rn: "right now", bc: "because", b4: "before", w: "with", wo: "without", thru: "through", abt: "about", re: "about",
  info: "information", addr: "address", acct: "account", accts: "accounts", amt: "amount", qty: "quantity",
  num: "number", nums: "numbers", dept: "department", mgr: "manager", org: "organization", orgs: "organizations",
  admin: "administrator", approx: "approximately", pic: "picture", pics: "pictures", img: "image", imgs: "images",
  vid: "video", txn: "transaction", txns: "transactions",
  inv: "invoice", subs: "subscriptions", biz: "business", govt: "government", intl: "international",
  config: "configuration", prefs: "preferences", pw: "password", pwd: "password", ppt: "presentation",
  ur: "your", u: "you", r: "are", dunno: "do not know", gonna: "going to", wanna: "want to", lemme: "let me", gimme: "give me",
};

/** The request with its shorthand spelled out, word by word; everything else untouched. */
export function spellOut(request: string): string {
  return request.replace(/[A-Za-z][A-Za-z0-9]*/g, (w) => SHORTHAND[w.toLowerCase()] ?? w);
}
