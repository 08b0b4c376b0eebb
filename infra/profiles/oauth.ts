// OAuth for /mcp: discovery, clients, tokens and the person's connected apps; all small.
import { Duration } from 'aws-cdk-lib';
import type { FunctionName } from '../../lib/routes/route';
import type { FunctionProfile } from './profile';

export const OAUTH_PROFILES = {
  'oauth-metadata': {
    description:
      'GET /.well-known/oauth-protected-resource(/mcp), /.well-known/oauth-authorization-server: OAuth discovery',
    // Two small JSON documents made from the request's origin: the smallest size is plenty.
    memorySize: 128,
    timeout: Duration.seconds(3),
    table: [],
  },
  'oauth-clients': {
    description:
      'POST /oauth/register, GET /oauth/authorize: OAuth client registration and authorization requests',
    // Small reads and writes, and at most one fetch of a client ID metadata document: waiting.
    memorySize: 256,
    // A metadata document's fetch is cut off after 5 s (CLIENT_METADATA_TIMEOUT_MS); the table's
    // calls after it take at most a few seconds more.
    timeout: Duration.seconds(10),
    // Registrations: PutItem (the client), and the registrations-per-address counter (UpdateItem,
    // PutItem to start a window). Authorization requests: GetItem (the client, a cached metadata
    // document), PutItem (the pending request, a metadata document's cache entry). No secret: it
    // signs and verifies nothing, and it is the function that fetches URLs clients name.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  },
  'oauth-token': {
    description:
      'POST /oauth/token, POST /oauth/revoke: OAuth tokens for /mcp, and their revocation',
    memorySize: 256,
    timeout: Duration.seconds(10),
    // Codes, grants and refresh tokens: GetItem (each, and the user), the transactions that make a
    // grant or rotate a refresh token (UpdateItem of the code, the refresh token, the grant and
    // the person's list; PutItem of the new grant and refresh token; UpdateItem of a registered
    // client's life on each refresh), DeleteItem (a grant ended by a reused code or refresh
    // token, or revoked).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    // Signs access tokens (and verifies one a client revokes).
    signsTokens: true,
  },
  'connected-apps': {
    description:
      'GET/POST /oauth/requests/{id}, GET /connected-apps, DELETE /connected-apps/{id}: the person connects and disconnects apps',
    memorySize: 256,
    timeout: Duration.seconds(10),
    // The pending request: GetItem, and DeleteItem when answered; the code: PutItem; the client's
    // life: UpdateItem. Connected apps: GetItem (the list, each grant), DeleteItem (a grant
    // ended), UpdateItem (its entry off the list).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  },
} satisfies Partial<Record<FunctionName, FunctionProfile>>;
