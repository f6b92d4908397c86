/**
 * Policies of MCP tools. Two checks hold whatever policy a tool has: sending is reading (every
 * argument, and the flow that led to the call, must be readable by the server's principal), and
 * a tool that changed since it was pinned is denied. On top of them: the user's own policy for
 * the tool, else the policy the configuration names, else the MCP default (a sink is allowed
 * only when every argument and the context are trusted, and asks otherwise; read-only tools are
 * allowed).
 */
import { allow, ask, deny, type Decision, type ToolCall } from "../tools/types.js";
import {
  calendarInvitePolicy,
  combineDecisions,
  defaultToolPolicy,
  emailPolicy,
  fileSharePolicy,
  messagePolicy,
  outboundMessagePolicy,
  paymentPolicy,
  runPolicy,
  secrecyText,
  webRequestPolicy,
  type Policy,
} from "../policy/index.js";
import { argumentPaths, contextText, privateText, shapeText, untrustedText } from "../policy/explain.js";
import type { McpPolicyName } from "./types.js";

/**
 * Every argument, and the context, must be readable by `principal`: whatever is sent to a
 * server, read-only or not, that server can read.
 */
export function sendingIsReading(server: string, principal: string): Policy {
  return (call) => {
    const problems = argumentPaths(call)
      .sort()
      .filter((path) => !call.label(path).canBeReadBy(principal))
      .map((path) => privateText(call, path, call.label(path)));
    const shape = call.shape?.();
    if (shape !== undefined && !shape.canBeReadBy(principal)) problems.push(shapeText(shape));
    if (!call.context.canBeReadBy(principal)) problems.push(`whether the call happens depends on ${secrecyText(call.context)} data (${contextText(call.context)})`);
    if (problems.length === 0) return allow();
    return deny(
      `sending to the MCP server ${server} lets ${principal} read what is sent, but ${problems.join("; ")} — ` +
        `add ${JSON.stringify(principal)} to the readers of that data, or give the server a principal that may read it`,
    );
  };
}

/** The default policy of an MCP sink: allowed when every argument and the context are trusted, else ask. */
export function mcpSinkPolicy(): Policy {
  return (call) => {
    const problems = argumentPaths(call)
      .sort()
      .filter((path) => !call.label(path).trusted)
      .map((path) => untrustedText(call, path, call.label(path)));
    const shape = call.shape?.();
    if (shape !== undefined && !shape.trusted) problems.push(shapeText(shape));
    if (!call.context.trusted) problems.push(contextText(call.context));
    if (problems.length === 0) return allow();
    return ask(`${call.tool} is an MCP tool that may change the world, and ${problems.join("; ")}`);
  };
}

const NAMED: Record<McpPolicyName, () => Policy> = {
  default: mcpSinkPolicy,
  strict: () => defaultToolPolicy({ sideEffect: true }),
  ask: () => (call) => ask(`the configuration says to ask before every call of ${call.tool}`),
  deny: () => (call) => deny(`the configuration forbids calls of ${call.tool}`),
  allow: () => () => allow(),
  emailPolicy: () => emailPolicy(),
  messagePolicy: () => messagePolicy(),
  calendarInvitePolicy: () => calendarInvitePolicy(),
  fileSharePolicy: () => fileSharePolicy(),
  paymentPolicy: () => paymentPolicy(),
  webRequestPolicy: () => webRequestPolicy(),
  outboundMessagePolicy: () => outboundMessagePolicy(),
};

/** A ready policy by the name a configuration file gives. */
export function namedPolicy(name: McpPolicyName): Policy {
  return NAMED[name]();
}

/** What decides one MCP tool's calls. */
export interface McpPolicyParts {
  server: string;
  principal: string;
  sink: boolean;
  /** The user's policy from `options.policies`. */
  user?: Policy;
  /** The policy the configuration names. */
  named?: McpPolicyName;
  /** Why the tool is refused right now (changed since pinned, changed mid-run), if it is. */
  refusal: () => string | undefined;
}

/** The policy a sluice tool made from an MCP tool carries: the strictest of its parts. */
export function mcpToolPolicy(parts: McpPolicyParts): Policy {
  const reading = sendingIsReading(parts.server, parts.principal);
  const chosen = parts.user ?? (parts.named !== undefined ? namedPolicy(parts.named) : parts.sink ? mcpSinkPolicy() : () => allow());
  return (call): Decision => {
    const refused = parts.refusal();
    const decisions = [runPolicy(reading, call), runPolicy(chosen, call)];
    if (refused !== undefined) decisions.unshift(deny(refused));
    return combineDecisions(...decisions);
  };
}
