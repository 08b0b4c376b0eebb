// Stands in for `ajv` and `ajv-formats` in the Lambda bundles: infra/bundling.ts aliases both
// packages to this file. The MCP SDK's low-level Server imports its Ajv validator statically
// (server/index.js) and makes one unless it is given a validator of its own, so tree shaking
// cannot drop it, and the SDK's package.json offers no export condition or `browser` field that
// would. The Server checks JSON Schemas only for elicitation, which tubesum never uses, and
// lib/mcp/endpoint.ts gives it a validator of its own; without the alias, /mcp's cold start would
// load ~130 KB of Ajv, its formats and fast-uri that nothing calls. The local host's build
// (infra/local/start.mjs) has no such alias and bundles the real packages.

/** Both packages' default export (`new Ajv(...)`, `addFormats(ajv)`): fails loudly if called. */
export default function ajvLeftOut(): never {
  throw new Error(
    'Ajv is left out of the Lambda bundles (lib/mcp/ajv-left-out.ts): give the MCP Server a jsonSchemaValidator of its own',
  );
}
