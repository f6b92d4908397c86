/**
 * Composable sink rules. Each names the argument it guards by a dotted path; a rule whose
 * argument is absent from the call checks what decided that it is absent (the shape of the
 * object that would hold it, and an undefined the program wrote there) as it would check the
 * argument: data that chose whether a key is there chose something about the call.
 * Every rule denies; wrap it in {@link askInstead} to escalate to a person instead.
 */
import { Label } from "../labels/index.js";
import { allow, deny, type Decision, type ToolCall } from "../tools/types.js";
import { dataText, listText, originText, secrecyText } from "./describe.js";
import { combineDecisions } from "./decisions.js";
import { contextText, privateText, untrustedText } from "./explain.js";
import { argumentLabel, principalsAt, type PrincipalReader } from "./argument.js";
import { hasPath, nameArg } from "./paths.js";
import { asAsks, declareRequirements, requirementsOf, unionOf } from "./requirements.js";
import type { Policy } from "./types.js";

/** Options shared by the rules. */
export interface RuleOptions {
  /** What would go wrong, appended to the reason, e.g. "untrusted text would choose where the data goes". */
  why?: string;
}

/** Options of {@link requireReadableBy}. */
export interface ReadableByOptions extends RuleOptions {
  /** Path(s) of the arguments naming the principals (recipients, attendees, people shared with). */
  principalsFrom?: string | readonly string[];
  /** Fixed principals that must be able to read the value as well. */
  principals?: readonly string[];
  /**
   * How this tool's recipient values name people, for shapes {@link principalsOf} does not
   * read; when it gives nothing, the usual shapes are tried, and a value still unread is refused.
   */
  principalsOf?: PrincipalReader;
}

function checkPath(rule: string, path: unknown): string {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`${rule}(path): path must be a non-empty dotted argument path, got ${JSON.stringify(path)}`);
  }
  return path;
}

function because(reason: string, options: RuleOptions | undefined): string {
  return options?.why ? `${reason} — ${options.why}` : reason;
}

function asList(paths: string | readonly string[] | undefined): readonly string[] {
  if (paths === undefined) return [];
  return typeof paths === "string" ? [paths] : paths;
}

/**
 * An absence's label for a rule about readers, unless it is no more secret than the call's
 * context: such a rule does not govern whether the call happens, and a key missing for no more
 * secret a reason than that says nothing the call does not.
 */
function secretAbsence(call: ToolCall, absent: Label | undefined): Label | undefined {
  if (absent === undefined) return undefined;
  return Label.of({ readers: absent.readers }).flowsTo(Label.of({ readers: call.context.readers })) ? undefined : absent;
}

/** The argument at `path` must be trusted: no untrusted text chose it (nor whether it is there). */
export function requireTrusted(path: string, options?: RuleOptions): Policy {
  checkPath("requireTrusted", path);
  return declareRequirements((call) => {
    const arg = argumentLabel(call, path);
    if (!arg.present) {
      const absent = arg.label;
      return absent === undefined || absent.trusted ? allow() : deny(because(`${"`"}${path}${"`"} is missing, and untrusted data decided that: ${originText(absent)}`, options));
    }
    const label = arg.label;
    return label.trusted ? allow() : deny(because(untrustedText(call, path, label), options));
  }, [{ kind: "trusted", path, effect: "deny", why: options?.why }]);
}

/** The argument at `path` must be public: readable by anyone it may reach. */
export function requirePublic(path: string, options?: RuleOptions): Policy {
  checkPath("requirePublic", path);
  return declareRequirements((call) => {
    const arg = argumentLabel(call, path);
    if (!arg.present) {
      const absent = secretAbsence(call, arg.label);
      return absent === undefined || absent.readers === "public" ? allow() : deny(because(`${"`"}${path}${"`"} is missing, and private data decided that (${secrecyText(absent)})`, options));
    }
    const label = arg.label;
    return label.readers === "public" ? allow() : deny(because(privateText(call, path, label), options));
  }, [{ kind: "public", path, effect: "deny", why: options?.why }]);
}

/**
 * The argument at `path` must not be both private and untrusted: untrusted text must not
 * shape something that carries private data.
 */
