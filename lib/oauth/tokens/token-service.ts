// The token endpoint (RFC 6749 4.1.3 and 6, OAuth 2.1) and the revocation endpoint (RFC 7009).
// - authorization_code: the code works once, within CODE_TTL_MS, for the client, redirect URI,
//   PKCE verifier and resource it was made for; anything else is invalid_grant. A code presented
//   again ends the grant its first use made (OAuth 2.1 4.1.3), since one of the two is a thief.
// - refresh_token: each works once and is replaced by the next (rotation); one presented again
//   ends its grant, for the same reason (OAuth 2.1 4.3.1, RFC 9700 4.14.2).
// Access tokens live OAUTH_ACCESS_TOKEN_TTL_SECONDS (at most an hour), and only /mcp takes them.
// A confidential client authenticates first, by its secret and registered method;
// PKCE binds the codes of every client alike. Tokens carry their grant's scope, which the person
// allowed; a refresh keeps it (a `scope` asked at the token endpoint is ignored: RFC 6749 6 lets
// a refresh only narrow it), and every answer names it (RFC 6749 5.1).
import type { TokenSettings } from '../../accounts/auth/tokens';
import { InvalidTokenError } from '../../accounts/auth/tokens';
import { mcpResource } from '../../config/origin';
import type { Logger } from '../../logger';
import { randomId } from '../../util/random-id';
import { codePk, type FlowStore } from '../authorize/flow-store';
import {
  CODE_VERIFIER_PATTERN,
  newRefreshToken,
  REFRESH_TOKEN_PREFIX,
  secretHash,
  verifierMatches,
} from '../authorize/secrets';
import { authenticateClient, presentedClient } from '../clients/client-auth';
import { type ClientStore, isMetadataDocumentUrl } from '../clients/clients';
import { invalidGrant, OAuthError } from '../errors';
import type { OAuthTokenResponse, TokenRequest } from '../schemas';
import { grantedScope } from '../scopes';
import { issueAccessToken, verifyAccessToken } from './access-tokens';
import type { Grant } from './grant-items';
import type { GrantStore } from './grant-store';

export interface TokenServiceDependencies {
  flows: Pick<FlowStore, 'getCode' | 'burnCode'>;
  grants: GrantStore;
  /**
   * Registrations: a confidential one's secret is checked, and one in use is kept as long as its
   * connection (each refresh extends it).
   */
  clients: Pick<ClientStore, 'get' | 'keepUntil'>;
  /** Whether the user still exists (a deleted account's codes and grants give nothing). */
  userExists: (id: string) => Promise<boolean>;
  /** The signing key (tokenSettingsFrom). */
  tokenSettings: () => Promise<TokenSettings>;
  accessTokenTtlSeconds: number;
  /** OAUTH_GRANT_TTL_DAYS in milliseconds: a grant ends unless refreshed within it. */
  grantTtlMs: number;
  logger: Logger;
}

const required = (value: string | undefined, name: string): string => {
  if (value === undefined || value === '') {
    throw new OAuthError('invalid_request', `${name} is required`);
  }
  return value;
};

/** Where a token or revocation request comes from, and its Authorization header (Basic). */
export interface TokenRequestContext {
  origin: string;
  now: number;
  authorization?: string | undefined;
}

/**
 * Answers a token request for `origin` (whose /mcp the tokens are for).
 * @throws OAuthError: invalid_client (401: a confidential client's secret wrong, missing or sent
 * by another method), invalid_request (a field missing or malformed), unsupported_grant_type,
 * invalid_grant (a code or refresh token that is unknown, expired, used, or not this client's,
 * redirect URI's, verifier's or resource's), invalid_target; ServiceUnavailableError, ConfigError.
 */
