/**
 * The attack corpus: leak programs written by reviewers who read the interpreter as attackers
 * (issue 14), one JSON file per mechanism under corpus/<class>/, kept as data so the corpus stays
 * the source of truth for regressions. Each entry is run on its two inputs, which differ only in
 * the untrusted record (or only in the secret one), and the allowed sink calls must agree
 * (termination-insensitive: a stopped run's calls are a prefix of the other's), without a crash.
 * `held-*` files hold attempts that did not leak when they were written; they stay as guards.
 * `accepted-*` files hold differences the security model accepts (each entry says which).
 * An entry with `feedback: true` has the planner as a sink too (what failureTurn tells it).
 *
 * An entry still known to leak is listed in STILL_LEAKING and runs as `it.fails`, so the suite
 * turns red when it is fixed and the list must shrink with it. A precision entry marked `coarse`
 * (a rule that is coarse on purpose, with the reason) runs as `it.fails` too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanFor, obedientReader, runPair, soundnessTools, type InputRecord, type SoundnessInput } from "../../src/testing/index.js";

interface Entry {
  id: string;
  mechanism?: string;
  bug?: string;
  program: string;
  varying?: "untrusted" | "secret";
  /** A precision entry: every sink call is allowed without asking, in both runs. */
  expect?: "allowed";
  /** The planner is a sink too: when both runs fail with the same kind, it is told the same. */
  feedback?: true;
  /**
   * A difference in the planner's feedback the security model accepts, and why (the termination
   * channel, documented): the feedback is not compared, the sink calls still are.
   */
  accepted?: string;
  /**
   * A precision entry where the rule is coarse on purpose, and why (unsure, so coarse, never
   * leaky): it runs as `it.fails`, so the suite turns red when it becomes precise.
   */
  coarse?: string;
  inputs: [Partial<Record<"u" | "s" | "t", Partial<InputRecord>>> & { list?: SoundnessInput["list"] }, Partial<Record<"u" | "s" | "t", Partial<InputRecord>>> & { list?: SoundnessInput["list"] }];
}

const ROOT = join(import.meta.dirname, "corpus");
const RECORD: InputRecord = { a: 0, b: "", c: false, list: [], n: { x: 0, tag: "" } };
/** The limits the attack runner uses. */
const RUNTIME = { approve: () => true, quarantined: obedientReader(), limits: { steps: 200_000, timeMs: 5_000, arrayLength: 100_000 } };

function input(parts: Entry["inputs"][number]): SoundnessInput {
  return {
    u: { ...RECORD, ...parts.u } as InputRecord,
    s: { ...RECORD, ...parts.s } as InputRecord,
    t: { ...RECORD, ...parts.t } as InputRecord,
    list: parts.list ?? [{ n: 0, tag: "" }, { n: 0, tag: "" }, { n: 0, tag: "" }],
  };
}

function load(): Array<{ file: string; entry: Entry }> {
  const out: Array<{ file: string; entry: Entry }> = [];
  for (const dir of readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const f of readdirSync(join(ROOT, dir)).sort()) {
      if (!f.endsWith(".json")) continue;
      for (const entry of JSON.parse(readFileSync(join(ROOT, dir, f), "utf8")) as Entry[]) out.push({ file: `${dir}/${f}`, entry });
    }
  }
  return out;
}

/** Entries that still leak on this branch (each fixed entry leaves this list). */
const STILL_LEAKING = new Set<string>(JSON.parse(readFileSync(join(import.meta.dirname, "corpus-still-leaking.json"), "utf8")) as string[]);

async function agrees(e: Entry): Promise<{ ok: boolean; detail: string }> {
  const varying = e.varying ?? "untrusted";
  const pair = await runPair(e.program, [input(e.inputs[0]), input(e.inputs[1])], {
    tools: (i) => soundnessTools(i, { guard: varying === "secret" ? "confidentiality" : "integrity" }),
    observe: ["send", "publish"],
    clean: cleanFor(varying),
    runtime: RUNTIME,
    feedback: e.feedback === true && e.accepted === undefined,
  });
  const statuses = pair.results.map((r) => r.status + (r.error ? ` (${r.error.kind}: ${r.error.message.slice(0, 100)})` : ""));
  const told = pair.feedback === undefined ? "" : ` planner told: ${JSON.stringify(pair.feedback)}`;
  const detail = `${JSON.stringify(pair.traces)} ${statuses.join(" | ")}${told}`;
  // Inputs that differ only in trusted data may make different calls: a precision entry is judged
  // by whether each run goes through without an ask, not by the two runs agreeing.
  if (e.expect === "allowed" && onlyTrustedVaries(e)) {
    const asked = pair.results.flatMap((r) => r.calls.filter((c) => ["send", "publish"].includes(c.tool) && c.decision !== "allow"));
    return { ok: pair.results.every((r) => r.status === "completed") && asked.length === 0, detail: `${detail}; not allowed: ${JSON.stringify(asked.map((c) => c.tool))}` };
  }
  return { ok: pair.ok, detail };
}

/** True when the two inputs differ only in the trusted record. */
function onlyTrustedVaries(e: Entry): boolean {
  const [a, b] = e.inputs;
  return JSON.stringify({ ...a, t: undefined }) === JSON.stringify({ ...b, t: undefined }) && JSON.stringify(a.t) !== JSON.stringify(b.t);
}

const entries = load();

describe("the attack corpus", () => {
  it("has unique ids, and every listed leak is in it", () => {
    const ids = entries.map((x) => x.entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...STILL_LEAKING].filter((id) => !ids.includes(id))).toEqual([]);
  });

  for (const { file, entry } of entries) {
    const run = STILL_LEAKING.has(entry.id) || entry.coarse !== undefined ? it.fails : it;
    run(`${file}: ${entry.id}`, async () => {
      const r = await agrees(entry);
      expect(r.ok, `${entry.bug ?? ""}\n${entry.program}\n${r.detail}`).toBe(true);
    });
  }
});
