// The short-lived items of an authorization, in DynamoDB:
//   OAUTHREQ#<id>        an authorization request, checked and waiting for the person's answer
//                        (AUTHORIZATION_REQUEST_TTL_MS); answering takes it away, so it is
//                        answered once
//   OAUTHCODE#<sha256>   an authorization code, bound to its client, redirect URI, PKCE challenge,
//                        resource and person; it works for CODE_TTL_MS and once, and is kept a
//                        while longer (CODE_RECORD_TTL_MS) so that a second use is recognised and
//                        ends what the first one gave (grant-store.ts marks it used)
// Both carry the table's TTL; their own expiry is checked on every read, as TTL lags.

import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, type DocumentTable, storeCall } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import { bound } from '../../util/bound';

/** How long a person has to sign in and answer the consent screen. */
export const AUTHORIZATION_REQUEST_TTL_MS = 10 * 60_000;
/** How long an authorization code works (OAuth 2.1 asks for a short life; at most 60 s here). */
export const CODE_TTL_MS = 60_000;
/** How long a code's record is kept after it was made, to recognise a second use. */
const CODE_RECORD_TTL_MS = 60 * 60_000;

/** What an authorization request asked for, once checked. */
export interface AuthorizationRequest {
  clientId: string;
  /** What the person is told the app is called (its registration's or metadata's client_name). */
  clientName: string;
  redirectUri: string;
  /** Sent back unchanged; absent when the client sent none. */
  state?: string;
  /** The S256 PKCE challenge. */
  codeChallenge: string;
  /** The resource the tokens will be for: this deployment's /mcp. */
  resource: string;
  /**
   * The scope Allow grants: the service's scopes the client asked for, or
   * all. Absent in a request stored before scopes (read through grantedScopes: all of them).
   */
  scope?: string;
  /** Epoch milliseconds. */
  requestExpiresAt: number;
}

/** An authorization code as stored: the request it answers, and who allowed it. */
export interface CodeRecord
  extends Pick<
    AuthorizationRequest,
    'clientId' | 'clientName' | 'redirectUri' | 'codeChallenge' | 'resource' | 'scope'
  > {
  userId: string;
  /** Epoch milliseconds after which it no longer works. */
  codeExpiresAt: number;
  /** Set once it has been exchanged (or refused for a wrong binding). */
  usedAt?: number;
  /** The grant its exchange made. */
  grantId?: string;
}

const requestPk = (id: string) => `OAUTHREQ#${id}`;
/** The key of a code's record by the code's hash (grant-store.ts marks it used). */
export const codePk = (hash: string) => `OAUTHCODE#${hash}`;
const ttl = (epochMs: number) => Math.ceil(epochMs / 1000);

/** Puts a new item that lives until `expiresAt`. */
function put({ db, table }: DocumentTable, pk: string, value: object, expiresAt: number) {
  return storeCall(() =>
    db.send(
      new PutCommand({
        TableName: table,
        Item: { ...value, pk, [TABLE_TTL_ATTRIBUTE]: ttl(expiresAt) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** An item without its key and its time to live. */
const withoutKeys = <T>(item: Record<string, unknown>): T => {
  const { pk: _, [TABLE_TTL_ATTRIBUTE]: __, ...value } = item;
  return value as T;
};

/**
 * The pending requests and codes of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createFlowStore(db: DynamoDBDocumentClient, table: string) {
  const flows: DocumentTable = { db, table };
  return {
    putRequest: bound(flows, putRequest),
    getRequest: bound(flows, getRequest),
    takeRequest: bound(flows, takeRequest),
    putCode: bound(flows, putCode),
    getCode: bound(flows, getCode),
    burnCode: bound(flows, burnCode),
  };
}

export async function putRequest(
  flows: DocumentTable,
  id: string,
  request: AuthorizationRequest,
): Promise<void> {
  await put(flows, requestPk(id), request, request.requestExpiresAt);
}

/** A pending request, unless answered or expired by `now`. */
export async function getRequest(
  flows: DocumentTable,
  id: string,
  now: number,
): Promise<AuthorizationRequest | undefined> {
  const { db, table } = flows;
  const { Item } = await storeCall(() =>
    db.send(new GetCommand({ TableName: table, Key: { pk: requestPk(id) }, ConsistentRead: true })),
  );
  const request = Item && withoutKeys<AuthorizationRequest>(Item);
  return request && request.requestExpiresAt > now ? request : undefined;
}

/** Takes a pending request away (it is answered once); undefined when gone or expired. */
export async function takeRequest(
  flows: DocumentTable,
  id: string,
  now: number,
): Promise<AuthorizationRequest | undefined> {
  const { db, table } = flows;
  // Two answers at once: one deletes it, the other finds nothing.
  const { Attributes } = await storeCall(() =>
    db.send(
      new DeleteCommand({
        TableName: table,
        Key: { pk: requestPk(id) },
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  const request = Attributes && withoutKeys<AuthorizationRequest>(Attributes);
  return request && request.requestExpiresAt > now ? request : undefined;
}

/** Stores a new code (by its hash) for CODE_TTL_MS from `now`. */
export async function putCode(
  flows: DocumentTable,
  hash: string,
  code: Omit<CodeRecord, 'codeExpiresAt'>,
  now: number,
) {
  await put(
    flows,
    codePk(hash),
    { ...code, codeExpiresAt: now + CODE_TTL_MS },
    now + CODE_RECORD_TTL_MS,
  );
}

/** A code's record, used or not, expired or not; undefined when it never was (or is long gone). */
export async function getCode(flows: DocumentTable, hash: string): Promise<CodeRecord | undefined> {
  const { db, table } = flows;
  const { Item } = await storeCall(() =>
    db.send(new GetCommand({ TableName: table, Key: { pk: codePk(hash) }, ConsistentRead: true })),
  );
  return Item && withoutKeys<CodeRecord>(Item);
}

/** Marks a code used without a grant (it was presented with a wrong binding). */
export async function burnCode(flows: DocumentTable, hash: string, now: number): Promise<void> {
  const { db, table } = flows;
  // Refused when used already: it is spent either way.
  await conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: { pk: codePk(hash) },
      UpdateExpression: 'SET usedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
      ExpressionAttributeValues: { ':now': now },
    }),
  );
}

export type FlowStore = ReturnType<typeof createFlowStore>;
