/**
 * The benchmark programs: plain JavaScript inside sluice's subset (no classes, `this`, `new`,
 * Map or Set), so every engine runs the same text. Each program leaves its answer in a
 * variable named `result`; the engine adapters read it from there (see engines.js), and
 * every result is a number or a string so engines can be compared exactly.
 */
import { customerCsv, inbox } from "./data.js";

/** A literal that evaluates to `text`, for embedding prepared data in a program. */
const literal = (text) => JSON.stringify(text);

const numericLoop = String.raw`
let acc = 0;
let x = 1;
for (let i = 0; i < 300000; i++) {
  x = (x * 75 + 74) % 65537;
  if (x % 3 === 0) {
    acc = acc + (i % 1000);
  } else {
    acc = acc - (x & 15);
  }
}
const result = acc;
`;

const stringProcessing = (csv) => String.raw`
const text = ${literal(csv)};
const lines = text.split("\n");
const byDomain = {};
const tagCounts = {};
const cities = {};
const slugs = [];
let longest = "";
for (const line of lines) {
  const parts = line.split("|");
  const id = parseInt(parts[0], 10);
  const name = parts[1].trim().toLowerCase().split(" ")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
  const email = parts[2].trim().toLowerCase();
  const domain = email.slice(email.indexOf("@") + 1);
  byDomain[domain] = (byDomain[domain] || 0) + 1;
  const city = parts[3].trim();
  cities[city] = (cities[city] || 0) + 1;
  for (const tag of parts[4].split(";")) {
    tagCounts[tag] = (tagCounts[tag] || 0) + 1;
  }
  const note = parts[5];
  if (note.length > longest.length) longest = note;
  if (note.includes("urgent") && id % 7 === 0) {
    slugs.push(id + "-" + name.replace(" ", "-").toLowerCase());
  }
}
const topDomains = Object.keys(byDomain)
  .sort((a, b) => byDomain[b] - byDomain[a] || (a < b ? -1 : 1))
  .slice(0, 3);
const result = JSON.stringify({
  count: lines.length, topDomains, cities, tagCounts,
  longest: longest.length, slugCount: slugs.length, slugs: slugs.slice(0, 20),
});
`;

const groupBy = String.raw`
const regions = ["north", "south", "east", "west", "central"];
const categories = ["books", "games", "garden", "tools", "toys", "food", "music"];
const orders = [];
let seed = 42;
for (let i = 0; i < 5000; i++) {
  seed = (seed * 75 + 74) % 65537;
  orders.push({
    id: "o" + i,
    region: regions[seed % 5],
    category: categories[Math.floor(seed / 7) % 7],
    qty: 1 + (seed % 9),
    price: (seed % 1000) / 10 + 0.99,
  });
}
const groups = orders.reduce((acc, o) => {
  const key = o.region + "/" + o.category;
  let g = acc[key];
  if (g === undefined) {
    g = { region: o.region, category: o.category, orders: 0, units: 0, revenue: 0, maxPrice: 0 };
    acc[key] = g;
  }
  g.orders += 1;
  g.units += o.qty;
  g.revenue += o.qty * o.price;
  if (o.price > g.maxPrice) g.maxPrice = o.price;
  return acc;
}, {});
const rows = Object.values(groups).map((g) => ({
  ...g,
  revenue: Math.round(g.revenue * 100) / 100,
  avgUnits: Math.round((g.units / g.orders) * 100) / 100,
}));
rows.sort((a, b) => b.revenue - a.revenue);
const byRegion = {};
for (const r of rows) {
  if (byRegion[r.region] === undefined) byRegion[r.region] = [];
  byRegion[r.region].push(r.category);
}
const result = JSON.stringify({ rows, byRegion }, null, 2);
`;

/** The plan's body after the inbox is in `emails`; `send` says whether it calls send_email. */
const planRest = (send) => String.raw`
const invoices = emails.filter((e) => e.subject.startsWith("Invoice") && !e.read);
const bySender = {};
for (const e of invoices) {
  const m = e.body.match(/Amount due: \$([0-9]+\.[0-9]{2})/);
  if (m === null) continue;
  const entry = bySender[e.from] || { from: e.from, total: 0, count: 0, ids: [] };
  entry.total += parseFloat(m[1]);
  entry.count += 1;
  entry.ids.push(e.id);
  bySender[e.from] = entry;
}
const top = Object.values(bySender).sort((a, b) => b.total - a.total).slice(0, 5);
const lines = top.map((s, i) => (i + 1) + ". " + s.from + ": $" + s.total.toFixed(2) +
  " over " + s.count + " invoice(s) (" + s.ids.join(", ") + ")");
const meetings = emails
  .filter((e) => e.body.includes("meeting") && e.day >= 20)
  .map((e) => ({ id: e.id, from: e.from, day: e.day }));
const draft = {
  to: "me@corp.io",
  subject: "Unpaid invoices: " + invoices.length + ", late meetings: " + meetings.length,
  body: lines.join("\n"),
};
${send ? "send_email(draft);" : ""}
const result = JSON.stringify(draft);
`;

/**
 * Builds the benchmark cases. `plan.tools` is the same plan reading its inbox from a real
 * tool and sending the draft through another, for the sluice createRuntime row.
 */
export function buildPrograms({ records = 4000, emails = 500 } = {}) {
  const mails = inbox(emails);
  return {
    mails,
    cases: [
      { name: "numeric loop (300k iterations)", body: numericLoop },
      { name: `string processing (${records} records)`, body: stringProcessing(customerCsv(records)) },
      { name: "group-by + JSON output (5000 rows)", body: groupBy },
      { name: `plan over tool data (${emails} emails)`, body: `const emails = JSON.parse(${literal(JSON.stringify(mails))});\n${planRest(false)}` },
    ],
    planWithTools: `const emails = get_inbox({ limit: ${emails} });\n${planRest(true)}`,
  };
}
