// Client authentication at the token and revocation endpoints (RFC 6749 2.3.1, 3.2.1; RFC 7009
// 2.1): a confidential client proves it is itself with the secret it was given at registration,
// by the method it registered, and nothing else:
// - client_secret_post: client_id and client_secret in the form;
// - client_secret_basic: `Authorization: Basic base64(urlencode(id) ":" urlencode(secret))`. The id
//   and secret are form-urlencoded before base64 (RFC 6749 2.3.1 and Appendix B, a classic
//   pitfall), so they are decoded after; a client that skips the encoding (the MCP SDK's btoa)
//   sends the same bytes, since ids and secrets here are made of unreserved characters only.
// A wrong or missing secret, a secret sent by the other method, or one for a client that has
// none is 401 invalid_client with a Basic challenge (RFC 6749 5.2; RFC 9110 asks every 401 for
// one). Secrets are random (256 bits), stored as SHA-256 (a fast hash is right for random
// secrets, as for API keys) and compared in constant time.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { RANDOM_ID_PATTERN } from '../../util/random-id';
import { secretHash } from '../authorize/secrets';
import { invalidClient, OAuthError } from '../errors';
import type { ClientStore } from './clients';
import { isMetadataDocumentUrl } from './clients';
import type { TokenEndpointAuthMethod } from './metadata';

/** What every client secret starts with (secret scanners can match it, as `tsk_` for keys). */
export const CLIENT_SECRET_PREFIX = 'tsc_';

/** A new client secret: shown to its client once, in the registration's answer, never stored. */
export const newClientSecret = (): string =>
  CLIENT_SECRET_PREFIX + randomBytes(32).toString('base64url');

/** Whether `secret` is the one whose hash is `hash`, compared in constant time. */
export function secretMatches(secret: string, hash: string): boolean {
  const presented = Buffer.from(secretHash(secret));
  const stored = Buffer.from(hash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** How a request says which client sends it, and with what secret. */
export interface PresentedClient {
  clientId: string | undefined;
  secret: string | undefined;
  /** How the secret came: in the form (post), in the Authorization header (basic), or not. */
  method: TokenEndpointAuthMethod;
}

/** A form-urlencoded value decoded (RFC 6749 Appendix B), or undefined when malformed. */
function formDecoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * The client id and secret of an `Authorization: Basic` header, or undefined for another scheme.
 * @throws OAuthError invalid_client when the header is Basic but malformed.
 */
export function basicCredentials(header: string): { clientId: string; secret: string } | undefined {
  const [scheme = '', value = '', ...rest] = header.trim().split(' ').filter(Boolean);
  if (scheme.toLowerCase() !== 'basic') return undefined;
  const malformed = () =>
    invalidClient('The Authorization header is not Basic base64(client_id:client_secret).');
  if (rest.length > 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) throw malformed();
  const pair = Buffer.from(value, 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  if (colon < 0) throw malformed();
  const clientId = formDecoded(pair.slice(0, colon));
  const secret = formDecoded(pair.slice(colon + 1));
  if (!clientId || secret === undefined) throw malformed();
  return { clientId, secret };
}

/**
 * Which client a token or revocation request names, and how it authenticates.
 * @throws OAuthError invalid_request for two methods at once (RFC 6749 2.3) or a client_id that
 * differs from the header's, or a secret without a client_id; invalid_client for a malformed
 * Basic header.
 */
export function presentedClient(
  authorization: string | undefined,
  form: { client_id?: string | undefined; client_secret?: string | undefined },
): PresentedClient {
  const formSecret = form.client_secret === '' ? undefined : form.client_secret;
  const basic = authorization === undefined ? undefined : basicCredentials(authorization);
  if (basic) {
    if (formSecret !== undefined) {
      throw new OAuthError(
        'invalid_request',
        'The client authenticates in the Authorization header or in the form, not both.',
      );
    }
    if (form.client_id !== undefined && form.client_id !== basic.clientId) {
      throw new OAuthError('invalid_request', 'client_id differs from the Authorization header’s.');
    }
    return { clientId: basic.clientId, secret: basic.secret, method: 'client_secret_basic' };
  }
  if (formSecret !== undefined) {
    if (form.client_id === undefined) {
      throw new OAuthError('invalid_request', 'client_secret comes with its client_id.');
    }
    return { clientId: form.client_id, secret: formSecret, method: 'client_secret_post' };
  }
  return { clientId: form.client_id, secret: undefined, method: 'none' };
}

/** How a confidential client sends its secret, said to one that sent it otherwise. */
const HOW: Record<Exclude<TokenEndpointAuthMethod, 'none'>, string> = {
  client_secret_post: 'client_id and client_secret in the form',
  client_secret_basic:
    'an Authorization: Basic header (client_id and client_secret, each form-urlencoded, then base64)',
};

/** The same answer for an unknown client with a secret and for a wrong secret. */
const wrongSecret = () => invalidClient('The client_id or client_secret is wrong.');

/**
 * Authenticates the client of a token or revocation request: a confidential client by its secret
 * and its registered method; a public one (a registration with method "none", a metadata
 * document's URL, or an id that names no registration, which its code or token will not match)
 * by its client_id alone. `clientId` is undefined when the request names none.
 * @throws OAuthError invalid_client (401, with a Basic challenge); ServiceUnavailableError.
 */
export async function authenticateClient(
  clients: Pick<ClientStore, 'get'>,
  presented: PresentedClient,
  now: number,
): Promise<{ clientId: string | undefined; confidential: boolean }> {
  const { clientId } = presented;
  if (clientId === undefined) return { clientId, confidential: false };
  const client =
    isMetadataDocumentUrl(clientId) || !RANDOM_ID_PATTERN.test(clientId)
      ? undefined
      : await clients.get(clientId, now);
  const registered = client?.tokenEndpointAuthMethod ?? 'none';
  if (registered === 'none') {
    if (presented.secret === undefined) return { clientId, confidential: false };
    throw client
      ? invalidClient('This client is public: it has no secret to send.')
      : wrongSecret();
  }
  if (presented.method === 'none') {
    throw invalidClient(`This client authenticates with ${registered}: ${HOW[registered]}.`);
  }
  if (presented.method !== registered) {
    throw invalidClient(
      `This client was registered with ${registered}: its secret comes in ${HOW[registered]}.`,
    );
  }
  if (!client?.secretHash || !secretMatches(presented.secret ?? '', client.secretHash)) {
    throw wrongSecret();
  }
  return { clientId, confidential: true };
}
