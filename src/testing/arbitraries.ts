/**
 * fast-check arbitraries that write plans: scope-correct programs in the whole supported
 * language that read untrusted, secret and trusted data, compute with every kind of construct,
 * branch on what they read and call sinks; and the inputs they run on.
 *
 * Every plan starts with the same prelude, so every name it uses is declared:
 *   u, s, t   the untrusted, secret and trusted records (from tools);
 *   m         a list of three items: trusted, untrusted and secret (labelled parts);
 *   S         a JSON Schema for query_ai_assistant answers ({ n, ok, s });
 *   v0 v1 v2  numbers; w a string; o, o2 objects; arr an array (all written by the plan);
 *   f(x)      a function that reads and writes the variables and may return early;
 *   h(y)      an arrow function.
 * It ends by sending every variable to the first sink and `[v0, v1, v2]` to the last, and its
 * completion value is all of them. One top-level statement per line, so a failing plan can be
 * cut down line by line.
 */
import fc from "fast-check";
import { Label } from "../labels/index.js";
import type { Tool } from "../tools/types.js";
import { arrowBodyArb, functionBodyArb, type SinkSpec, type StmtScope, statementArb, topScope } from "./gen-statements.js";
import { focusedStatementArb } from "./gen-focused.js";
import { mechanismStatementArb } from "./gen-mechanisms.js";
import { type Guard, labeledListSource, recordSource, strictSink } from "./kit-tools.js";

export { numExpr, strExpr, condExpr, arrExpr, objExpr, sinkValue, FEATURES, type ExprScope, type ArgKind } from "./gen-expressions.js";
export { statementArb, blockArb, sinkCallArb, topScope, type StmtScope, type SinkSpec } from "./gen-statements.js";

/** The fields of every input record: a number, a string, a flag, a list and a nested object. */
export interface InputRecord {
  a: number;
  b: string;
  c: boolean;
  list: number[];
  n: { x: number; tag: string };
}

/** An input record; small values so that branches go both ways. */
export const inputRecordArb: fc.Arbitrary<InputRecord> = fc.record({
  a: fc.integer({ min: -3, max: 3 }),
  b: fc.constantFrom("", "x", "yes", "no", "eve@evil.com", "e"),
  c: fc.boolean(),
  list: fc.array(fc.integer({ min: -2, max: 3 }), { maxLength: 4 }),
  n: fc.record({ x: fc.integer({ min: -1, max: 2 }), tag: fc.constantFrom("yes", "no", "") }),
});

/** An item of the labelled list `m`. */
export interface ListItem {
  n: number;
  tag: string;
}

export const listItemArb: fc.Arbitrary<ListItem> = fc.record({ n: fc.integer({ min: -2, max: 3 }), tag: fc.constantFrom("yes", "no", "") });

/** Everything one run reads: the three records and the three list items (trusted, untrusted, secret). */
export interface SoundnessInput {
  u: InputRecord;
  s: InputRecord;
  t: InputRecord;
  list: [ListItem, ListItem, ListItem];
}

/** Which inputs a pair lets differ: the attacker's (integrity) or the secrets (confidentiality). */
export type PairKind = "integrity" | "confidentiality";

/** Two inputs that agree on everything except the untrusted parts (integrity) or the secret parts. */
export function inputPairArb(kind: PairKind): fc.Arbitrary<[SoundnessInput, SoundnessInput]> {
  return fc
    .record({ u: inputRecordArb, s: inputRecordArb, t: inputRecordArb, i0: listItemArb, i1: listItemArb, i2: listItemArb, x: inputRecordArb, y: listItemArb })
    .map(({ u, s, t, i0, i1, i2, x, y }) => {
      const first: SoundnessInput = { u, s, t, list: [i0, i1, i2] };
      const second: SoundnessInput = kind === "integrity" ? { u: x, s, t, list: [i0, y, i2] } : { u, s: x, t, list: [i0, i1, y] };
      return [first, second];
    });
}

/** The labels of the sources: an attacker's email, alice's private file, the user's settings. */
export const SOURCE_LABELS = {
  untrusted: Label.untrusted("email:eve@evil.com"),
  secret: Label.of({ trusted: true, readers: ["alice"], sources: ["file:secret.txt"] }),
  trusted: Label.trusted(),
  listUntrusted: Label.untrusted("web:evil.example"),
} as const;

/** Options of {@link soundnessTools}. */
export interface SoundnessToolOptions {
  /** Label every source trusted and public (to check that labels never change a value). */
  trustAll?: boolean;
  /** Collects the arguments of every sink call that ran. */
  seen?: unknown[];
  /** What the sinks ask about (default both untrusted and private flows). */
  guard?: Guard;
}

/**
 * The tools the generated plans call for one input: read_untrusted, read_secret, read_trusted,
 * read_list, and the sinks send and publish (allowed only for clean flows, else asked).
 */
export function soundnessTools(input: SoundnessInput, options: SoundnessToolOptions = {}): Tool[] {
  const L = options.trustAll ? { untrusted: Label.trusted(), secret: Label.trusted(), trusted: Label.trusted(), listUntrusted: Label.trusted() } : SOURCE_LABELS;
  return [
    recordSource("read_untrusted", input.u, L.untrusted),
    recordSource("read_secret", input.s, L.secret),
    recordSource("read_trusted", input.t, L.trusted),
    labeledListSource("read_list", [
      { value: input.list[0], label: L.trusted },
      { value: input.list[1], label: L.listUntrusted },
      { value: input.list[2], label: L.secret },
    ]),
    strictSink("send", options.seen, options.guard),
    strictSink("publish", options.seen, options.guard),
  ];
}

