// OAuth access tokens: JWTs (RFC 9068's `at+jwt`) signed with the service's key, for one resource
// only, this deployment's /mcp: `aud` is its URL and `iss` the deployment's origin. A login
// token (aud JWT_AUDIENCE, typ JWT) is not one, and an access token is not a login token: each
// is refused where the other is taken (no token passthrough, RFC 8707's audience binding).
// Besides the user, a token names its grant (`gid`), which /mcp looks up on every request:
// disconnecting the app refuses its tokens from the next request, though they have not expired;
// and its grant's scope (`scope`, space-separated as RFC 9068 2.2.3 has it), which /mcp's tools
// check. Like login tokens, they are taken up to CLOCK_TOLERANCE_SECONDS (30 s) past `exp`.
import {
  type IssuedToken,
  signJwt,
  type TokenSettings,
  verifyJwt,
} from '../../accounts/auth/tokens';
import { mcpResource } from '../../config/origin';
import { grantedScope, grantedScopes, type Scope } from '../scopes';

/** The JWT `typ` of an access token (RFC 9068), which a login token does not have. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

type SigningKey = Pick<TokenSettings, 'secret' | 'keyId'>;

/**
 * Signs an access token of a grant for its user, for `origin`'s /mcp, valid `ttlSeconds`, with
 * the grant's scope.
 */
export function issueAccessToken(
  key: SigningKey,
  origin: string,
  ttlSeconds: number,
  grant: { id: string; userId: string; clientId: string; scope?: string | undefined },
): Promise<IssuedToken> {
  return signJwt(
    key,
    { typ: ACCESS_TOKEN_TYPE, issuer: origin, audience: mcpResource(origin), ttlSeconds },
    grant.userId,
    { client_id: grant.clientId, gid: grant.id, scope: grantedScope(grant.scope) },
  );
}

/** What an access token says: whose it is, of which grant, and what it may do. */
export interface AccessTokenClaims {
  userId: string;
  grantId: string;
  /** Its `scope` claim's scopes (every scope for a token made before scopes, which has none). */
  scopes: Scope[];
}

/**
 * Verifies an access token for `origin`'s /mcp.
 * @throws InvalidTokenError for anything else (a login token, another audience or issuer).
 */
export async function verifyAccessToken(
  key: SigningKey,
  origin: string,
  token: string,
): Promise<AccessTokenClaims> {
  const payload = await verifyJwt(key, token, {
    issuer: origin,
    audience: mcpResource(origin),
    typ: ACCESS_TOKEN_TYPE,
    claims: ['gid'],
  });
  const scope = typeof payload.scope === 'string' ? payload.scope : undefined;
  return {
    userId: payload.sub as string,
    grantId: String(payload.gid),
    scopes: grantedScopes(scope),
  };
}
