// The OAuth flow over HTTP, step by step, as an MCP client and the page drive it: register a
// client, send the person to /oauth/authorize, answer on their behalf (the page's own calls,
// with their login token), exchange the code. Each step returns the raw answer too, so a test
// can break any one of them.
import { createHash, randomBytes } from 'node:crypto';
import type { TestHost, TestResponse } from './host';

/** The redirect URI the tests' clients register (nothing listens there: it is only compared). */
export const REDIRECT_URI = 'http://127.0.0.1:5555/callback';

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** POST /oauth/register with a client's metadata; its client_id. */
export async function registerClient(
  host: TestHost,
  metadata: Record<string, unknown> = {},
): Promise<string> {
  const response = await host.request('POST', '/oauth/register', {
    json: { client_name: 'Test agent', redirect_uris: [REDIRECT_URI], ...metadata },
  });
  if (response.status !== 201) throw new Error(`registration answered ${response.status}`);
  return response.body.client_id as string;
}

/** GET /oauth/authorize with these parameters (undefined ones left out); not followed. */
export function authorizeRequest(
  host: TestHost,
  params: Record<string, string | undefined>,
): Promise<TestResponse> {
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return host.request('GET', `/oauth/authorize?${query}`);
}

/** The usual parameters of a client's authorization request. */
export function authorizationParams(
  host: TestHost,
  clientId: string,
  challenge: string,
  more: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    resource: `${host.url}/mcp`,
    ...more,
  };
}

/**
 * Where the authorization endpoint's page forwards the browser (its meta refresh; the link says
 * the same), or undefined for any other answer.
 */
export function forwardedTo(response: TestResponse): URL | undefined {
  const refresh = /<meta http-equiv="refresh" content="0; url=([^"]+)">/.exec(response.text)?.[1];
  const link = /<a href="([^"]+)">/.exec(response.text)?.[1];
  if (response.status !== 200 || !refresh || refresh !== link) return undefined;
  return new URL(refresh.replaceAll('&amp;', '&'));
}

/** The pending request's id the page is sent to (`/?authorize=<id>`). */
export function requestIdOf(response: TestResponse): string {
  const id = forwardedTo(response)?.searchParams.get('authorize');
  if (!id) throw new Error(`not sent to the page: ${response.status} ${response.text}`);
  return id;
}

/** The page's answer (Allow or Deny), with the person's login token, from the page's origin. */
export function answer(
  host: TestHost,
  id: string,
  token: string,
  decision: 'allow' | 'deny',
  origin = host.url,
): Promise<TestResponse> {
  return host.request('POST', `/oauth/requests/${id}`, {
    json: { decision },
    token,
    headers: { origin },
  });
}

/** POST /oauth/token with a form. */
export function tokenRequest(host: TestHost, form: Record<string, string>): Promise<TestResponse> {
  return host.request('POST', '/oauth/token', { form });
}

/** The code of an Allow answer's redirect. */
export const codeOf = (allowed: TestResponse): string =>
  new URL(allowed.body.redirect_to).searchParams.get('code') ?? '';

/** POST /oauth/token for a code, as the client that asked for it sends it (`more` changes it). */
export function exchangeCode(
  host: TestHost,
  clientId: string,
  code: string,
  verifier: string,
  more: Record<string, string> = {},
): Promise<TestResponse> {
  return tokenRequest(host, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    ...more,
  });
}

export interface Connection {
  clientId: string;
  verifier: string;
  code: string;
  access: string;
  refresh: string;
  /** The token endpoint's answer to the code. */
  tokens: TestResponse;
}

/**
 * A whole flow for the person with `token`: registered, authorized (with `more` parameters, such
 * as a scope), allowed, exchanged.
 */
export async function connectApp(
  host: TestHost,
  token: string,
  more: Record<string, string | undefined> = {},
  clientName?: string,
): Promise<Connection> {
  // The same registration again is the same client (a repeat costs nothing): another name, another.
  const clientId = await registerClient(host, clientName ? { client_name: clientName } : {});
  const { verifier, challenge } = pkcePair();
  const id = requestIdOf(
    await authorizeRequest(host, authorizationParams(host, clientId, challenge, more)),
  );
  const code = codeOf(await answer(host, id, token, 'allow'));
  const tokens = await exchangeCode(host, clientId, code, verifier, {
    resource: `${host.url}/mcp`,
  });
  if (tokens.status !== 200) throw new Error(`the code was refused: ${tokens.text}`);
  return {
    clientId,
    verifier,
    code,
    access: tokens.body.access_token,
    refresh: tokens.body.refresh_token,
    tokens,
  };
}

/** POST /mcp tools/list with a bearer credential: 200 when it is taken. */
export function listTools(host: TestHost, credential: string): Promise<TestResponse> {
  return host.request('POST', '/mcp', {
    token: credential,
    headers: { accept: 'application/json, text/event-stream' },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
}
