// The OAuth area's schemas, one module: the metadata documents (RFC 9728, RFC 8414), dynamic
// registration (RFC 7591), the token and revocation endpoints (RFC 6749, RFC 7009), the
// authorization endpoint's query, and what the page reads and sends to answer a request and to
// list connected apps. The route table names them; the OpenAPI document is made from them.

import * as z from '../schema';
import { RANDOM_ID_PATTERN } from '../util/random-id';
import { TOKEN_ENDPOINT_AUTH_METHODS } from './clients/metadata';

const text = (max: number, description?: string) =>
  z.string().check(z.maxLength(max), ...(description ? [z.meta({ description })] : []));

// ---- metadata ------------------------------------------------------------------------------

export const protectedResourceMetadataSchema = z
  .object({
    resource: z
      .string()
      .check(z.meta({ description: 'The MCP endpoint: what access tokens are for (their aud)' })),
    authorization_servers: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    resource_name: z.string(),
  })
  .check(z.meta({ id: 'ProtectedResourceMetadata', description: 'RFC 9728' }));

export const authorizationServerMetadataSchema = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
    scopes_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z
      .boolean()
      .check(z.meta({ description: 'RFC 9207: every authorization response carries iss' })),
    response_types_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    client_id_metadata_document_supported: z.boolean(),
  })
  .check(z.meta({ id: 'AuthorizationServerMetadata', description: 'RFC 8414' }));

// ---- registration --------------------------------------------------------------------------

/** Fields of RFC 7591 that are read; any other is accepted and ignored. */
export const registrationRequestSchema = z
  .object({
    redirect_uris: z.array(z.string().check(z.maxLength(4_096))).check(
      z.maxLength(100),
      z.meta({
        description:
          'https URIs; http on a loopback address (127.0.0.1, [::1], localhost; any port); an app’s private-use scheme (reverse-domain such as com.example.app:/cb, or cursor:, vscode:, vscode-insiders:). Those that cannot be used are left out; none usable is invalid_redirect_uri',
        examples: [
          [
            'cursor://anysphere.cursor-mcp/oauth/callback',
            'https://www.cursor.com/agents/mcp/oauth/callback',
            'http://localhost:8787/callback',
          ],
        ],
      }),
    ),
    client_name: z.optional(text(1_000, 'What the consent screen calls the app')),
    token_endpoint_auth_method: z.optional(
      text(
        100,
        'none (a public client; also when left out), client_secret_post or client_secret_basic (a confidential client: the answer holds its secret)',
      ),
    ),
    grant_types: z.optional(z.array(text(100))),
    response_types: z.optional(z.array(text(100))),
    scope: z.optional(text(1_000)),
  })
  .check(z.meta({ id: 'ClientRegistrationRequest' }));

export type RegistrationRequest = z.output<typeof registrationRequestSchema>;

export const registrationResponseSchema = z
  .object({
    client_id: z.string(),
    client_secret: z.optional(
      z
        .string()
        .check(
          z.meta({ description: 'A confidential client’s secret: shown here once, never again' }),
        ),
    ),
    client_secret_expires_at: z.optional(
      z.int().check(z.meta({ description: '0: the secret does not expire (RFC 7591 3.2.1)' })),
    ),
    client_id_issued_at: z.int(),
    client_name: z.optional(z.string()),
    redirect_uris: z
      .array(z.string())
      .check(z.meta({ description: 'The redirect URIs kept: those that can be used' })),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  })
  .check(z.meta({ id: 'ClientRegistration' }));

export type RegistrationResponse = z.output<typeof registrationResponseSchema>;

// ---- authorization -------------------------------------------------------------------------

/** The authorization endpoint's query (read again from the raw query string, so documented here). */
export const authorizeQuerySchema = z.object({
  response_type: z.optional(z.string().check(z.meta({ description: '"code"' }))),
  client_id: z.optional(
    z.string().check(z.meta({ description: 'A registered client, or a metadata document URL' })),
  ),
  redirect_uri: z.optional(
    z.string().check(z.meta({ description: 'One of the client’s redirect URIs, exactly' })),
  ),
  code_challenge: z.optional(z.string().check(z.meta({ description: 'PKCE: the S256 challenge' }))),
  code_challenge_method: z.optional(z.string().check(z.meta({ description: '"S256" (only)' }))),
  state: z.optional(z.string().check(z.meta({ description: 'Sent back unchanged' }))),
  resource: z.optional(
    z.string().check(z.meta({ description: 'RFC 8707: this deployment’s /mcp (the default)' })),
  ),
  scope: z.optional(
    z.string().check(
      z.meta({
        description:
          'summaries:read, summaries:write or both (space-separated); others are left out, and none of these means both',
      }),
    ),
  ),
});

