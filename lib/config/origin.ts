// The rules of the service's own origin that configuration, OAuth and the HTTP layer share: which
// hosts are this machine (served over http; anywhere else an origin is https, as OAuth 2.1 asks),
// and the /mcp resource an origin's tokens are for. Pure, so that configuration can check
// PUBLIC_URL with them without importing the HTTP layer.

/**
 * Whether a URL's hostname (as `new URL()` normalises it: `127.1` is `127.0.0.1`, IPv6 is
 * compressed) is this machine: localhost, 127.0.0.0/8 or [::1]. Without ipaddr.js, which every
 * function with a protected route would bundle.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The MCP endpoint of an origin: the resource OAuth access tokens are for (RFC 8707). */
export const mcpResource = (origin: string): string => `${origin}/mcp`;
