// OAuth access tokens: JWTs (RFC 9068's `at+jwt`) signed with the service's key, for one resource
// only, this deployment's /mcp: `aud` is its URL and `iss` the deployment's origin. A login
// token (aud JWT_AUDIENCE, typ JWT) is not one, and an access token is not a login token: each
// is refused where the other is taken (no token passthrough, RFC 8707's audience binding).
// Besides the user, a token names its grant (`gid`), which /mcp looks up on every request:
// disconnecting the app refuses its tokens from the next request, though they have not expired.
import {
  type IssuedToken,
  signJwt,
  type TokenSettings,
  verifyJwt,
} from '../../accounts/auth/tokens';
import { mcpResource } from '../../http/headers/origin';

/** The JWT `typ` of an access token (RFC 9068), which a login token does not have. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

type SigningKey = Pick<TokenSettings, 'secret' | 'keyId'>;

/** Signs an access token of a grant for its user, for `origin`'s /mcp, valid `ttlSeconds`. */
export function issueAccessToken(
  key: SigningKey,
  origin: string,
  ttlSeconds: number,
  grant: { id: string; userId: string; clientId: string },
): Promise<IssuedToken> {
  return signJwt(
    key,
    { typ: ACCESS_TOKEN_TYPE, issuer: origin, audience: mcpResource(origin), ttlSeconds },
    grant.userId,
    { client_id: grant.clientId, gid: grant.id },
  );
}

/** What an access token says: whose it is, and of which grant. */
export interface AccessTokenClaims {
  userId: string;
  grantId: string;
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
  return { userId: payload.sub as string, grantId: String(payload.gid) };
}
