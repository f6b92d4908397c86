/**
 * `sluice mcp list` and `sluice mcp pin`: what sluice makes of the tools of the servers in a
 * configuration (server, sink or not, result label, pinned or changed), and recording them in
 * the lock file after showing a person each description and schema.
 */
import type { McpToolInfo } from "../../mcp/index.js";
import { labelLine } from "../format.js";
import { CliError, EXIT, type CliIo } from "../io.js";
import { openMcp, type McpCliOptions } from "../mcp-tools.js";
import { labelJson } from "../report.js";
import { indent, plural, safe } from "../text.js";

const PIN_WORDS: Record<McpToolInfo["pin"], string> = {
  reviewed: "pinned, reviewed by a person",
  pinned: "pinned automatically, not reviewed",
  new: "new: pinned automatically now, not reviewed",
  changed: "CHANGED since pinned: its calls are denied",
  unpinned: "not pinned",
};

function toolLines(t: McpToolInfo): string {
  const lines = [
    `${safe(t.name)}  (${safe(t.server)}: ${safe(t.tool)})`,
    `  ${t.sink ? "sink: calls are decided by its policy" : "read-only"}`,
    `  result:  ${labelLine(labelJson(t.resultLabel))}`,
    `  pin:     ${PIN_WORDS[t.pin]}`,
    `  planner: ${t.description === "server" ? "sees the server's description" : t.description === "config" ? "sees the configuration's description" : "sees the name and parameter types only"}`,
  ];
  if (t.change !== undefined) lines.push(`  change:  ${safe(t.change)}`);
  for (const flag of t.flags) lines.push(`  FLAG:    ${safe(flag)}`);
  return lines.join("\n");
}

function toolJson(t: McpToolInfo) {
  return { ...t, resultLabel: labelJson(t.resultLabel) };
}

/** `sluice mcp list`. */
export async function mcpList(options: McpCliOptions & { json: boolean }, io: CliIo, cwd: string): Promise<number> {
  const { mcp, pinsPath } = await openMcp({ ...options, record: false }, io, cwd);
  try {
    if (options.json) {
      io.stdout(JSON.stringify({ pins: pinsPath, servers: mcp.servers, tools: mcp.toolInfo.map(toolJson), warnings: mcp.warnings }, null, 2) + "\n");
      return EXIT.completed;
    }
    const out = [`pins: ${safe(pinsPath)}`, ""];
    for (const s of mcp.servers) {
      const who = s.serverInfo === undefined ? "" : `, says it is ${safe(s.serverInfo.name)} ${safe(s.serverInfo.version)}`;
      out.push(`server ${safe(s.name)}: ${s.transport}, ${s.trust}, principal ${safe(s.principal)}, protocol ${s.protocolVersion ?? "?"}${who}`);
    }
    out.push("", `${plural(mcp.toolInfo.length, "tool")}:`, "");
    for (const t of mcp.toolInfo) out.push(toolLines(t), "");
    io.stdout(out.join("\n"));
    return EXIT.completed;
  } finally {
    await mcp.close();
  }
}

function schemaText(x: unknown): string {
  return safe(JSON.stringify(x, null, 2), true);
}

/** `sluice mcp pin [TOOL...]`: shows each tool, then records it in the lock file as reviewed. */
export async function mcpPin(options: McpCliOptions & { tools: string[]; json: boolean }, io: CliIo, cwd: string): Promise<number> {
  const { mcp, pinsPath } = await openMcp({ ...options, record: false }, io, cwd);
  try {
    const unknown = options.tools.filter((n) => !mcp.toolInfo.some((t) => t.name === n));
    if (unknown.length > 0) throw new CliError(`no tool is called ${unknown.join(", ")}; \`sluice mcp list\` shows the tools`, EXIT.usage);
    const chosen = options.tools.length === 0 ? mcp.toolInfo : mcp.toolInfo.filter((t) => options.tools.includes(t.name));
    await mcp.pin(chosen.map((t) => t.name));
    if (options.json) {
      io.stdout(JSON.stringify({ pins: pinsPath, pinned: chosen.map(toolJson) }, null, 2) + "\n");
      return EXIT.completed;
    }
    const out: string[] = [];
    for (const t of chosen) {
      out.push(`── ${safe(t.name)} (${safe(t.server)}: ${safe(t.tool)}) `.padEnd(72, "─"));
      if (t.change !== undefined) out.push(`CHANGED since it was last pinned: ${safe(t.change)}`);
      for (const flag of t.flags) out.push(`FLAG: ${safe(flag)}`);
      out.push("description:", indent(safe(t.listed.description || "(none)", true), "  "));
      out.push("input schema:", indent(schemaText(t.listed.inputSchema), "  "));
      if (t.listed.outputSchema !== undefined) out.push("output schema:", indent(schemaText(t.listed.outputSchema), "  "));
      if (t.listed.annotations !== undefined) out.push("annotations:", indent(schemaText(t.listed.annotations), "  "));
      out.push("");
    }
    out.push(`pinned ${plural(chosen.length, "tool")} in ${safe(pinsPath)}, as reviewed: the planner now sees these descriptions, and any later change is refused until pinned again.`);
    io.stdout(out.join("\n") + "\n");
    return EXIT.completed;
  } finally {
    await mcp.close();
  }
}