export function requireTrustedIfPrivate(path: string, options?: RuleOptions): Policy {
  checkPath("requireTrustedIfPrivate", path);
  return declareRequirements((call) => {
    const arg = argumentLabel(call, path);
    if (!arg.present) {
      const absent = arg.label;
      return absent === undefined || absent.trusted || absent.readers === "public" ? allow() : deny(because(`${"`"}${path}${"`"} is missing, and untrusted data decided that about private data`, options));
    }
    const label = arg.label;
    if (label.trusted || label.readers === "public") return allow();
    const text = `${nameArg(call.args, path)} is ${secrecyText(label)} and untrusted: ${originText(label)}`;
    return deny(because(text, options));
  }, [{ kind: "trustedIfPrivate", path, effect: "deny", why: options?.why }]);
}

function unreadableBy(label: Label, principals: readonly string[]): string[] {
  const readers = label.readers;
  if (readers === "public") return [];
  const allowed = new Set(readers.map((r) => r.toLowerCase()));
  return [...new Set(principals)].filter((p) => !allowed.has(p.toLowerCase()));
}

/**
 * Everyone the value at `path` reaches must be among its readers: the principals named by
 * the arguments in `principalsFrom` (read by {@link principalsOf}: strings, comma-separated
 * lists, numbers, arrays, the usual address objects, or the policy's own `principalsOf`) and
 * any fixed `principals`. Public values pass. A recipient argument that names no one sluice can
 * tell makes a private value's call refused: the rule cannot tell who would read it.
 */
export function requireReadableBy(path: string, options: ReadableByOptions): Policy {
  checkPath("requireReadableBy", path);
  const from = asList(options?.principalsFrom);
  from.forEach((p) => checkPath("requireReadableBy principalsFrom", p));
  const fixed = options?.principals ?? [];
  const reader = options?.principalsOf;
  if (reader !== undefined && typeof reader !== "function") throw new TypeError("requireReadableBy: principalsOf must be a function from a recipient value to its principals");
  return declareRequirements((call) => {
    const arg = argumentLabel(call, path);
    const label = arg.present ? arg.label : secretAbsence(call, arg.label);
    if (label === undefined || label.readers === "public") return allow();
    const named = from.filter((p) => hasPath(call.args, p));
    const read = named.map((p) => ({ path: p, found: principalsAt(call.args, p, reader) }));
    const unknown = read.find((r) => !r.found.ok);
    if (unknown !== undefined && !unknown.found.ok) {
      const what = `${arg.present ? privateText(call, path, label) : `\`${path}\` is missing, and ${secrecyText(label)} data decided that`}, and sluice cannot tell who ${"`"}${unknown.path}${"`"} names (${unknown.found.what}); give the policy principalsOf to read it`;
      return deny(because(what, options));
    }
    const principals = [...fixed, ...read.flatMap((r) => (r.found.ok ? r.found.principals : []))];
    const missing = unreadableBy(label, principals);
    if (missing.length === 0) return allow();
    if (!arg.present) return deny(because(`${"`"}${path}${"`"} is missing, and ${secrecyText(label)} data decided that, so ${listText(missing)} may not learn it`, options));
    const where = named.length > 0 ? ` (named in ${listText(named.map((p) => `\`${p}\``))})` : "";
    const text = `${privateText(call, path, label)}, so ${listText(missing)}${where} may not read it`;
    return deny(because(text, options));
  }, [{ kind: "readableBy", path, principalsFrom: from, principals: fixed, effect: "deny", why: options?.why }]);
}

/**
 * At least one of `paths` must be present. Ready policies use it so that a tool whose
 * arguments have other names is refused with a hint, rather than silently left unguarded.
 */
export function requireOneOf(paths: readonly string[], hint: string): Policy {
  if (!Array.isArray(paths) || paths.length === 0) throw new TypeError("requireOneOf(paths): expected at least one path");
  paths.forEach((p) => checkPath("requireOneOf", p));
  const names = listText(paths.map((p) => `\`${p}\``)).replace(/ and ([^,]+)$/, " or $1");
  // Its refusals are about how the tool names its arguments, not about data: nothing to predict.
  return declareRequirements(
    (call) => (paths.some((p) => hasPath(call.args, p)) ? allow() : deny(`${call.tool} has none of the arguments ${names} — ${hint}`)),
    [],
  );
}

