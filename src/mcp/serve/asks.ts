/**
 * Asks as MCP elicitation: the form a person sees for one call a policy asks about, whether
 * the client can show forms at all, and what the person answered.
 */
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type ServerContext } from "@modelcontextprotocol/server";
import { Label } from "../../labels/index.js";
import { formatApproval, type ArgumentProvenance } from "../../policy/index.js";
import type { ApprovalRequest } from "../../runtime/index.js";

/**
 * Longest form message. Flagged values are never cut (the person must see every recipient they
 * approve), so a longer form is not shown at all: it says so, and the person can decline.
 */
const MESSAGE_LIMIT = 100_000;

/** Every top-level argument, for a request that came without the runtime's provenance. */
function plainProvenance(request: ApprovalRequest): ArgumentProvenance[] {
  return Object.keys(request.args).map((path) => ({ path, label: Label.trusted(), explanation: "" }));
}

/**
 * The question put to the person: the call as the permission engine's own approval text puts it
 * (policy/decide.ts formatApproval: each value whole, lists element by element, data on one line),
 * between sluice's fixed opening and closing lines.
 */
export function askMessage(request: ApprovalRequest): string {
  const body = formatApproval({
    tool: request.tool,
    args: request.args,
    reason: request.reason,
    provenance: request.provenance === undefined ? plainProvenance(request) : (request.provenance as ArgumentProvenance[]),
    context: request.context ?? "the plan's own control flow",
  });
  const open = "A plan run by sluice wants to make this call:";
  const close = "Allow this call?";
  if (body.length > MESSAGE_LIMIT) {
    return [open, `  ${request.tool}, with arguments too long to show here (${body.length} characters).`, "Decline unless you can check them another way.", "", close].join("\n");
  }
  return [open, body, "", close].join("\n");
}

/** The form of one ask: a single box, unticked unless the person ticks it. */
export function askRequest(request: ApprovalRequest) {
  return inputRequired.elicit({
    message: askMessage(request),
    requestedSchema: {
      type: "object",
      properties: {
        approve: { type: "boolean", title: `Allow ${request.tool}`, description: "Tick to let this one call go ahead.", default: false },
      },
      required: ["approve"],
    },
  });
}

/** The client's capabilities: on revision 2026-07-28 the request's own; on older revisions, those it declared when it connected. */
function capabilitiesOf(ctx: ServerContext, declared: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope === undefined ? declared : (envelope[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined);
}

/** True when the client offers sampling (its model can answer a server's request), as {@link clientCanAsk} reads capabilities. */
export function clientCanSample(ctx: ServerContext, declared: Record<string, unknown> | undefined): boolean {
  const sampling = capabilitiesOf(ctx, declared)?.sampling;
  return typeof sampling === "object" && sampling !== null;
}

/**
 * True when the client can show a form to a person: on revision 2026-07-28 the request's own
 * capabilities say so; on older revisions, those it declared when it connected.
 */
export function clientCanAsk(ctx: ServerContext, declared: Record<string, unknown> | undefined): boolean {
  const elicitation = capabilitiesOf(ctx, declared)?.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined || elicitation === null || typeof elicitation !== "object") return false;
  // An empty `elicitation: {}` means form mode (the revision that added modes says so).
  return Object.keys(elicitation).length === 0 || "form" in elicitation;
}

/**
 * The person's answer to one form: true only when they accepted it with the box ticked;
 * declining, cancelling, or an answer of another kind is a no. `undefined` when the retry
 * carries no answer for it (the client SHOULD be asked again, SEP-2322).
 */
export function approvedIn(responses: Record<string, unknown> | undefined, key: string): boolean | undefined {
  const view = inputResponse(responses, key);
  if (view.kind === "missing") return undefined;
  if (view.kind !== "elicit" || view.action !== "accept") return false;
  return (view.content as Record<string, unknown> | undefined)?.approve === true;
}
