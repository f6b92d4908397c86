/**
 * Sluice names of MCP tools: `<server>_<tool>` with every character outside `[A-Za-z0-9_]`
 * replaced by `_`. Different tools can end up with one name after that; such collisions are
 * found here, and neither tool is offered, so no server can take another's name.
 */

/** The name programs call a server's tool by. */
export function sluiceToolName(server: string, tool: string): string {
  return `${server}_${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
}

/** A tool to be named: its server and its name there. */
export interface NamedTool {
  server: string;
  tool: string;
}

/** Names every tool; tools whose names collide are left out, with a warning each. */
export function nameTools<T extends NamedTool>(tools: readonly T[]): { named: Map<string, T>; warnings: string[] } {
  const groups = new Map<string, T[]>();
  for (const t of tools) {
    const name = sluiceToolName(t.server, t.tool);
    groups.set(name, [...(groups.get(name) ?? []), t]);
  }
  const named = new Map<string, T>();
  const warnings: string[] = [];
  for (const [name, group] of groups) {
    if (group.length === 1) named.set(name, group[0]);
    else {
      const who = group.map((t) => `"${t.tool}" of server ${t.server}`).join(" and ");
      warnings.push(`${who} would both be called ${name}; neither is offered (rename a server in the configuration to tell them apart)`);
    }
  }
  return { named, warnings };
}
