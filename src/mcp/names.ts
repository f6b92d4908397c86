/**
 * Sluice names of MCP tools: `<server>_<tool>` with every character outside `[A-Za-z0-9_]`
 * replaced by `_`. Different tools can end up with one name after that; such collisions are
 * found here, and no server can take another's name: when one trusted server's tool collides
 * with untrusted ones, the trusted one keeps the name (an untrusted server cannot switch a
 * trusted tool off by picking a colliding name); otherwise none of them is offered.
 */

/** The name programs call a server's tool by. */
export function sluiceToolName(server: string, tool: string): string {
  return `${server}_${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
}

/** A tool to be named: its server and its name there. */
export interface NamedTool {
  server: string;
  tool: string;
  /** Whether its server is trusted. */
  trusted?: boolean;
}

/** Names every tool; tools whose names collide are left out, with a warning each. */
export function nameTools<T extends NamedTool>(tools: readonly T[]): { named: Map<string, T>; warnings: string[] } {
  const groups = new Map<string, T[]>();
  for (const t of tools) {
    const name = sluiceToolName(t.server, t.tool);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [t]);
    else group.push(t);
  }
  const named = new Map<string, T>();
  const warnings: string[] = [];
  for (const [name, group] of groups) {
    if (group.length === 1) {
      named.set(name, group[0]);
      continue;
    }
    const trusted = group.filter((t) => t.trusted === true);
    const who = (ts: readonly T[]) => ts.map((t) => `"${t.tool}" of server ${t.server}`).join(" and ");
    if (trusted.length === 1) {
      named.set(name, trusted[0]);
      warnings.push(`${who(group.filter((t) => t !== trusted[0]))} would be called ${name} like "${trusted[0].tool}" of the trusted server ${trusted[0].server}, which keeps the name; the other is not offered (rename a server in the configuration to tell them apart)`);
    } else {
      const [all, none] = group.length === 2 ? ["both", "neither"] : ["all", "none"];
      warnings.push(`${who(group)} would ${all} be called ${name}; ${none} is offered (rename a server in the configuration to tell them apart)`);
    }
  }
  return { named, warnings };
}
