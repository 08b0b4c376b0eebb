// What this deployment tells OAuth clients about itself: the protected resource metadata of its
// /mcp (RFC 9728), which names the authorization server, and that server's metadata (RFC 8414),
// with exactly the fields MCP clients read. The registration endpoint is /oauth/register:
// /register is account registration, which a client probing the MCP spec's old default finds.
import { mcpResource } from '../config/origin';
import { ALL_SCOPES } from './scopes';

/** Where the endpoints are, below the origin. */
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** The path of /mcp's protected resource metadata (RFC 9728 3.1: the resource's path appended). */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

/** RFC 9728: /mcp, and who issues tokens for it. */
export function protectedResourceMetadata(origin: string) {
  return {
    resource: mcpResource(origin),
    authorization_servers: [origin],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'tubesum',
  };
}

/** RFC 8414: the authorization server's endpoints and what it supports. */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: origin + OAUTH_PATHS.authorize,
    token_endpoint: origin + OAUTH_PATHS.token,
    registration_endpoint: origin + OAUTH_PATHS.register,
    revocation_endpoint: origin + OAUTH_PATHS.revoke,
    scopes_supported: [...ALL_SCOPES],
    // RFC 9207: `iss` on every authorization response.
    authorization_response_iss_parameter_supported: true,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    client_id_metadata_document_supported: true,
  };
}
