// Authentication of protected routes: only `Authorization: Bearer <credential>` counts (tokens in
// query strings or cookies are ignored). The credential is an access token or an API key
// (`tsk_...`, told apart by its prefix), and its user must still exist. Which access tokens a
// route takes is its authenticator's choice: the REST API's take login tokens (JWTs from
// POST /token); /mcp's take OAuth access tokens for /mcp instead, and its
// 401s name the resource metadata an OAuth client starts from (RFC 9728 5.1) and the scopes to
// ask for (MCP's authorization specification). An access token's scopes go with its principal;
// the route checks them (/mcp's tools, with a 403 insufficient_scope).

import { UnauthorizedError } from '../../errors';
import { looksLikeApiKey } from '../api-keys/secret';
import type { ApiKeyVerifier } from '../api-keys/service';
import type { User } from '../users/store';
import { InvalidTokenError, type TokenSettings, verifyToken } from './tokens';

/** Who a request is from, and with which credential. */
export interface Principal {
  user: User;
  /** The id of the API key the request brought; undefined for an access token. */
  apiKeyId?: string;
  /** The OAuth grant (connected app) whose access token the request brought. */
  grantId?: string;
  /** What an OAuth access token may do (its scopes); undefined: anything (API keys, login tokens). */
  scopes?: readonly string[];
}

/** Where a request went: what an audience-bound token is checked against. */
export interface RequestTarget {
  /** The deployment's origin as the request reached it. */
  origin: string;
}

/** What createRouteStack calls on protected routes with the Authorization header. */
export type Authenticator = (
  authorization: string | undefined,
  target?: RequestTarget,
) => Promise<Principal>;

/** An access token's user (and grant and scopes), or InvalidTokenError. */
export type AccessTokenVerifier = (
  token: string,
  target: RequestTarget,
) => Promise<{ userId: string; grantId?: string; scopes?: readonly string[] }>;

export interface BearerDependencies {
  /** The settings tokens are verified with (tokenSettingsFrom). */
  tokenSettings: () => Promise<TokenSettings>;
  /** The user a credential names, if it still exists. */
  findUser: (id: string) => Promise<User | undefined>;
  /** The holder of an API key, if it exists (createApiKeyVerifier). */
  verifyApiKey: ApiKeyVerifier;
  /** The access tokens taken instead of login tokens (/mcp's OAuth access tokens). */
  verifyAccessToken?: AccessTokenVerifier;
  /** The URL of the protected resource metadata a 401 names (/mcp's), if any. */
  resourceMetadata?: (target: RequestTarget) => string;
  /** The scopes a 401 names (/mcp's: all of them), if any. */
  scope?: string;
}

/**
 * Authenticates bearer credentials: the user an access token or API key belongs to.
 * The authenticator throws UnauthorizedError (one shape for every token and key failure),
 * ConfigError without a usable secret, and ServiceUnavailableError when DynamoDB fails.
 */
export function createBearerAuthenticator(deps: BearerDependencies): Authenticator {
  const verifyAccessToken: AccessTokenVerifier =
    deps.verifyAccessToken ??
    (async (token) => ({ userId: await verifyToken(await deps.tokenSettings(), token) }));
  return async (authorization, target = { origin: '' }) => {
    const challenge = deps.resourceMetadata && {
      resourceMetadata: deps.resourceMetadata(target),
      scope: deps.scope,
    };
    const invalid = () => new UnauthorizedError('invalid_token', challenge);
    if (authorization === undefined || authorization.trim() === '') {
      throw new UnauthorizedError('missing_token', challenge);
    }
    const match = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(authorization.trim());
    const credential = match?.[1];
    if (!credential) throw invalid();
    if (looksLikeApiKey(credential)) {
      const holder = await deps.verifyApiKey(credential);
      const user = holder && (await deps.findUser(holder.userId));
      // A deleted user's keys die with them, as their tokens do.
      if (!holder || !user) throw invalid();
      return { user, apiKeyId: holder.keyId };
    }
    let verified: Awaited<ReturnType<AccessTokenVerifier>>;
    try {
      verified = await verifyAccessToken(credential, target);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw invalid();
      throw error;
    }
    const user = await deps.findUser(verified.userId);
    if (!user) throw invalid();
    return {
      user,
      ...(verified.grantId === undefined ? {} : { grantId: verified.grantId }),
      ...(verified.scopes === undefined ? {} : { scopes: verified.scopes }),
    };
  };
}
