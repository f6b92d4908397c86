// Module resolve hook: `fs` / `node:fs` imported from the conformance package resolves to fs.mjs.
const shim = new URL("./fs.mjs", import.meta.url).href;

export async function resolve(specifier, context, next) {
  const fromSuite = context.parentURL?.includes("/@modelcontextprotocol/conformance/") === true;
  if (fromSuite && (specifier === "fs" || specifier === "node:fs")) return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