export async function exchangeToken(
  deps: TokenServiceDependencies,
  body: TokenRequest,
  input: TokenRequestContext,
): Promise<OAuthTokenResponse> {
  const presented = presentedClient(input.authorization, body);
  const { clientId } = await authenticateClient(deps.clients, presented, input.now);
  const resource = mcpResource(input.origin);
  if (
    body.resource !== undefined &&
    body.resource !== resource &&
    body.resource !== `${resource}/`
  ) {
    throw new OAuthError('invalid_target', `resource must be ${resource}`);
  }
  const request = { ...body, client_id: clientId };
  if (body.grant_type === 'authorization_code') return redeemCode(deps, request, input);
  if (body.grant_type === 'refresh_token') return refresh(deps, request, input);
  throw new OAuthError(
    'unsupported_grant_type',
    'grant_type must be authorization_code or refresh_token',
  );
}

async function redeemCode(
  deps: TokenServiceDependencies,
  body: TokenRequest,
  { origin, now }: { origin: string; now: number },
): Promise<OAuthTokenResponse> {
  const code = required(body.code, 'code');
  const verifier = required(body.code_verifier, 'code_verifier');
  const redirectUri = required(body.redirect_uri, 'redirect_uri');
  const clientId = required(body.client_id, 'client_id');
  if (!CODE_VERIFIER_PATTERN.test(verifier)) {
    throw new OAuthError('invalid_request', 'code_verifier must be 43-128 unreserved characters');
  }
  const hash = secretHash(code);
  const record = await deps.flows.getCode(hash);
  if (!record) throw invalidGrant('The authorization code is unknown or expired.');
  if (record.usedAt !== undefined) {
    // A second use: whoever holds this code now, what it gave is no longer safe.
    if (record.grantId !== undefined) {
      const ended = await deps.grants.end(record.grantId);
      if (ended)
        deps.logger.warn('authorization code used twice: grant ended', { grant_id: ended.id });
    }
    throw invalidGrant('The authorization code was used already; what it gave is revoked.');
  }
  if (record.codeExpiresAt <= now) throw invalidGrant('The authorization code has expired.');
  const wrong =
    record.clientId !== clientId
      ? 'was issued to another client'
      : record.redirectUri !== redirectUri
        ? 'was issued for another redirect_uri'
        : !verifierMatches(verifier, record.codeChallenge)
          ? 'does not match this code_verifier'
          : // Made at another origin of the deployment (a domain of its own beside API
            // Gateway's): its tokens would be for another /mcp than the one the person allowed.
            record.resource !== mcpResource(origin)
            ? 'was issued for another resource'
            : undefined;
  if (wrong) {
    // Tried with a wrong binding, it works no more: no second guess at the verifier.
    await deps.flows.burnCode(hash, now);
    throw invalidGrant(`The authorization code ${wrong}.`);
  }
  if (!(await deps.userExists(record.userId))) {
    await deps.flows.burnCode(hash, now);
    throw invalidGrant('The account that allowed this app no longer exists.');
  }
  const grant: Grant = {
    id: randomId(),
    userId: record.userId,
    clientId: record.clientId,
    clientName: record.clientName,
    resource: record.resource,
    scope: grantedScope(record.scope),
    createdAt: now,
    grantExpiresAt: now + deps.grantTtlMs,
  };
  const refreshToken = newRefreshToken();
  const made = await deps.grants.createFromCode(codePk(hash), grant, secretHash(refreshToken), now);
  // Used or expired between the read and the write (a parallel exchange of the same code).
  if (!made) throw invalidGrant('The authorization code was used already.');
  deps.logger.info('app connected', { grant_id: grant.id, user_id: grant.userId });
  return tokensFor(deps, origin, grant, refreshToken);
}

