/** Tools for tests: a source of untrusted data, a source of secret data, a trusted source and a sink. */
import { Label, defineTool, labeled, createRuntime, type ExtendedRuntimeOptions } from "../../src/index.js";

/** Untrusted, public data from a stranger. */
export function untrustedSource(data: unknown, name = "read_untrusted") {
  return defineTool({
    name,
    description: "Reads data written by a stranger.",
    parameters: { type: "object", properties: {} },
    label: () => Label.untrusted("email:eve@evil.com"),
    run: () => structuredClone(data),
  });
}

/** Trusted data readable only by alice. */
export function secretSource(data: unknown, name = "read_secret") {
  return defineTool({
    name,
    description: "Reads alice's private data.",
    parameters: { type: "object", properties: {} },
    label: () => Label.of({ trusted: true, readers: ["alice"], sources: ["file:secret.txt"] }),
    run: () => structuredClone(data),
  });
}

/** Trusted, public data. */
export function trustedSource(data: unknown, name = "read_trusted") {
  return defineTool({
    name,
    description: "Reads the user's own settings.",
    parameters: { type: "object", properties: {} },
    label: () => Label.trusted(),
    run: () => structuredClone(data),
  });
}

/** A list whose items carry their own labels: item i is untrusted when `bad` includes i. */
export function mixedList(items: unknown[], bad: number[], name = "read_list") {
  return defineTool({
    name,
    description: "Lists items, each labelled with its author.",
    parameters: { type: "object", properties: {} },
    label: () => Label.trusted(),
    run: () => items.map((it, i) => labeled(structuredClone(it), bad.includes(i) ? Label.untrusted(`author${i}`) : Label.trusted())),
  });
}

/** A side-effecting sink with the default policy; records what reached it. */
export function sink(name = "send", seen: unknown[] = []) {
  return defineTool({
    name,
    description: "Sends a message.",
    parameters: { type: "object", properties: { value: {} } },
    sideEffect: true,
    run: (args: Record<string, unknown>) => {
      seen.push(args.value);
      return { ok: true };
    },
  });
}

/** Runs `source` with the given tools; returns the run result. */
export async function runWith(source: string, tools: ReturnType<typeof defineTool<any, any>>[], options: ExtendedRuntimeOptions = {}) {
  return createRuntime({ tools, ...options }).run(source);
}

/** A side-effecting sink that publishes to everyone: a person is asked unless arguments and context are public and trusted. */
export function publicSink(name = "publish") {
  return defineTool({
    name,
    description: "Publishes a value to everyone.",
    parameters: { type: "object", properties: { value: {} } },
    sideEffect: true,
    policy: (call) => {
      const l = call.label();
      if (!l.isPublic || !call.context.isPublic) return { kind: "ask", reason: "private data would be published" };
      if (!l.trusted || !call.context.trusted) return { kind: "ask", reason: "untrusted data would be published" };
      return { kind: "allow" };
    },
    run: () => ({ ok: true }),
  });
}

/** A sink that allows trusted, public flows and asks a person about anything else. */
export function askingSink(name = "send", seen: unknown[] = []) {
  return defineTool({
    name,
    description: "Sends a message.",
    parameters: { type: "object", properties: { value: {} } },
    sideEffect: true,
    policy: (call) => {
      const l = call.label();
      if (l.trusted && l.isPublic && call.context.trusted && call.context.isPublic) return { kind: "allow" };
      return { kind: "ask", reason: "tainted flow" };
    },
    run: (args: Record<string, unknown>) => {
      seen.push(args.value);
      return { ok: true };
    },
  });
}
