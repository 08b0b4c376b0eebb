// How grants and their refresh tokens are kept in the table, one item each:
//   OAUTHGRANT#<grant id>        the grant: whose, which client, its scope, when made, last
//                                refreshed and used; read on every /mcp request an access token
//                                of it makes, so that a disconnected app is refused at once
//   OAUTHGRANTS#<user id>        the person's grants: a map of id -> { client, name, made },
//                                what Connected apps lists and account deletion ends
//   OAUTHREFRESH#<sha256>        a refresh token: its grant and client, and once it was used,
//                                when (a used one presented again ends its grant)
// A grant and its refresh tokens expire together (the table's TTL) when the app has not
// refreshed for OAUTH_GRANT_TTL_DAYS; the expiry is also checked on every read, as TTL lags.

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type DocumentTable, storeCall } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';

/** A connected app. Times are epoch milliseconds. */
export interface Grant {
  id: string;
  userId: string;
  clientId: string;
  clientName: string;
  /** The /mcp URL its tokens are for (RFC 8707): the deployment's origin the person allowed it at. */
  resource: string;
  /**
   * What the person allowed it (space-separated scopes), which each of its
   * access tokens carries. Absent on a grant made before scopes: every scope, as then.
   */
  scope?: string;
  createdAt: number;
  /** When an access token of it last reached /mcp (to the minute), or it last refreshed. */
  lastUsedAt?: number;
  /** When it ends unless refreshed before. */
  grantExpiresAt: number;
}

/** A refresh token as stored. */
export interface RefreshRecord {
  grantId: string;
  clientId: string;
  /** Set once it has been exchanged: presented again, it ends its grant. */
  usedAt?: number;
}

export const grantPk = (id: string) => `OAUTHGRANT#${id}`;
export const listPk = (userId: string) => `OAUTHGRANTS#${userId}`;
export const refreshPk = (hash: string) => `OAUTHREFRESH#${hash}`;
export const ttl = (epochMs: number) => Math.ceil(epochMs / 1000);

export function grantOf(item: Record<string, unknown> | undefined): Grant | undefined {
  if (typeof item?.userId !== 'string' || typeof item.clientId !== 'string') return undefined;
  const grant: Grant = {
    id: String(item.pk).slice('OAUTHGRANT#'.length),
    userId: item.userId,
    clientId: item.clientId,
    clientName: String(item.clientName ?? ''),
    resource: String(item.resource ?? ''),
    createdAt: Number(item.createdAt),
    grantExpiresAt: Number(item.grantExpiresAt),
  };
  if (typeof item.scope === 'string') grant.scope = item.scope;
  if (typeof item.lastUsedAt === 'number') grant.lastUsedAt = item.lastUsedAt;
  return grant;
}

/** An item by its key, read consistently. */
export async function getItem({ db, table }: DocumentTable, pk: string) {
  return (
    await storeCall(() =>
      db.send(new GetCommand({ TableName: table, Key: { pk }, ConsistentRead: true })),
    )
  ).Item;
}

/** A transaction's Put of a new refresh token of `grant`, living until `until`. */
export function newRefresh(
  { table }: DocumentTable,
  hash: string,
  grant: Pick<Grant, 'id' | 'clientId'>,
  until: number,
) {
  return {
    Put: {
      TableName: table,
      Item: {
        pk: refreshPk(hash),
        grantId: grant.id,
        clientId: grant.clientId,
        [TABLE_TTL_ATTRIBUTE]: ttl(until),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
