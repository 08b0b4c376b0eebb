// Dynamic client registration (RFC 7591), as the hosts people use register:
// - claude.ai and Claude Desktop ask for client_secret_post (anthropics/claude-ai-mcp #1043) and
//   register twice per attempt from Anthropic's shared addresses (#597, #654); Cursor lists three
//   redirect URIs, one a private-use scheme; VS Code leaves token_endpoint_auth_method out
//   (microsoft/vscode #278512). So: confidential clients get a secret, the URIs that can be used
//   are kept (metadata.ts), and a method left out is "none".
// - Registrations per address are limited (OAUTH_REGISTER_MAX_PER_IP an hour): each is a stored
//   item. Client ID metadata documents are not registered at all (client-metadata.ts).
import { sourceKey } from '../../accounts/users/address';
import { TooManyRequestsError } from '../../errors';
import { randomId } from '../../util/random-id';
import { secretHash } from '../authorize/secrets';
import { OAuthError } from '../errors';
import type { RegistrationRequest, RegistrationResponse } from '../schemas';
import { newClientSecret } from './client-auth';
import type { RegisteredClient, RegistrationDependencies } from './clients';
import { type AcceptedMetadata, acceptClientMetadata, GRANT_TYPES, isRefusal } from './metadata';

const HOUR_SECONDS = 3_600;

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

/**
 * Registers a client (RFC 7591): public, or confidential with a secret shown in this answer only.
 * @throws OAuthError invalid_redirect_uri (no redirect URI can be used) or invalid_client_metadata;
 * TooManyRequestsError when the address registered too many clients this hour;
 * ServiceUnavailableError when DynamoDB fails.
 */
export async function registerClient(
  deps: RegistrationDependencies,
  request: RegistrationRequest,
  input: { sourceIp: string; now: number },
): Promise<RegistrationResponse> {
  const accepted = acceptClientMetadata(request, { secretsAllowed: true });
  if (isRefusal(accepted)) throw new OAuthError(accepted.code, accepted.detail);
  await charge(deps, input.sourceIp);
  return makeClient(deps, accepted, input.now);
}
