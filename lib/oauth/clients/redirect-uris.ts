// Redirect URIs: which a client may register, and whether an authorization request's is one of
// them. Three kinds, as the hosts people use register them:
// - https anywhere (claude.ai, chatgpt.com, https://vscode.dev/redirect, Cursor's web callback);
// - http on this machine's loopback address, any port (RFC 8252 7.3: a native app's listener gets
//   a free port each time; Claude Code, VS Code's http://127.0.0.1:33418, Cursor's localhost);
// - a native app's private-use scheme (RFC 8252 7.1): a reverse-domain one (com.example.app:),
//   or one of the single-word schemes MCP hosts really register (cursor://anysphere.cursor-mcp/...,
//   makeplane/plane-mcp-server #159). The MCP authorization specification (2025-11-25,
//   Communication Security) says https or localhost only; refusing these leaves Cursor unable to
//   connect, and its codes are bound by PKCE as any other (RFC 8252 8.1), so they are taken.
// Never a scheme a browser or the system runs, reads or sends elsewhere (javascript:, data:,
// file:, blob:, ws:, ftp:, ...), plain http off loopback, a fragment, credentials, or anything
// but printable ASCII: whitespace is refused, never trimmed (a URI registered as " https://..."
// would be a second spelling of another). Matching is exact, string for string, except the port
// of a loopback URI.
import { isLoopbackHost } from '../../config/origin';

/** The longest redirect URI accepted (browsers and proxies cut longer URLs). */
export const MAX_REDIRECT_URI_LENGTH = 2_000;
/** The most redirect URIs one client registers. */
export const MAX_REDIRECT_URIS = 10;

/**
 * Single-word private-use schemes of MCP hosts' desktop apps. RFC 8252 7.1 asks for reverse-domain
 * schemes, which are taken whatever their name; these predate it and are taken by name only.
 */
export const APP_SCHEMES: readonly string[] = ['cursor:', 'vscode:', 'vscode-insiders:'];

/**
 * Schemes that are never a redirect URI, whatever else is true of them: the browser runs or reads
 * them (javascript:, data:, blob:, file:, about:), or they reach a server by other means than an
 * app's callback (ws:, ftp:, mailto:). None has a dot, so the reverse-domain rule never takes one;
 * the list says so explicitly, for readers and for a scheme someone adds to APP_SCHEMES.
 */
const NEVER_SCHEMES = new Set([
  'javascript:',
  'vbscript:',
  'data:',
  'blob:',
  'file:',
  'filesystem:',
  'about:',
  'view-source:',
  'ws:',
  'wss:',
  'ftp:',
  'mailto:',
  'tel:',
  'sms:',
]);

/** Anything but printable ASCII: whitespace, control, format and non-ASCII characters. */
const NOT_PRINTABLE_ASCII = /[^\x21-\x7e]/;
/** Whitespace and control characters, told apart from the rest for a clearer answer. */
const SPACE_OR_CONTROL = /[\s\p{Cc}]/u;

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(value: string): string | undefined {
  if (value.length > MAX_REDIRECT_URI_LENGTH) {
    return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  }
  if (SPACE_OR_CONTROL.test(value)) return 'must not contain whitespace or control characters';
  if (NOT_PRINTABLE_ASCII.test(value)) return 'must be ASCII (percent-encode other characters)';
  // Parsers disagree on a backslash (WHATWG reads it as "/" in http URLs, RFC 3986 refuses it).
  if (value.includes('\\')) return 'must not contain a backslash';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash !== '' || value.includes('#')) return 'must not have a fragment';
  if (url.username !== '' || url.password !== '') return 'must not hold credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname)
      ? undefined
      : 'must be https: http only on a loopback address (127.0.0.1, [::1] or localhost)';
  }
  const scheme = url.protocol.slice(0, 40);
  if (NEVER_SCHEMES.has(url.protocol)) return `uses ${scheme}, which is never a redirect URI`;
  if (!isAppScheme(url.protocol)) {
    return `uses ${scheme}, which is not https, loopback http or an app's own scheme (reverse-domain, such as com.example.app:, or ${APP_SCHEMES.join(' ')})`;
  }
  if (url.host === '' && url.pathname === '') return 'names no path for the app to receive';
  return undefined;
}

/** A private-use scheme: reverse-domain (it has a dot, RFC 8252 7.1), or a known app's. */
const isAppScheme = (protocol: string): boolean =>
  APP_SCHEMES.includes(protocol) || protocol.includes('.');

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

/**
 * Where a person is told they will be sent back (the consent screen's "Your answer sends you to
 * …"): the host, with its port if any, of an http(s) URI; for an app's private-use scheme, the
 * scheme itself, which is what decides where the answer goes (whatever app on the device claims
 * it), never the host part the client chose (`cursor://claude.ai/...` is not claude.ai).
 */
export function redirectHost(uri: string): string {
  const url = new URL(uri);
  if (url.protocol === 'https:' || url.protocol === 'http:') return url.host;
  return `${url.protocol} (an app on this device)`;
}

/**
 * The redirect URI with OAuth's answer added to its query (RFC 6749 4.1.2): the query it was
 * registered with stays, and `state` comes back exactly as the client sent it. The same for an
 * app's scheme: WHATWG URL keeps a non-special URL's host and path as written and sets its query
 * alike (`cursor://anysphere.cursor-mcp/oauth/callback?code=…&state=…`).
 */
export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}
