// CORS as API Gateway's HTTP API does it when the stack configures CORS_ORIGINS: at the edge,
// for every route, before any Lambda runs. The CDK stack hands these values to API Gateway;
// the local host applies them itself with the functions below. (Hand-written because what we
// need is API Gateway's exact behaviour, not a generic middleware's.)

export const CORS_ALLOW_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'] as const;
// An MCP client in a browser sends mcp-protocol-version on every request after initialize, and,
// from the protocol's 2026-07-28 revision, mcp-method on each and mcp-name on a tools/call
// (Streamable HTTP, "Standard Headers").
export const CORS_ALLOW_HEADERS = [
  'authorization',
  'content-type',
  'prefer',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
] as const;
export const CORS_EXPOSE_HEADERS = [
  'retry-after',
  'x-request-id',
  'www-authenticate',
  'location',
  'content-location',
  'preference-applied',
] as const;
export const CORS_MAX_AGE_SECONDS = 600;

/** Whether an Origin header value is one of the configured origins ("*" allows any). */
export function originAllowed(
  origin: string | undefined,
  origins: readonly string[],
): origin is string {
  return origin !== undefined && (origins.includes('*') || origins.includes(origin));
}

/** Headers added to an actual (non-preflight) response for an allowed origin. */
export function corsResponseHeaders(
  origin: string,
  origins: readonly string[],
): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origins.includes('*') ? '*' : origin,
    'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

/** Headers of the 204 answer to a preflight from an allowed origin. */
export function corsPreflightHeaders(
  origin: string,
  origins: readonly string[],
): Record<string, string> {
  return {
    ...corsResponseHeaders(origin, origins),
    'Access-Control-Allow-Methods': CORS_ALLOW_METHODS.join(', '),
    'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
  };
}
