// Redirect URIs: which a client may register, and whether an authorization request's is one of
// them. OAuth 2.1 (8.4.2) and RFC 8252 (7.3): https anywhere, or http on this machine's loopback
// address (a native app's local listener); nothing else (no custom schemes, no fragments, no
// credentials). Matching is exact, string for string, except that a loopback redirect URI may
// name any port, since a native app gets a free port from its system each time it listens.
import { isLoopbackHost } from '../../http/headers/origin';

/** The longest redirect URI accepted (browsers and proxies cut longer URLs). */
export const MAX_REDIRECT_URI_LENGTH = 2_000;
/** The most redirect URIs one client registers. */
export const MAX_REDIRECT_URIS = 10;

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(value: string): string | undefined {
  if (value.length > MAX_REDIRECT_URI_LENGTH) {
    return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash !== '' || value.includes('#')) return 'must not have a fragment';
  if (url.username !== '' || url.password !== '') return 'must not hold credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'must be https, or http on a loopback address (127.0.0.1, [::1] or localhost)';
}

/** The URI without its port when it is a loopback one (what a loopback match compares). */
function loopbackWithoutPort(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) return undefined;
    url.port = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * Whether `requested` is one of `registered`: the very same string, or for a loopback http URI
 * the same one on another port.
 */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const loose = loopbackWithoutPort(requested);
  return loose !== undefined && registered.some((uri) => loopbackWithoutPort(uri) === loose);
}

/** The host a person is told they will be sent back to (with its port, if any). */
export function redirectHost(uri: string): string {
  return new URL(uri).host;
}

/**
 * The redirect URI with OAuth's answer added to its query (RFC 6749 4.1.2): the query it was
 * registered with stays, and `state` comes back exactly as the client sent it.
 */
export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}
