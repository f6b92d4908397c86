/**
 * Declared result labels: a tool says, as data, how trusted its result is, who may read it, and
 * which parts of it a source other than the tool vouches for (a mail server vouches for `from`,
 * the sender writes the body). The runtime labels results from the declaration when the tool
 * has no `label` function, and the static plan check reads it to predict refusals before any
 * tool runs.
 *
 * Strings in `readers` and `sources` may hold templates: `{field}` names a field of the
 * nearest object at or above the labelled part (for the result's own label, the result when it
 * is an object), `{args.name}` an argument of the call. A reader written as exactly one
 * template whose value is an array gives one reader per element; a missing value gives none.
 */
import { Label, labeled, isLabeled } from "../labels/index.js";

/** A label as data; strings may hold `{field}` and `{args.name}` templates. */
export interface LabelTemplate {
  /** Whether the value may steer actions. */
  trusted?: boolean;
  /** `"public"` or the principals who may read the value. */
  readers?: "public" | readonly string[];
  /** Where the value came from. */
  sources?: readonly string[];
}

/**
 * How a tool's result is labelled, declared instead of computed.
 *
 * The result's own label: `trusted` defaults to false, `readers` to `"public"`, `sources` to the
 * tool's name. `parts` label parts of the result by dotted path pattern (`"subject"`,
 * `"*.body"`: `*` is any array index or object key); a part's label is joined with every label
 * above it, so it can only add restrictions, and its unset fields add nothing (`trusted`
 * defaults to true there). A tool whose result is trusted as a whole but carries text someone
 * else wrote declares the whole as trusted and the text as an untrusted part.
 *
 * With a `label` function as well, that function gives the result's own label at run time, and
 * what the declaration states outright (`trusted: false`, `readers`) must hold of every label it
 * gives: the static plan check relies on it, and reads unstated fields as unknown. The parts
 * are applied either way.
 */
export interface OutputLabels extends LabelTemplate {
  parts?: Readonly<Record<string, LabelTemplate>>;
}

const TEMPLATE = /\{([^{}]*)\}/g;
const WHOLE_TEMPLATE = /^\{([^{}]+)\}$/;
const PATH_SEGMENT = /^(\*|[^.*]+)$/;

/** True when `text` holds a `{...}` template, so its value is known only at run time. */
export function hasTemplate(text: string): boolean {
  return /\{[^{}]*\}/.test(text);
}

/** The segments of a part pattern: `"*.subject"` is `["*", "subject"]`. */
export function patternSegments(pattern: string): string[] {
  return pattern.split(".");
}

function checkTemplates(where: string, list: unknown): void {
  if (list === undefined || list === "public") return;
  if (!Array.isArray(list) || list.some((s) => typeof s !== "string")) throw new TypeError(`${where} must be "public" or a list of strings`);
  for (const s of list as string[]) {
    for (const m of s.matchAll(TEMPLATE)) {
      if (m[1].trim() === "" || m[1].split(".").some((k) => k === "")) throw new TypeError(`${where}: the template ${JSON.stringify(m[0])} names no field; write {field} or {args.name}`);
    }
  }
}

function checkTemplate(where: string, t: unknown): void {
  if (t === null || typeof t !== "object" || Array.isArray(t)) throw new TypeError(`${where} must be an object with trusted, readers and sources`);
  const spec = t as LabelTemplate;
  if (spec.trusted !== undefined && typeof spec.trusted !== "boolean") throw new TypeError(`${where}.trusted must be a boolean`);
  checkTemplates(`${where}.readers`, spec.readers);
  if (spec.sources !== undefined && spec.sources === ("public" as unknown)) throw new TypeError(`${where}.sources must be a list of strings`);
  checkTemplates(`${where}.sources`, spec.sources);
}

/** Throws a TypeError naming the problem when `output` is malformed. */
export function checkOutput(tool: string, output: unknown): void {
  const where = `defineTool(${tool}): output`;
  checkTemplate(where, output);
  const parts = (output as OutputLabels).parts;
  if (parts === undefined) return;
  if (parts === null || typeof parts !== "object" || Array.isArray(parts)) throw new TypeError(`${where}.parts must map path patterns to labels`);
  for (const [pattern, spec] of Object.entries(parts)) {
    if (pattern === "" || !patternSegments(pattern).every((s) => PATH_SEGMENT.test(s))) {
      throw new TypeError(`${where}.parts: ${JSON.stringify(pattern)} is not a dotted path pattern such as "subject" or "*.body"`);
    }
    checkTemplate(`${where}.parts[${JSON.stringify(pattern)}]`, spec);
  }
}