async function refresh(
  deps: TokenServiceDependencies,
  body: TokenRequest,
  { origin, now }: { origin: string; now: number },
): Promise<OAuthTokenResponse> {
  const token = required(body.refresh_token, 'refresh_token');
  const clientId = required(body.client_id, 'client_id');
  const hash = secretHash(token);
  const record = token.startsWith(REFRESH_TOKEN_PREFIX)
    ? await deps.grants.findRefresh(hash)
    : undefined;
  if (!record || record.clientId !== clientId) {
    throw invalidGrant('The refresh token is unknown, expired or not this client’s.');
  }
  const reused = async () => {
    const ended = await deps.grants.end(record.grantId);
    if (ended) deps.logger.warn('refresh token used twice: grant ended', { grant_id: ended.id });
    return invalidGrant('The refresh token was used already; the connection is ended.');
  };
  if (record.usedAt !== undefined) throw await reused();
  const grant = await deps.grants.get(record.grantId, now);
  if (!grant) throw invalidGrant('The connection has ended: connect the app again.');
  // Refreshed at another origin of the deployment, its tokens would be for another /mcp.
  if (grant.resource !== mcpResource(origin)) {
    throw invalidGrant('The refresh token was issued for another resource.');
  }
  if (!(await deps.userExists(grant.userId))) {
    await deps.grants.end(grant.id);
    throw invalidGrant('The account of this connection no longer exists.');
  }
  const next = newRefreshToken();
  const outcome = await deps.grants.rotate(
    grant,
    hash,
    secretHash(next),
    now,
    now + deps.grantTtlMs,
  );
  if (outcome === 'reused') throw await reused();
  if (outcome === 'gone') throw invalidGrant('The connection has ended: connect the app again.');
  // Else a registration would expire OAUTH_GRANT_TTL_DAYS after the person allowed it, while its
  // connection lives on: the app could then not be connected again with its client_id.
  if (!isMetadataDocumentUrl(grant.clientId)) {
    await deps.clients.keepUntil(grant.clientId, now + deps.grantTtlMs);
  }
  return tokensFor(deps, origin, grant, next);
}

async function tokensFor(
  deps: TokenServiceDependencies,
  origin: string,
  grant: Grant,
  refreshToken: string,
): Promise<OAuthTokenResponse> {
  const settings = await deps.tokenSettings();
  const access = await issueAccessToken(settings, origin, deps.accessTokenTtlSeconds, grant);
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    refresh_token: refreshToken,
    scope: grantedScope(grant.scope),
  };
}

/**
 * Revokes a token (RFC 7009): a refresh token or an access token of ours ends its grant, when it
 * is the client's own. Anything else (unknown, expired, another client's, a confidential client's
 * token revoked without its secret) is answered the same, with nothing done, as RFC 7009 2.2 asks:
 * a client learns nothing about tokens not its own. A confidential client authenticates as at the
 * token endpoint (RFC 7009 2.1).
 * @throws OAuthError invalid_client (a confidential client's secret wrong, missing or sent by
 * another method), invalid_request; ServiceUnavailableError; ConfigError without a signing key.
 */
export async function revokeToken(
  deps: Pick<TokenServiceDependencies, 'clients' | 'grants' | 'tokenSettings' | 'logger'>,
  body: { token: string; client_id?: string | undefined; client_secret?: string | undefined },
  input: TokenRequestContext,
): Promise<void> {
  const presented = presentedClient(input.authorization, body);
  const requester = await authenticateClient(deps.clients, presented, input.now);
  let grantId: string | undefined;
  let clientId: string | undefined;
  if (body.token.startsWith(REFRESH_TOKEN_PREFIX)) {
    const record = await deps.grants.findRefresh(secretHash(body.token));
    grantId = record?.grantId;
    clientId = record?.clientId;
  } else {
    try {
      const claims = await verifyAccessToken(await deps.tokenSettings(), input.origin, body.token);
      grantId = claims.grantId;
      clientId = (await deps.grants.get(claims.grantId, input.now))?.clientId;
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
    }
  }
  if (grantId === undefined || clientId === undefined) return;
  // Named, the client must be the token's; unnamed, the token must not be a confidential client's
  // (whose tokens only it, with its secret, revokes).
  const allowed =
    requester.clientId !== undefined
      ? requester.clientId === clientId
      : !(await isConfidential(deps.clients, clientId, input.now));
  if (!allowed) return;
  const ended = await deps.grants.end(grantId);
  if (ended) deps.logger.info('app disconnected by its client', { grant_id: ended.id });
}

/** Whether a client_id names a registration with a secret. */
async function isConfidential(
  clients: Pick<ClientStore, 'get'>,
  clientId: string,
  now: number,
): Promise<boolean> {
  if (isMetadataDocumentUrl(clientId)) return false;
  const client = await clients.get(clientId, now);
  return (client?.tokenEndpointAuthMethod ?? 'none') !== 'none';
}
