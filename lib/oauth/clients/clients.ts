// OAuth clients: the apps that ask a person for access. Two kinds, told apart by their client_id:
// - registered (RFC 7591, POST /oauth/register): a random id, stored as OAUTHCLIENT#<id>. A
//   registration nobody used expires after UNUSED_CLIENT_TTL_MS; one a person allowed lives as
//   long as a grant (OAUTH_GRANT_TTL_DAYS) from its last use. Registrations per address are
//   limited (OAUTH_REGISTER_MAX_PER_IP an hour), as accounts are: each one is a stored item.
// - an https URL: a client ID metadata document, fetched from there (client-metadata.ts).
// Every client is public (no secret; token_endpoint_auth_method "none"): PKCE binds its codes.
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { sourceKey } from '../../accounts/users/address';
import { conditionalWrite, storeCall } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import type { WindowCounter } from '../../aws/window-counter';
import { TooManyRequestsError } from '../../errors';
import { randomId } from '../../util/random-id';
import { OAuthError } from '../errors';
import type { RegistrationRequest, RegistrationResponse } from '../schemas';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris';

/** A client as the authorization endpoint sees it. */
export interface OAuthClient {
  clientId: string;
  /** Its client_name, or undefined when it gave none. */
  clientName: string | undefined;
  redirectUris: readonly string[];
}

/** Whether a client_id names a metadata document (an https URL) rather than a registration. */
export const isMetadataDocumentUrl = (clientId: string): boolean => clientId.startsWith('https://');

/** How long a registration nobody has used is kept. */
export const UNUSED_CLIENT_TTL_MS = 24 * 60 * 60_000;
/** The longest client_name shown to a person. */
export const MAX_CLIENT_NAME_CHARS = 100;
const HOUR_SECONDS = 3_600;
/** The grant types every client gets, and the only ones there are. */
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

const clientPk = (id: string) => `OAUTHCLIENT#${id}`;
const ttl = (epochMs: number) => Math.ceil(epochMs / 1000);

/**
 * Why a client's metadata cannot be accepted (the field, then what is wrong), or undefined: the
 * rules registration and client ID metadata documents share.
 */
export function clientMetadataProblem(metadata: {
  redirect_uris?: unknown;
  client_name?: unknown;
  token_endpoint_auth_method?: unknown;
  grant_types?: unknown;
  response_types?: unknown;
}): { code: 'invalid_redirect_uri' | 'invalid_client_metadata'; detail: string } | undefined {
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    return {
      code: 'invalid_redirect_uri',
      detail: `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`,
    };
  }
  for (const uri of uris) {
    const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'is not a string';
    if (problem) {
      return {
        code: 'invalid_redirect_uri',
        detail: `redirect_uri ${JSON.stringify(String(uri).slice(0, 200))} ${problem}`,
      };
    }
  }
  const name = metadata.client_name;
  if (name !== undefined) {
    // Control and format characters (right-to-left overrides, zero-width joiners) could make a
    // name read as another on the consent screen.
    if (typeof name !== 'string' || name.trim() === '' || /\p{C}/u.test(name)) {
      return { code: 'invalid_client_metadata', detail: 'client_name must be printable text' };
    }
    if ([...name.trim()].length > MAX_CLIENT_NAME_CHARS) {
      return {
        code: 'invalid_client_metadata',
        detail: `client_name must be at most ${MAX_CLIENT_NAME_CHARS} characters`,
      };
    }
  }
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    return {
      code: 'invalid_client_metadata',
      detail: 'token_endpoint_auth_method must be "none": clients here are public, bound by PKCE',
    };
  }
  const grants = metadata.grant_types;
  if (
    grants !== undefined &&
    (!Array.isArray(grants) ||
      !grants.includes('authorization_code') ||
      grants.some((grant) => !GRANT_TYPES.includes(grant)))
  ) {
    return {
      code: 'invalid_client_metadata',
      detail: 'grant_types must include authorization_code and may add refresh_token, nothing else',
    };
  }
  const responses = metadata.response_types;
  if (
    responses !== undefined &&
    (!Array.isArray(responses) || responses.some((type) => type !== 'code'))
  ) {
    return { code: 'invalid_client_metadata', detail: 'response_types must be ["code"]' };
  }
  return undefined;
}

