// The OAuth area's routes: how an AI app (claude.ai, Claude Desktop, ChatGPT, any MCP client with
// OAuth) connects to /mcp for a person. Discovery (RFC 9728, RFC 8414), registration (RFC 7591),
// the authorization endpoint and the page's answer to it, the token and revocation endpoints
// (RFC 6749, RFC 7009), and the person's list of connected apps.
import { TooManyRequestsError } from '../errors';
import {
  invalidClient,
  OAuthError,
  oauthNeedsLoginToken,
  tooManyConnectedApps,
  UntrustedClientError,
  unknownAuthorizationRequest,
  unknownConnectedApp,
} from '../oauth/errors';
import { MAX_CONNECTED_APPS } from '../oauth/limits';
import {
  authorizationRequestViewSchema,
  authorizationServerMetadataSchema,
  authorizeQuerySchema,
  connectedAppIdSchema,
  connectedAppListSchema,
  decisionBodySchema,
  decisionResponseSchema,
  oauthTokenResponseSchema,
  protectedResourceMetadataSchema,
  registrationRequestSchema,
  registrationResponseSchema,
  requestIdSchema,
  revocationRequestSchema,
  tokenRequestSchema,
} from '../oauth/schemas';
import * as z from '../schema';
import { anyRoute, handled, type ResponseDef, type RouteDef, route, withBody } from './route';

/** What an OAuth endpoint with a body answers besides its success (its errors are OAuth's JSON). */
const oauthEndpoint = {
  ...handled,
  400: {
    description:
      'OAuth error (invalid_request, invalid_grant, ...): also for a malformed body, a wrong Content-Type or invalid fields',
  },
} satisfies Record<number, ResponseDef>;

/** What the token and revocation endpoints answer a confidential client that fails to authenticate. */
const clientAuthFailed = {
  description:
    'invalid_client: a confidential client’s secret is wrong, missing, or sent by another method than it registered (WWW-Authenticate: Basic)',
  example: invalidClient('The client_id or client_secret is wrong.'),
} satisfies ResponseDef;

/** What the page's routes answer an API key with. */
const loginOnly = {
  403: {
    description: 'Authenticated with an API key: this needs the sign-in of the person',
    example: oauthNeedsLoginToken(),
  },
} satisfies Record<number, ResponseDef>;

const resourceMetadata = (path: string, summary: string) =>
  route({
    method: 'GET',
    path,
    function: 'oauth-metadata',
    auth: false,
    tag: 'oauth',
    summary,
    description:
      'RFC 9728 protected resource metadata of /mcp: the resource (the URL access tokens are for) and its authorization server (this deployment). An MCP client finds it named by the WWW-Authenticate of /mcp’s 401.',
    responses: {
      200: { description: 'The metadata', schema: protectedResourceMetadataSchema },
      ...anyRoute,
    },
  });