/** Options of {@link planArb}. */
export interface PlanOptions {
  /** The sinks plans call; default `send({ value })` and `publish({ value })`. */
  sinks?: readonly SinkSpec[];
  /** Whether plans call query_ai_assistant (the runtime then needs a quarantined model). Default true. */
  reader?: boolean;
  /** Whether `m` comes from a `read_list` tool (true, the default) or is built from u, s and t. */
  list?: boolean;
  /** Tool names of the untrusted, secret and trusted sources. */
  sources?: { untrusted?: string; secret?: string; trusted?: string; list?: string };
  /** Most top-level statements between the prelude and the final sends. Default 6. */
  statements?: number;
  /** Deepest nesting of statements. Default 2. */
  depth?: number;
  /** Constructs to leave out, by tag (see FEATURES). */
  avoid?: readonly string[];
  /** The focused statements to use instead of the default ones (e.g. libraryStatementArb). */
  focus?: (sc: StmtScope) => fc.Arbitrary<string>;
}

const DEFAULT_SINKS: readonly SinkSpec[] = [{ name: "send" }, { name: "publish" }];
const SCHEMA = `{ type: "object", properties: { n: { type: "number" }, ok: { type: "boolean" }, s: { type: "string" } }, required: ["n", "ok", "s"] }`;
const OBSERVED = ["v0", "v1", "v2", "w", "o.k", "o.m1", `"m1" in o`, "o2.k", "o", "o2", "arr", "arr.length", "arr[0]"];

/** A sink call passing `expr` to every argument, converted to the argument's kind. */
function observe(sink: SinkSpec, expr: string): string {
  const args = Object.entries(sink.args ?? { value: "any" });
  const conv = (kind: string) => (kind === "string" ? `String(${expr})` : kind === "number" ? `Number(${expr})` : expr);
  return `${sink.name}({ ${args.map(([name, kind]) => `${name}: ${conv(kind)}`).join(", ")} });`;
}

/** The final sends of a plan: every variable to the first sink, `[v0, v1, v2]` to the last. */
function observations(sinks: readonly SinkSpec[], batched: boolean): string[] {
  const calls = [...OBSERVED.map((v) => observe(sinks[0], v)), observe(sinks[sinks.length - 1], "[v0, v1, v2]")];
  return batched ? [`await Promise.all([${calls.map((c) => c.slice(0, -1)).join(", ")}]);`] : calls;
}

/** Generated plans (programs), configured by {@link PlanOptions}. */
export function planArb(options: PlanOptions = {}): fc.Arbitrary<string> {
  const sinks = options.sinks ?? DEFAULT_SINKS;
  const reader = options.reader ?? true;
  const names = { untrusted: "read_untrusted", secret: "read_secret", trusted: "read_trusted", list: "read_list", ...options.sources };
  const avoid = [...(options.avoid ?? [])].sort();
  const top = topScope(options.depth ?? 2, sinks, reader, avoid);
  const stmt = statementArb(top);
  const focused = (options.focus ?? focusedStatementArb)(top);
  const mechanism = mechanismStatementArb(top);
  return fc
    .record({
      awaitReads: avoid.includes("await") ? fc.constant(false) : fc.boolean(),
      // Observing in one Promise.all costs one host round trip instead of one per send; it
      // shrinks to one send per line, which a failing plan can then be cut down to.
      batched: fc.boolean(),
      fbody: functionBodyArb(sinks, reader, avoid),
      hbody: arrowBodyArb(reader, avoid),
      // Short plans of focused statements first (a leak shows best where little else taints the
      // sinks), then short and long plans over the whole language.
      stmts: fc.oneof(
        { withCrossShrink: true },
        fc.array(focused, { minLength: 1, maxLength: 4 }),
        // The shapes every leak mechanism found so far hid in, among focused statements.
        fc.array(fc.oneof(mechanism, focused), { minLength: 1, maxLength: 4 }),
        fc.array(stmt, { minLength: 1, maxLength: 2 }),
        fc.array(stmt, { minLength: 1, maxLength: options.statements ?? 6 }),
      ),
    })
    .map(({ awaitReads, batched, fbody, hbody, stmts }) => {
      const aw = awaitReads ? "await " : "";
      const lines = [
        `const u = ${aw}${names.untrusted}();`,
        `const s = ${aw}${names.secret}();`,
        `const t = ${aw}${names.trusted}();`,
        options.list === false ? "const m = [{ n: t.a, tag: t.b }, { n: u.a, tag: u.b }, { n: s.a, tag: s.b }];" : `const m = ${aw}${names.list}();`,
        `const S = ${SCHEMA};`,
        "let v0 = 0;",
        "let v1 = 1;",
        "let v2 = 2;",
        `let w = "w";`,
        "const o = { k: 0, n: { d: 1 } };",
        "const o2 = { k: 0 };",
        "const arr = [1, 2];",
        "const rx = /e/g;",
        "const d0 = new Date(0);",
        `function f(x) { ${fbody} }`,
        `const h = (y) => ${hbody};`,
        ...stmts,
        ...observations(sinks, batched),
        "[v0, v1, v2, w, o, o2, arr];",
      ];
      return lines.join("\n");
    });
}

/** Plans over the whole language: the labelled list from a tool and quarantined-model queries. */
export const soundnessProgramArb: fc.Arbitrary<string> = planArb();

/**
 * Plans for a runtime with the sources read_untrusted, read_secret and read_trusted and the sinks
 * send and publish only (no list tool, no quarantined model).
 */
export const programArb: fc.Arbitrary<string> = planArb({ list: false, reader: false });