/** The call must not sit under a branch or loop that depends on untrusted data. */
export function requireTrustedContext(options?: RuleOptions): Policy {
  return declareRequirements(
    (call) => (call.context.trusted ? allow() : deny(because(contextText(call.context), options))),
    [{ kind: "trustedContext", effect: "deny", why: options?.why }],
  );
}

/** Every rule must allow; the strictest decision wins, with its reasons joined. */
export function all(...rules: Policy[]): Policy {
  rules.forEach((r, i) => {
    if (typeof r !== "function") throw new TypeError(`all(...rules): rule ${i} is not a function`);
  });
  const r = unionOf(rules);
  return declareRequirements((call: ToolCall): Decision => combineDecisions(...rules.map((rule) => rule(call))), r.known, r.complete);
}

/** The same rule, but where it would deny it asks a person instead, with the same reason. */
export function askInstead(rule: Policy): Policy {
  if (typeof rule !== "function") throw new TypeError("askInstead(rule): rule must be a function");
  const r = asAsks(requirementsOf(rule));
  return declareRequirements((call) => {
    const decision = rule(call);
    return decision.kind === "deny" ? { kind: "ask", reason: decision.reason } : decision;
  }, r.known, r.complete);
}

/** Options of {@link askIfApproverMayRead}. */
export interface ApproverOptions {
  /**
   * The principal of the person who answers asks (the runtime's `approve` callback), as it
   * appears among labels' readers, e.g. `"ravi"` or `"maya@corp.com"`. The runtime does not
   * know who that is, so the policy must be told; without it every such denial stands.
   */
  approver?: string;
  /** Who learns what the call discloses if it is approved, in words, e.g. `"the web server partner.example"`. */
  learns?: (call: ToolCall) => string;
  /** What the person should check before approving, e.g. "approve only if you are willing to show it to them". */
  check?: string;
}

function sameReaders(label: Label, principal: string): boolean {
  const readers = label.readers;
  if (readers === "public") return true;
  const p = principal.toLowerCase();
  return readers.some((r) => r.toLowerCase() === p);
}

/**
 * A confidentiality rule a person may decide: where `rule` denies, ask instead, but only when
 * the person asked (`approver`) may read everything the call would disclose: every argument,
 * which arguments it has, and the control flow that led to it (an approval request shows them
 * all). When no approver is named, or they may not read it all, the denial stands, with why.
 * The ask says what would be disclosed and where it came from (the rule's reason), to whom
 * (`learns`), and what to check. Use it only for rules about readers: an integrity denial
 * (untrusted text chose something no person can check) is not the approver's to lift.
 */
export function askIfApproverMayRead(rule: Policy, options: ApproverOptions = {}): Policy {
  if (typeof rule !== "function") throw new TypeError("askIfApproverMayRead(rule): rule must be a function");
  const approver = options.approver;
  if (approver !== undefined && (typeof approver !== "string" || approver.trim().length === 0)) {
    throw new TypeError(`askIfApproverMayRead: approver must be a non-empty principal, got ${JSON.stringify(approver)}`);
  }
  // Statically it is an ask when someone may be asked: whether they may read it is the run's data.
  const r = approver === undefined ? requirementsOf(rule) : asAsks(requirementsOf(rule));
  return declareRequirements((call) => {
    const decision = rule(call);
    if (decision.kind !== "deny") return decision;
    if (approver === undefined) {
      return deny(`${decision.reason} (no one is asked: the policy names no approver who may read it)`);
    }
    const shape = call.shape?.();
    const disclosed = [call.label(), call.context, ...(shape === undefined ? [] : [shape])].reduce((a, b) => a.join(b));
    if (!sameReaders(disclosed, approver)) {
      return deny(`${decision.reason} (no one is asked: the call would show the person asked, ${dataText(approver)}, data they may not read, ${secrecyText(disclosed)})`);
    }
    const learns = options.learns === undefined ? "" : `; if approved, ${options.learns(call)} learns it`;
    const check = options.check === undefined ? "" : `: ${options.check}`;
    return { kind: "ask", reason: `${decision.reason}${learns}. You (${dataText(approver)}) may read all of it, so it is yours to decide${check}` };
  }, r.known, r.complete);
}