/**
 * The registered clients of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createClientStore(db: DynamoDBDocumentClient, table: string) {
  return {
    async put(client: OAuthClient, now: number): Promise<void> {
      const expiresAt = now + UNUSED_CLIENT_TTL_MS;
      await storeCall(() =>
        db.send(
          new PutCommand({
            TableName: table,
            Item: {
              pk: clientPk(client.clientId),
              clientName: client.clientName,
              redirectUris: client.redirectUris,
              createdAt: now,
              clientExpiresAt: expiresAt,
              [TABLE_TTL_ATTRIBUTE]: ttl(expiresAt),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    },

    /** A registered client, unless unknown or expired by `now`. */
    async get(clientId: string, now: number): Promise<OAuthClient | undefined> {
      const { Item } = await storeCall(() =>
        db.send(new GetCommand({ TableName: table, Key: { pk: clientPk(clientId) } })),
      );
      if (!Item || !(Number(Item.clientExpiresAt) > now) || !Array.isArray(Item.redirectUris)) {
        return undefined;
      }
      return {
        clientId,
        clientName: typeof Item.clientName === 'string' ? Item.clientName : undefined,
        redirectUris: Item.redirectUris as string[],
      };
    },

    /** Keeps a client a person allowed until `until` (and longer with each use). */
    async keepUntil(clientId: string, until: number): Promise<void> {
      // Refused when kept longer already (or gone): nothing to do.
      await conditionalWrite(
        db,
        new UpdateCommand({
          TableName: table,
          Key: { pk: clientPk(clientId) },
          UpdateExpression: 'SET clientExpiresAt = :until, #ttl = :ttl',
          ConditionExpression: 'attribute_exists(pk) AND clientExpiresAt < :until',
          ExpressionAttributeNames: { '#ttl': TABLE_TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':until': until, ':ttl': ttl(until) },
        }),
      );
    },
  };
}

export type ClientStore = ReturnType<typeof createClientStore>;

export interface RegistrationDependencies {
  clients: ClientStore;
  counter: WindowCounter;
  /** OAUTH_REGISTER_MAX_PER_IP: registrations per address per hour; 0 means no limit. */
  maxPerAddressPerHour: number;
}

/**
 * Registers a public client (RFC 7591).
 * @throws OAuthError invalid_redirect_uri or invalid_client_metadata; TooManyRequestsError when
 * the address registered too many this hour; ServiceUnavailableError when DynamoDB fails.
 */
export async function registerClient(
  deps: RegistrationDependencies,
  request: RegistrationRequest,
  input: { sourceIp: string; now: number },
): Promise<RegistrationResponse> {
  const problem = clientMetadataProblem(request);
  if (problem) throw new OAuthError(problem.code, problem.detail);
  if (deps.maxPerAddressPerHour > 0) {
    const key = `OAUTHREGISTER#${sourceKey(input.sourceIp)}`;
    const slot = await deps.counter.reserve(key, deps.maxPerAddressPerHour, HOUR_SECONDS);
    if (!slot.ok) {
      throw new TooManyRequestsError(
        slot.retryAfterSeconds,
        'Too many OAuth clients were registered from this address; try again later.',
        'too-many-client-registrations',
      );
    }
  }
  const client: OAuthClient = {
    clientId: randomId(),
    clientName: request.client_name?.trim(),
    redirectUris: [...request.redirect_uris],
  };
  await deps.clients.put(client, input.now);
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(input.now / 1000),
    ...(client.clientName === undefined ? {} : { client_name: client.clientName }),
    redirect_uris: [...client.redirectUris],
    grant_types: GRANT_TYPES,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
