/**
 * Tools and a quarantined model for property tests: sources that return given data with a given
 * label, a list whose items carry their own labels, sinks that let only clean flows through
 * without asking, and a reader that obeys whatever its prompt says (so its answers depend on
 * everything it read, as an attacker's would).
 */
import { Label, labeled } from "../labels/index.js";
import { defineTool, type JsonSchema, type Tool } from "../tools/types.js";
import type { QuarantinedModel } from "../runtime/types.js";

/** A read-only tool returning a copy of `data`, labelled `label`. */
export function recordSource(name: string, data: unknown, label: Label): Tool {
  return defineTool({
    name,
    description: `Reads ${name.replace(/^read_/, "")} data.`,
    parameters: { type: "object", properties: {} },
    label: () => label,
    // An in-memory source: whether it fails is its own business, labelled as its data is.
    failureLabel: label,
    run: () => structuredClone(data),
  });
}

/** A read-only tool returning a list whose items carry their own labels (the container is trusted). */
export function labeledListSource(name: string, items: ReadonlyArray<{ value: unknown; label: Label }>): Tool {
  return defineTool({
    name,
    description: "Lists items, each labelled with its author.",
    parameters: { type: "object", properties: {} },
    label: () => Label.trusted(),
    run: () => items.map((it) => labeled(structuredClone(it.value), it.label)),
  });
}

/**
 * What a sink guards: "integrity" asks about untrusted flows, "confidentiality" about private
 * ones, "both" about either. A sink that guards only what a property varies lets everything
 * else through, so a leak of the varying part is not hidden behind an ask the other part caused.
 */
export type Guard = "integrity" | "confidentiality" | "both";

function clean(l: Label, guard: Guard): boolean {
  return (guard === "confidentiality" || l.trusted) && (guard === "integrity" || l.isPublic);
}

/**
 * A side-effecting sink that allows a call only when every argument and the context are clean
 * for `guard` (default: trusted and public), and asks a person about anything else. `seen`
 * collects the arguments of calls that ran.
 */
export function strictSink(name: string, seen: unknown[] = [], guard: Guard = "both"): Tool {
  return defineTool({
    name,
    description: `Sends data out (${name}).`,
    parameters: { type: "object" },
    sideEffect: true,
    policy: (call) => {
      const l = call.label();
      if (clean(l, guard) && clean(call.context, guard)) return { kind: "allow" };
      return { kind: "ask", reason: `${l.trusted && call.context.trusted ? "private" : "untrusted"} data would reach ${name}` };
    },
    run: (args: Record<string, unknown>) => {
      seen.push(structuredClone(args));
      return { ok: true };
    },
  });
}

function hash(text: string): number {
  let h = 7;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}

/**
 * The answer an obedient reader gives: every part of it is computed from the prompt, as if the
 * text it read told it what to say. Deterministic, so two runs with the same prompt agree.
 */
export function obedientAnswer(prompt: string, schema: JsonSchema): unknown {
  const h = hash(prompt);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[h % schema.enum.length];
  switch (schema.type) {
    case "number":
    case "integer":
      return h % 7;
    case "boolean":
      return h % 2 === 1;
    case "string":
      return prompt.slice(-12);
    case "array":
      return schema.items && typeof schema.items === "object" ? [obedientAnswer(prompt, schema.items as JsonSchema)] : [];
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(props).map(([k, s]) => [k, obedientAnswer(`${prompt}/${k}`, s)]));
    }
    default:
      return null;
  }
}

/** A quarantined model that answers with {@link obedientAnswer}. */
export function obedientReader(): QuarantinedModel {
  return { query: async ({ prompt, schema }) => obedientAnswer(prompt, schema) };
}
