/**
 * `node --import` hook for test/tracing/without-otel.test.ts: `@opentelemetry/api` cannot be
 * loaded from anywhere outside node_modules (sluice's own code), by `require` or by `import`,
 * as where a package manager does not hoist the Anthropic SDK's copy (pnpm). Packages in
 * node_modules still find it, so the SDK, which depends on it, loads as it would there.
 */
import Module, { register } from "node:module";

const HIDDEN = /^@opentelemetry\/api(\/|$)/;
const outsidePackages = (from) => typeof from === "string" && !from.includes("/node_modules/");
const notFound = (specifier) => Object.assign(new Error(`Cannot find module '${specifier}' (hidden by hide-otel.mjs)`), { code: "MODULE_NOT_FOUND" });

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (HIDDEN.test(request) && outsidePackages(parent?.filename)) throw notFound(request);
  return resolveFilename.call(this, request, parent, ...rest);
};

register(
  "data:text/javascript," +
    encodeURIComponent(`
      const HIDDEN = ${HIDDEN};
      export async function resolve(specifier, context, next) {
        if (HIDDEN.test(specifier) && context.parentURL !== undefined && !context.parentURL.includes("/node_modules/")) {
          throw Object.assign(new Error("Cannot find module '" + specifier + "' (hidden by hide-otel.mjs)"), { code: "ERR_MODULE_NOT_FOUND" });
        }
        return next(specifier, context);
      }
    `),
);