export const oauthRoutes = {
  oauthProtectedResource: resourceMetadata(
    '/.well-known/oauth-protected-resource/mcp',
    'OAuth: the protected resource metadata of /mcp',
  ),
  oauthProtectedResourceRoot: resourceMetadata(
    '/.well-known/oauth-protected-resource',
    'OAuth: the protected resource metadata (at the root, for clients that look there)',
  ),
  oauthAuthorizationServer: route({
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    function: 'oauth-metadata',
    auth: false,
    tag: 'oauth',
    summary: 'OAuth: the authorization server metadata',
    description:
      'RFC 8414: the endpoints (authorize, token, register, revoke), the authorization code grant with refresh tokens, S256 PKCE only, public clients (token_endpoint_auth_method none) and confidential ones (client_secret_post, client_secret_basic), and client ID metadata documents.',
    responses: {
      200: { description: 'The metadata', schema: authorizationServerMetadataSchema },
      ...anyRoute,
    },
  }),
  oauthRegister: route({
    method: 'POST',
    path: '/oauth/register',
    function: 'oauth-clients',
    auth: false,
    tag: 'oauth',
    summary: 'OAuth: register a client (RFC 7591 dynamic client registration)',
    description:
      'For MCP clients. token_endpoint_auth_method none (also when left out) makes a public client; client_secret_post or client_secret_basic a confidential one, whose client_secret is in this answer only (with client_secret_expires_at 0). Redirect URIs: https, http on a loopback address (any port), or an app’s private-use scheme (reverse-domain, or cursor:, vscode:, vscode-insiders:); those that cannot be used are left out of the answer, and only when none can is the registration refused. The same registration repeated from the same address within an hour costs nothing: a public client gets the same client_id back, a confidential one a new client and secret. Distinct registrations per address are limited (OAUTH_REGISTER_MAX_PER_IP an hour). A registration that no person allows within a day expires. Account registration is POST /register.',
    body: { schema: registrationRequestSchema, contentTypes: ['application/json'] },
    oauthErrors: 'invalid_client_metadata',
    responses: {
      201: {
        description:
          'The client: its client_id, the redirect URIs kept, its method, and a confidential client’s secret',
        schema: registrationResponseSchema,
      },
      ...oauthEndpoint,
      400: {
        description:
          'invalid_redirect_uri (no redirect URI can be used) or invalid_client_metadata (also for a malformed body or a wrong Content-Type)',
        example: new OAuthError(
          'invalid_redirect_uri',
          'redirect_uri "javascript:alert(1)" uses javascript:, which is never a redirect URI',
        ),
      },
      429: {
        description: 'Too many distinct registrations from this address this hour; see Retry-After',
        example: new TooManyRequestsError(
          1800,
          'Too many OAuth clients were registered from this address; try again later.',
          'too-many-client-registrations',
        ),
      },
    },
  }),
  oauthAuthorize: route({
    method: 'GET',
    path: '/oauth/authorize',
    function: 'oauth-clients',
    auth: false,
    tag: 'oauth',
    summary: 'OAuth: the authorization endpoint (a person connects an app)',
    description:
      'Opened in the person’s browser by the app. A request this deployment can trust (a known client and one of its redirect URIs, exactly) is answered with a page that takes the browser on at once to the consent screen of the page at / (?authorize=<request>), where the person signs in and allows or denies the app; any other problem of it (response_type not code, no PKCE challenge or not S256, another resource) goes back to the app’s redirect URI with error and state (303). An unknown client or a redirect URI it did not register gets an error page (400), never a redirect. scope: summaries:read, summaries:write or both (others are left out; none of these grants both). Every answer sent back to the app (a code, access_denied, any error) carries iss, the issuer of the metadata (RFC 9207).',
    query: authorizeQuerySchema,
    responses: {
      200: {
        description:
          'A page that forwards the browser to the consent screen (/?authorize=<request>) at once',
        contentTypes: ['text/html'],
      },
      303: {
        description: 'Back to the app’s redirect URI with error and state',
        headers: { Location: 'always' },
      },
      400: {
        description: 'An error page: the app or its redirect URI cannot be trusted',
        contentTypes: ['text/html'],
        example: new UntrustedClientError(
          'The app asked to send you to an address it did not register: nothing was sent there.',
        ),
      },
      ...handled,
      503: {
        description: 'An error page (or a problem): a dependency is unavailable; see Retry-After',
        contentTypes: ['text/html'],
      },
    },
  }),
  oauthToken: route({
    method: 'POST',
    path: '/oauth/token',
    function: 'oauth-token',
    auth: false,
    tag: 'oauth',
    summary: 'OAuth: the token endpoint (authorization_code with PKCE, refresh_token)',
    description:
      'A form (application/x-www-form-urlencoded). A confidential client authenticates by the method it registered: client_secret_post, client_id and client_secret in the form; client_secret_basic, Authorization: Basic base64(urlencode(client_id):urlencode(client_secret)) (RFC 6749 2.3.1). authorization_code: code, code_verifier, redirect_uri and client_id, all as in the authorization request; a code works once, for 60 s. refresh_token: refresh_token and client_id; each refresh token works once and the answer holds the next one. A code or refresh token presented a second time is invalid_grant and ends the connection it made. The access token is a JWT for /mcp only (the REST API answers 401 to it), valid OAUTH_ACCESS_TOKEN_TTL_SECONDS (at most an hour). Log-in with a password is POST /token.',
    body: {
      schema: tokenRequestSchema,
      contentTypes: ['application/x-www-form-urlencoded'],
    },
    oauthErrors: 'invalid_request',
    responses: {
      200: {
        description: 'The tokens (Cache-Control: no-store)',
        schema: oauthTokenResponseSchema,
      },
      ...oauthEndpoint,
      400: {
        description:
          'invalid_request, invalid_grant, unsupported_grant_type or invalid_target (also for a malformed body or a wrong Content-Type)',
        example: new OAuthError(
          'invalid_grant',
          'The authorization code was used already; what it gave is revoked.',
        ),
      },
      401: clientAuthFailed,
    },
  }),
  oauthRevoke: route({
    method: 'POST',
    path: '/oauth/revoke',
    function: 'oauth-token',
    auth: false,
    tag: 'oauth',
    summary: 'OAuth: revoke a token (RFC 7009): the app is disconnected',
    description:
      'A form with token (a refresh token or an access token of this deployment) and client_id; a confidential client authenticates as at POST /oauth/token. Ends the connection the token belongs to, if it is the client’s (a confidential client’s token, only with its secret). Answers 200 whether or not the token was known.',
    body: { schema: revocationRequestSchema, contentTypes: ['application/x-www-form-urlencoded'] },
    oauthErrors: 'invalid_request',
    responses: {
      200: { description: 'Done (or nothing to do)', schema: z.object({}) },
      ...oauthEndpoint,
      401: clientAuthFailed,
    },
  }),
  authorizationRequest: route({
    method: 'GET',
    path: '/oauth/requests/{id}',
    function: 'connected-apps',
    auth: true,
    loginOnly: true,
    tag: 'oauth',
    summary: 'The page: a connection request waiting for the person’s answer',
    description:
      'What the consent screen shows: the app’s name, what Allow grants (each scope, and what it allows) and where the person will be sent back. Needs the person’s access token from POST /token.',
    params: { id: requestIdSchema },
    responses: {
      200: { description: 'The request', schema: authorizationRequestViewSchema },
      ...handled,
      ...loginOnly,
      404: { description: 'Unknown, expired or answered', example: unknownAuthorizationRequest() },
    },
  }),
  answerAuthorizationRequest: route({
    method: 'POST',
    path: '/oauth/requests/{id}',
    function: 'connected-apps',
    auth: true,
    loginOnly: true,
    tag: 'oauth',
    summary: 'The page: allow or deny a connection request',
    description:
      'The person’s answer, once: allow gives the app an authorization code, deny an access_denied; either way the answer is where to send the browser (the app’s redirect URI). Needs the person’s access token from POST /token, sent from this origin (a request with another Origin is refused).',
    params: { id: requestIdSchema },
    body: { schema: decisionBodySchema, contentTypes: ['application/json'] },
    responses: {
      200: { description: 'Where to send the browser', schema: decisionResponseSchema },
      ...withBody,
      403: {
        description:
          'An API key (login-token-required), or a request from another site (cross-site-request)',
        example: oauthNeedsLoginToken(),
      },
      404: { description: 'Unknown, expired or answered', example: unknownAuthorizationRequest() },
      409: {
        description: `The person has ${MAX_CONNECTED_APPS} apps connected already (allow only)`,
        example: tooManyConnectedApps(),
      },
    },
  }),
  listConnectedApps: route({
    method: 'GET',
    path: '/connected-apps',
    function: 'connected-apps',
    auth: true,
    loginOnly: true,
    tag: 'oauth',
    summary: 'The apps the caller connected with OAuth',
    description:
      'Each with its name, when it was connected and when it last used /mcp (to the minute). Needs an access token from POST /token.',
    responses: {
      200: { description: 'The apps, newest first', schema: connectedAppListSchema },
      ...handled,
      ...loginOnly,
    },
  }),
  disconnectApp: route({
    method: 'DELETE',
    path: '/connected-apps/{id}',
    function: 'connected-apps',
    auth: true,
    loginOnly: true,
    tag: 'oauth',
    summary: 'Disconnect an app: its tokens are refused from the next request',
    description:
      'Ends the connection: its access tokens get 401 at /mcp and its refresh tokens invalid_grant, at once. Needs an access token from POST /token.',
    params: { id: connectedAppIdSchema },
    responses: {
      204: { description: 'Disconnected' },
      ...handled,
      ...loginOnly,
      404: { description: 'No such connected app of yours', example: unknownConnectedApp() },
    },
  }),
} as const satisfies Record<string, RouteDef>;