function fieldAt(root: unknown, path: string[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (isLabeled(v)) v = v.value;
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return isLabeled(v) ? v.value : v;
}

/** What a template names: `{args.x}` in the arguments, anything else in `scope`. */
function resolve(name: string, scope: unknown, args: unknown): unknown {
  const path = name.trim().split(".");
  return path[0] === "args" ? fieldAt(args, path.slice(1)) : fieldAt(scope, path);
}

function asText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v)) return v.map(asText).join(",");
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** Characters a filled-in value may have and still go into a source as is. */
const PLAIN_VALUE = /^[A-Za-z0-9_.@+\-/:?=&%#~]+$/;

/**
 * A value filled into a source: data, so it must not pass for the kind or marker a source starts
 * with. It goes in as is only when it is plain and does not start the source; otherwise as a JSON
 * string, which the explanations render quoted.
 */
function asSourceText(text: string, atStart: boolean): string {
  if (!PLAIN_VALUE.test(text)) return JSON.stringify(text);
  // At the start a plain value could be a kind, a call marker or "user"; a URL is none of those.
  return !atStart || /^https?:\/\/[^:]/i.test(text) ? text : JSON.stringify(text);
}

/** Readers are filled in as they are (they are compared with principals); sources are quoted where data could pass for sluice's words. */
function expand(list: readonly string[], scope: unknown, args: unknown, sources = false): string[] {
  const out: string[] = [];
  for (const s of list) {
    const whole = WHOLE_TEMPLATE.exec(s);
    if (whole !== null) {
      const v = resolve(whole[1], scope, args);
      for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined && x !== null && asText(x) !== "") out.push(sources ? asSourceText(asText(x), true) : asText(x));
      continue;
    }
    out.push(s.replace(TEMPLATE, (_m, name: string, at: number) => {
      const text = asText(resolve(name, scope, args));
      return sources ? asSourceText(text, at === 0) : text;
    }));
  }
  return out;
}

function labelFrom(t: LabelTemplate, defaults: { trusted: boolean; sources: readonly string[] }, scope: unknown, args: unknown): Label {
  return Label.of({
    trusted: t.trusted ?? defaults.trusted,
    readers: t.readers === undefined || t.readers === "public" ? "public" : expand(t.readers, scope, args),
    sources: expand(t.sources ?? defaults.sources, scope, args, true),
  });
}

/** The label of a whole result, from its declaration. */
export function declaredLabel(tool: string, output: OutputLabels, result: unknown, args: unknown): Label {
  const scope = result !== null && typeof result === "object" && !Array.isArray(result) ? result : undefined;
  return labelFrom(output, { trusted: false, sources: [tool] }, scope, args);
}

function matches(pattern: readonly string[], path: readonly string[]): boolean {
  return pattern.length === path.length && pattern.every((s, i) => s === "*" || s === path[i]);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);
}

/**
 * The result with every part the declaration names wrapped in `labeled(...)`. Parts the tool
 * labelled itself keep their own labels as well.
 */
export function labelParts(output: OutputLabels, result: unknown, args: unknown): unknown {
  const parts = Object.entries(output.parts ?? {}).map(([p, t]) => ({ pattern: patternSegments(p), template: t }));
  if (parts.length === 0) return result;
  const deepest = Math.max(...parts.map((p) => p.pattern.length));
  const walk = (value: unknown, path: string[], scope: unknown): unknown => {
    if (isLabeled(value)) return labeled(walk(value.value, path, scope), value.label);
    const here = isObject(value) ? value : scope;
    let out: unknown = value;
    if (path.length < deepest) {
      if (Array.isArray(value)) out = value.map((x, i) => walk(x, [...path, String(i)], here));
      else if (isObject(value)) out = Object.fromEntries(Object.entries(value).map(([k, x]) => [k, walk(x, [...path, k], here)]));
    }
    const hits = path.length === 0 ? [] : parts.filter((p) => matches(p.pattern, path));
    for (const hit of hits) out = labeled(out, labelFrom(hit.template, { trusted: true, sources: [] }, here, args));
    return out;
  };
  return walk(result, [], undefined);
}
