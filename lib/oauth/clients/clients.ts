// OAuth clients: the apps that ask a person for access. Two kinds, told apart by their client_id:
// - registered (RFC 7591, POST /oauth/register; registration.ts): a random id, stored as
//   OAUTHCLIENT#<id>. A registration nobody used expires after UNUSED_CLIENT_TTL_MS; one a person
//   allowed lives as long as a grant (OAUTH_GRANT_TTL_DAYS) from its last use. Public (method
//   "none", bound by PKCE alone) or confidential (client_secret_post or client_secret_basic: its
//   secret is stored as a SHA-256 only, client-auth.ts checks it), and PKCE for both.
// - an https URL: a client ID metadata document, fetched from there; public,
//   and never stored as a registration.
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, storeCall } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import type { WindowCounter } from '../../aws/window-counter';
import { TOKEN_ENDPOINT_AUTH_METHODS, type TokenEndpointAuthMethod } from './metadata';
import { createRepeatLedger } from './repeats';

/** A client as the authorization endpoint sees it. */
export interface OAuthClient {
  clientId: string;
  /** Its client_name, or undefined when it gave none. */
  clientName: string | undefined;
  redirectUris: readonly string[];
}

/** A registered client, as stored. */
export interface RegisteredClient extends OAuthClient {
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** The SHA-256 of its secret (secretHash), for a confidential client only. */
  secretHash?: string | undefined;
  /** When it was registered (epoch ms). */
  createdAt: number;
}

/** Whether a client_id names a metadata document (an https URL) rather than a registration. */
export const isMetadataDocumentUrl = (clientId: string): boolean => clientId.startsWith('https://');

/** How long a registration nobody has used is kept. */
export const UNUSED_CLIENT_TTL_MS = 24 * 60 * 60_000;

const clientPk = (id: string) => `OAUTHCLIENT#${id}`;
const ttl = (epochMs: number) => Math.ceil(epochMs / 1000);

/** A stored method, "none" for the registrations made before there were others. */
const storedMethod = (value: unknown): TokenEndpointAuthMethod =>
  TOKEN_ENDPOINT_AUTH_METHODS.includes(value as TokenEndpointAuthMethod)
    ? (value as TokenEndpointAuthMethod)
    : 'none';

/**
 * The registered clients of one table, and the registrations made lately.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createClientStore(db: DynamoDBDocumentClient, table: string) {
  return {
    async put(client: RegisteredClient): Promise<void> {
      const expiresAt = client.createdAt + UNUSED_CLIENT_TTL_MS;
      await storeCall(() =>
        db.send(
          new PutCommand({
            TableName: table,
            Item: {
              pk: clientPk(client.clientId),
              clientName: client.clientName,
              redirectUris: client.redirectUris,
              tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
              secretHash: client.secretHash,
              createdAt: client.createdAt,
              clientExpiresAt: expiresAt,
              [TABLE_TTL_ATTRIBUTE]: ttl(expiresAt),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    },

    /**
     * A registered client, unless unknown or expired by `now`. `consistent`: read what was just
     * written (a registration made a moment ago by a parallel request).
     */
    async get(
      clientId: string,
      now: number,
      consistent = false,
    ): Promise<RegisteredClient | undefined> {
      const { Item } = await storeCall(() =>
        db.send(
          new GetCommand({
            TableName: table,
            Key: { pk: clientPk(clientId) },
            ConsistentRead: consistent,
          }),
        ),
      );
      if (!Item || !(Number(Item.clientExpiresAt) > now) || !Array.isArray(Item.redirectUris)) {
        return undefined;
      }
      return {
        clientId,
        clientName: typeof Item.clientName === 'string' ? Item.clientName : undefined,
        redirectUris: Item.redirectUris as string[],
        tokenEndpointAuthMethod: storedMethod(Item.tokenEndpointAuthMethod),
        secretHash: typeof Item.secretHash === 'string' ? Item.secretHash : undefined,
        createdAt: Number(Item.createdAt ?? 0),
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

    ...createRepeatLedger(db, table),
  };
}

export type ClientStore = ReturnType<typeof createClientStore>;

export interface RegistrationDependencies {
  clients: ClientStore;
  counter: WindowCounter;
  /** OAUTH_REGISTER_MAX_PER_IP: distinct registrations per address per hour; 0: no limit. */
  maxPerAddressPerHour: number;
}
