// The service's own origin, as OAuth names it (the issuer, and the /mcp resource its tokens are
// for): PUBLIC_URL when set, else the origin the request came to. API Gateway gives the domain
// the request reached (its own or a custom domain; a client cannot choose it); the local host
// gives the request's Host. Only a loopback host is served over http: anywhere else the origin
// is https, as OAuth 2.1 asks (a machine reached by its LAN name needs a TLS proxy and PUBLIC_URL).
// The same own origin is what a browser's Origin is checked against (isAllowedOrigin).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Config } from '../../config';
import { isLoopbackHost } from '../../config/origin';

/** `https://host` (or `http://host` on loopback) of the request; PUBLIC_URL when set. */
export function requestOrigin(
  config: Pick<Config, 'PUBLIC_URL'>,
  event: Pick<APIGatewayProxyEventV2, 'requestContext' | 'headers'>,
): string {
  if (config.PUBLIC_URL !== undefined) return new URL(config.PUBLIC_URL).origin;
  const host = event.requestContext?.domainName ?? event.headers?.host ?? 'localhost';
  let parsed: URL;
  try {
    parsed = new URL(`http://${host}`);
  } catch {
    // A Host header that is no host at all: nothing of ours is there.
    return 'https://invalid.invalid';
  }
  const scheme = isLoopbackHost(parsed.hostname) ? 'http' : 'https';
  // As URL serialises an origin (no default port: `host:443` over https is `host`), so that the
  // issuer named in the metadata and in authorization responses (RFC 9207) is one string.
  return new URL(`${scheme}://${parsed.host}`).origin;
}

/**
 * The one rule for a browser's `Origin` where a route checks it: none (not a browser, which
 * always names the origin of a POST), the deployment's own origin (requestOrigin), or one of
 * `allowed`. `null` (a sandboxed frame, a file, a redirect from elsewhere) is none of these.
 * Locally, DNS rebinding cannot pass for the own origin: the attacker's page is at
 * http://<their name>:<port>, whose Host makes the own origin https://<their name>:<port>.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  own: string,
  allowed: readonly string[],
): boolean {
  return origin === undefined || origin === own || allowed.includes(origin);
}
