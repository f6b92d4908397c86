/**
 * Deterministic input data for the benchmark programs. Generated here, before any timing, and
 * handed to every engine as the same literal text, so no engine needs host tools to read it.
 */

/** A small seeded generator (xorshift32) so every run of the suite sees the same data. */
function generator(seed) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  return {
    int: (n) => next() % n,
    pick: (list) => list[next() % list.length],
  };
}

const FIRST = ["ada", "grace", "alan", "edsger", "barbara", "donald", "ken", "margaret", "linus", "radia", "tim", "frances"];
const LAST = ["lovelace", "hopper", "turing", "dijkstra", "liskov", "knuth", "thompson", "hamilton", "torvalds", "perlman", "berners-lee", "allen"];
const DOMAINS = ["example.com", "corp.io", "mail.net", "vendor.biz", "startup.dev", "uni.edu", "bank.co"];
const CITIES = ["  Paris", "Berlin ", "Lagos", "Osaka", " Lima", "Oslo", "Austin", "Pune"];
const TAGS = ["vip", "new", "churn-risk", "beta", "enterprise", "trial", "partner", "legacy"];
const WORDS = ["quarterly", "review", "please", "attached", "meeting", "budget", "update", "ship", "launch", "urgent", "notes", "draft", "contract", "travel", "lunch"];

/**
 * `count` customer records, one per line, fields separated by `|`, with the untidy spacing and
 * casing a real export has: id|name|email|city|tags|note.
 */
export function customerCsv(count) {
  const g = generator(7);
  const lines = [];
  for (let i = 0; i < count; i++) {
    const first = g.pick(FIRST);
    const last = g.pick(LAST);
    const name = i % 3 === 0 ? `${first.toUpperCase()} ${last}` : `${first} ${last}`;
    const email = `${first}.${last}${g.int(100)}@${g.pick(DOMAINS)}`;
    const tags = [g.pick(TAGS), g.pick(TAGS), g.pick(TAGS)].slice(0, 1 + g.int(3)).join(";");
    const note = Array.from({ length: 3 + g.int(6) }, () => g.pick(WORDS)).join(" ");
    lines.push(`${1000 + i}| ${name} |${email}|${g.pick(CITIES)}|${tags}|${note}`);
  }
  return lines.join("\n");
}

/** `count` emails as an inbox listing tool would return them. */
export function inbox(count) {
  const g = generator(11);
  const emails = [];
  for (let i = 0; i < count; i++) {
    const from = `${g.pick(FIRST)}.${g.pick(LAST)}@${g.pick(DOMAINS)}`;
    const kind = g.int(4);
    const amount = `${10 + g.int(5000)}.${String(g.int(100)).padStart(2, "0")}`;
    const words = Array.from({ length: 20 + g.int(40) }, () => g.pick(WORDS)).join(" ");
    const subject = kind === 0 ? `Invoice #${2000 + i}` : kind === 1 ? `Re: ${g.pick(WORDS)} ${g.pick(WORDS)}` : `${g.pick(WORDS)} notes`;
    const body = kind === 0 ? `Hello, ${words}. Amount due: $${amount} by day ${1 + g.int(28)}. Thanks` : `Hi, ${words}.`;
    emails.push({ id: `m${i}`, from, to: "me@corp.io", subject, body, day: 1 + g.int(28), read: g.int(2) === 0 });
  }
  return emails;
}
