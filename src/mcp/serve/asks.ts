/**
 * Asks as MCP elicitation: the form a person sees for one call a policy asks about, whether
 * the client can show forms at all, and what the person answered.
 */
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type ServerContext } from "@modelcontextprotocol/server";
import type { ApprovalRequest } from "../../runtime/index.js";

/** Longest text of one argument in the form; the record keeps the whole value. */
const ARG_PREVIEW = 400;
/** Longest message of one form. */
const MESSAGE_LIMIT = 4000;

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > ARG_PREVIEW ? `${text.slice(0, ARG_PREVIEW - 1)}…` : text;
}

/** The question put to the person: the call with its arguments, and why the policy asks. */
export function askMessage(request: ApprovalRequest): string {
  const args = Object.entries(request.args).map(([k, v]) => `  ${k}: ${preview(v)}`);
  const lines = [
    `A plan run by sluice wants to call ${request.tool}${args.length === 0 ? " with no arguments" : " with"}:`,
    ...args,
    "",
    `Why you are asked: ${request.reason}`,
    ...(request.context === undefined ? [] : [`Control flow: ${request.context}`]),
    "",
    "Allow this call?",
  ];
  const text = lines.join("\n");
  return text.length > MESSAGE_LIMIT ? `${text.slice(0, MESSAGE_LIMIT - 1)}…` : text;
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
