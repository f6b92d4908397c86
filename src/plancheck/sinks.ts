/**
 * A tool call against what its policy requires: each requirement that the call's abstract
 * arguments and context break in every run becomes a finding. Arguments are followed only
 * where the program wrote them (an object literal), so the check knows which exist.
 */
import type * as acorn from "acorn";
import type { Requirement } from "../policy/index.js";
import { NOTHING, type Fact } from "./facts.js";
import type { Analysis, RawFinding, ToolModel, ViaStep } from "./state.js";
import { literalStrings, type Abs } from "./values.js";

/** The argument at a dotted path, when the program wrote it; undefined when it cannot tell. */
function argumentAt(args: Abs | undefined, path: string): Abs | undefined {
  let v = args;
  for (const key of path.split(".")) {
    if (v === undefined) return undefined;
    if (v.props !== undefined && v.props.has(key)) v = v.props.get(key);
    else if (v.items !== undefined && /^\d+$/.test(key) && Number(key) < v.items.length) v = v.items[Number(key)];
    else return undefined;
  }
  return v;
}

/** The principals named at `path`: only constants the program wrote count. */
function principalsAt(args: Abs | undefined, path: string): string[] | undefined {
  const v = argumentAt(args, path);
  if (v === undefined || !v.defined) return undefined;
  const names = literalStrings(v);
  return names?.flatMap((s) => s.split(/[,;]/).map((x) => x.trim()).filter((x) => x !== ""));
}

interface Broken {
  argument?: string;
  fact: Fact;
  missing?: string[];
}

function check(q: Requirement, args: Abs | undefined, context: Fact): Broken[] {
  switch (q.kind) {
    case "trusted": {
      const v = argumentAt(args, q.path);
      return v !== undefined && v.deep.untrusted ? [{ argument: q.path, fact: v.deep }] : [];
    }
    case "public": {
      const v = argumentAt(args, q.path);
      return v !== undefined && v.deep.private ? [{ argument: q.path, fact: v.deep }] : [];
    }
    case "trustedIfPrivate": {
      const v = argumentAt(args, q.path);
      return v !== undefined && v.deep.private && v.deep.untrusted ? [{ argument: q.path, fact: v.deep }] : [];
    }
    case "readableBy": {
      const v = argumentAt(args, q.path);
      if (v === undefined || !v.defined || !v.deep.private || v.deep.within === undefined) return [];
      const within = v.deep.within;
      const named = q.principalsFrom.flatMap((p) => principalsAt(args, p) ?? []);
      const missing = [...new Set([...q.principals, ...named])].filter((p) => !within.has(p.toLowerCase()));
      return missing.length > 0 ? [{ argument: q.path, fact: v.deep, missing }] : [];
    }
    case "trustedContext":
      return context.untrusted ? [{ fact: context }] : [];
    case "everyArgumentTrusted": {
      const out: Broken[] = [];
      for (const [key, v] of args?.props ?? []) if (v.defined && v.deep.untrusted) out.push({ argument: key, fact: v.deep });
      if (context.untrusted) out.push({ fact: context });
      return out;
    }
    case "privateToUntrustedUrl": {
      const url = argumentAt(args, q.url);
      if (url === undefined || !url.defined || !url.deep.untrusted) return [];
      const carried = q.content.map((p) => ({ p, v: argumentAt(args, p) })).find(({ v }) => v !== undefined && v.defined && v.deep.private);
      return carried === undefined ? [] : [{ argument: q.url, fact: url.deep }];
    }
  }
}

const STRICTER = { deny: 2, ask: 1 } as const;

/** Records, for one call, every requirement broken whatever the data: the strictest per argument. */
export function checkSink(a: Analysis, node: acorn.CallExpression, tool: ToolModel, args: Abs | undefined, context: Fact, via: readonly ViaStep[]): void {
  if (a.findings.some((f) => f.node === node)) return;
  const found = new Map<string, RawFinding>();
  for (const q of tool.requirements) {
    for (const b of check(q, args, context ?? NOTHING)) {
      const key = b.argument ?? "";
      const prev = found.get(key);
      if (prev !== undefined && STRICTER[prev.effect] >= STRICTER[q.effect]) continue;
      found.set(key, { node, tool: tool.name, effect: q.effect, ...(b.argument === undefined ? {} : { argument: b.argument }), requirement: q, fact: b.fact, ...(b.missing ? { missing: b.missing } : {}), via });
    }
  }
  a.findings.push(...found.values());
}