/** The id of a pending authorization request (what GET /oauth/authorize hands the page). */
export const requestIdSchema = z
  .string()
  .check(
    z.maxLength(64),
    z.regex(RANDOM_ID_PATTERN),
    z.meta({ description: 'A pending authorization request' }),
  );

export const authorizationRequestViewSchema = z
  .object({
    client_id: z.string(),
    client_name: z
      .nullable(z.string())
      .check(z.meta({ description: 'What the app calls itself; null when it gave no name' })),
    redirect_uri: z.string(),
    redirect_host: z
      .string()
      .check(z.meta({ description: 'Where the person is sent back: the host to show them' })),
    scopes: z
      .array(z.object({ scope: z.string(), description: z.string() }))
      .check(z.meta({ description: 'What Allow grants: each scope, and what it allows' })),
    expires_at: z.string().check(z.meta({ description: 'ISO 8601: answer before this' })),
  })
  .check(z.meta({ id: 'AuthorizationRequest' }));

export const decisionBodySchema = z
  .object({ decision: z.enum(['allow', 'deny']) })
  .check(z.meta({ id: 'AuthorizationDecision' }));

export const decisionResponseSchema = z
  .object({
    redirect_to: z.string().check(
      z.meta({
        description: 'The client’s redirect URI with code and state (allow) or error=access_denied',
      }),
    ),
  })
  .check(z.meta({ id: 'AuthorizationAnswer' }));

// ---- tokens --------------------------------------------------------------------------------

/** What the token endpoint reads (a form); each grant's required fields are checked by it. */
export const tokenRequestSchema = z
  .object({
    grant_type: text(100, 'authorization_code or refresh_token'),
    code: z.optional(text(200)),
    code_verifier: z.optional(text(200)),
    redirect_uri: z.optional(text(4_096)),
    refresh_token: z.optional(text(200)),
    client_id: z.optional(text(4_096)),
    client_secret: z.optional(
      text(200, 'client_secret_post: the secret of a confidential client (not with Basic)'),
    ),
    resource: z.optional(text(4_096)),
    scope: z.optional(text(1_000)),
  })
  .check(z.meta({ id: 'OAuthTokenRequest' }));

export type TokenRequest = z.output<typeof tokenRequestSchema>;

export const oauthTokenResponseSchema = z
  .object({
    access_token: z.string().check(z.meta({ description: 'A JWT for /mcp only (its aud)' })),
    token_type: z.literal('Bearer'),
    expires_in: z.int().check(z.positive()),
    refresh_token: z
      .string()
      .check(z.meta({ description: 'Works once: the answer to it holds the next one' })),
    scope: z.string().check(
      z.meta({
        description: 'What the tokens may do (RFC 6749 5.1): the scopes the person allowed',
        examples: ['summaries:read summaries:write'],
      }),
    ),
  })
  .check(z.meta({ id: 'OAuthTokenResponse' }));

export type OAuthTokenResponse = z.output<typeof oauthTokenResponseSchema>;

export const revocationRequestSchema = z
  .object({
    token: text(4_096),
    token_type_hint: z.optional(text(100)),
    client_id: z.optional(text(4_096)),
    client_secret: z.optional(
      text(200, 'client_secret_post: the secret of a confidential client (not with Basic)'),
    ),
  })
  .check(z.meta({ id: 'OAuthRevocationRequest' }));

export const oauthErrorSchema = z
  .object({
    error: z.string().check(z.meta({ examples: ['invalid_grant'] })),
    error_description: z.string(),
    request_id: z.string(),
  })
  .check(z.meta({ id: 'OAuthError', description: 'RFC 6749 5.2' }));

// ---- connected apps ------------------------------------------------------------------------

export const connectedAppIdSchema = z
  .string()
  .check(
    z.maxLength(64),
    z.regex(RANDOM_ID_PATTERN),
    z.meta({ description: 'A connected app (a grant)' }),
  );

export const connectedAppSchema = z
  .object({
    id: z.string(),
    client_id: z.string(),
    client_name: z.nullable(z.string()),
    scope: z.string().check(
      z.meta({
        description: 'What it may do (space-separated scopes)',
        examples: ['summaries:read'],
      }),
    ),
    connected_at: z.string().check(z.meta({ description: 'ISO 8601' })),
    last_used_at: z
      .nullable(z.string())
      .check(z.meta({ description: 'ISO 8601, to the minute; null if never used' })),
  })
  .check(z.meta({ id: 'ConnectedApp' }));

export const connectedAppListSchema = z
  .object({ items: z.array(connectedAppSchema) })
  .check(z.meta({ id: 'ConnectedAppList' }));

export type ConnectedApp = z.output<typeof connectedAppSchema>;
