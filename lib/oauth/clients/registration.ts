// Dynamic client registration (RFC 7591), as the hosts people use register:
// - claude.ai and Claude Desktop ask for client_secret_post (anthropics/claude-ai-mcp #1043) and
//   register twice per attempt from Anthropic's shared addresses (#597, #654); Cursor lists three
//   redirect URIs, one a private-use scheme; VS Code registers four, two of them port-less
//   loopback ones (microsoft/vscode #278512). So: confidential clients get a secret, the URIs
//   that can be used are kept, and a method left out is "none".
// - A registration repeated (the same accepted metadata, from the same address, within the hour)
//   costs nothing: a public client gets the same client back, a confidential one a fresh client
//   and secret (a secret is shown once, so the first cannot be given again), up to
//   MAX_FREE_REPEATS_PER_HOUR. OAUTH_REGISTER_MAX_PER_IP counts distinct registrations.
// - Client ID metadata documents are not registered at all: they are fetched when used.
import { createHash } from 'node:crypto';
import { sourceKey } from '../../accounts/users/address';
import { TooManyRequestsError } from '../../errors';
import { randomId } from '../../util/random-id';
import { secretHash } from '../authorize/secrets';
import { OAuthError } from '../errors';
import { MAX_FREE_REPEATS_PER_HOUR } from '../limits';
import type { RegistrationRequest, RegistrationResponse } from '../schemas';
import { newClientSecret } from './client-auth';
import type { RegisteredClient, RegistrationDependencies } from './clients';
import { type AcceptedMetadata, acceptClientMetadata, GRANT_TYPES, isRefusal } from './metadata';

const HOUR_SECONDS = 3_600;
/** How often, and how long apart, a repeat looks for the client a parallel registration makes. */
const WAIT_FOR_CLIENT = { tries: 10, intervalMs: 100 };

/** A JSON text of `value` with every object's keys in order: the same metadata, the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What makes two registrations the same one: the address they come from (as the budget counts
 * it) and the metadata as accepted (the URIs kept, in any order; the name as shown; the method).
 * Whatever a registration's answer depends on belongs here.
 */
export function repeatKey(sourceIp: string, accepted: AcceptedMetadata): string {
  const metadata = canonicalJson({
    client_name: accepted.clientName,
    redirect_uris: [...accepted.redirectUris].sort(),
    token_endpoint_auth_method: accepted.tokenEndpointAuthMethod,
  });
  const hash = createHash('sha256').update(metadata).digest('base64url');
  return `OAUTHREGDEDUP#${sourceKey(sourceIp)}#${hash}`;
}

/** Takes one of the address's registrations this hour. @throws TooManyRequestsError */
async function charge(deps: RegistrationDependencies, sourceIp: string): Promise<void> {
  if (deps.maxPerAddressPerHour <= 0) return;
  const key = `OAUTHREGISTER#${sourceKey(sourceIp)}`;
  const slot = await deps.counter.reserve(key, deps.maxPerAddressPerHour, HOUR_SECONDS);
  if (!slot.ok) {
    throw new TooManyRequestsError(
      slot.retryAfterSeconds,
      'Too many OAuth clients were registered from this address; try again later.',
      'too-many-client-registrations',
    );
  }
}

/** The answer to a registration (RFC 7591 3.2.1): the secret, when there is one, only here. */
function answer(client: RegisteredClient, secret?: string): RegistrationResponse {
  return {
    client_id: client.clientId,
    ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    ...(client.clientName === undefined ? {} : { client_name: client.clientName }),
    redirect_uris: [...client.redirectUris],
    grant_types: GRANT_TYPES,
    response_types: ['code'],
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
  };
}

/** Stores a new client of this metadata (a confidential one with a new secret); its answer. */
async function makeClient(
  deps: RegistrationDependencies,
  accepted: AcceptedMetadata,
  now: number,
  clientId = randomId(),
): Promise<RegistrationResponse> {
  const secret = accepted.tokenEndpointAuthMethod === 'none' ? undefined : newClientSecret();
  const client: RegisteredClient = {
    clientId,
    clientName: accepted.clientName,
    redirectUris: accepted.redirectUris,
    tokenEndpointAuthMethod: accepted.tokenEndpointAuthMethod,
    secretHash: secret === undefined ? undefined : secretHash(secret),
    createdAt: now,
  };
  await deps.clients.put(client);
  return answer(client, secret);
}

/** The client a registration made a moment ago, waiting a little for a parallel one's write. */
async function madeClient(deps: RegistrationDependencies, clientId: string, now: number) {
  for (let attempt = 0; attempt < WAIT_FOR_CLIENT.tries; attempt++) {
    const client = await deps.clients.get(clientId, now, true);
    if (client) return client;
    await new Promise((done) => setTimeout(done, WAIT_FOR_CLIENT.intervalMs));
  }
  return undefined;
}

/**
 * Registers a client (RFC 7591): public, or confidential with a secret shown in this answer only.
 * @throws OAuthError invalid_redirect_uri (no redirect URI can be used) or invalid_client_metadata;
 * TooManyRequestsError when the address registered too many distinct clients this hour;
 * ServiceUnavailableError when DynamoDB fails.
 */
export async function registerClient(
  deps: RegistrationDependencies,
  request: RegistrationRequest,
  input: { sourceIp: string; now: number },
): Promise<RegistrationResponse> {
  const accepted = acceptClientMetadata(request, { secretsAllowed: true });
  if (isRefusal(accepted)) throw new OAuthError(accepted.code, accepted.detail);
  const { now } = input;
  const key = repeatKey(input.sourceIp, accepted);
  // Three rounds at most: a claim lost to a parallel registration makes this one its repeat.
  for (let round = 0; round < 3; round++) {
    const earlier = await deps.clients.findRegistration(key, now);
    if (earlier && accepted.tokenEndpointAuthMethod === 'none') {
      const client = await madeClient(deps, earlier.clientId, now);
      if (client) return answer(client);
      // Its client never came to be (or expired): this registration takes the claim over.
    } else if (earlier) {
      if (!(await deps.clients.takeRepeat(key, now, MAX_FREE_REPEATS_PER_HOUR))) {
        await charge(deps, input.sourceIp);
      }
      return makeClient(deps, accepted, now);
    }
    const clientId = randomId();
    if (!(await deps.clients.claimRegistration(key, clientId, now, earlier?.clientId))) continue;
    try {
      await charge(deps, input.sourceIp);
    } catch (error) {
      await deps.clients.releaseRegistration(key, clientId);
      throw error;
    }
    return makeClient(deps, accepted, now, clientId);
  }
  // Claims changing hands all along (not seen but under a flood): registered as if new.
  await charge(deps, input.sourceIp);
  return makeClient(deps, accepted, now);
}
