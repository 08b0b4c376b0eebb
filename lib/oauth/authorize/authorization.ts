// The authorization endpoint (RFC 6749 4.1, OAuth 2.1): a client's request is checked, kept as a
// pending request, and the person is sent to the page to sign in and answer it; their answer
// makes a code (Allow) or an access_denied (Deny), sent back to the client's redirect URI.
// Until the client and its redirect URI are known to belong together, nothing is sent there: an
// unknown client or a redirect URI it did not register gets an error page (UntrustedClientError).
// Every later problem (no PKCE, `plain`, another resource) goes back to the client as OAuth says.
// Every answer that goes back (a code, access_denied, any other error) names the issuer, `iss`
// (RFC 9207), exactly as the authorization server metadata does, so that a client talking to
// several servers can tell which one answered (a mix-up attack).

import { RANDOM_ID_PATTERN, randomId } from '../../util/random-id';
import { type ClientStore, isMetadataDocumentUrl } from '../clients/clients';
import { redirectHost, redirectUriMatches, redirectWith } from '../clients/redirect-uris';
import { tooManyConnectedApps, UntrustedClientError, unknownAuthorizationRequest } from '../errors';
import { MAX_CONNECTED_APPS } from '../limits';
import { grantedScope, grantedScopes, SCOPES } from '../scopes';
import type { GrantStore } from '../tokens/grant-store';
import type { ClientDirectory } from './client-directory';
import {
  AUTHORIZATION_REQUEST_TTL_MS,
  type AuthorizationRequest,
  type FlowStore,
} from './flow-store';
import { CODE_CHALLENGE_PATTERN, newAuthorizationCode, secretHash } from './secrets';

/** The longest `state` and `scope` taken (they travel in URLs). */
const MAX_PARAMETER_CHARS = 1_000;

export interface AuthorizeDependencies {
  directory: ClientDirectory;
  flows: Pick<FlowStore, 'putRequest'>;
}

/** Where the person goes next: the page, with the pending request's id, or back to the client. */
export type AuthorizeOutcome =
  | { kind: 'consent'; requestId: string }
  | { kind: 'redirect'; location: string };

const PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'resource',
  'scope',
] as const;

/**
 * Checks an authorization request (its raw query string, where a repeated parameter shows) for
 * this deployment's /mcp `resource`, and keeps it for the person to answer.
 * @throws UntrustedClientError (the error page) for a missing, unknown or unverifiable client, or
 * a redirect_uri it did not register; ServiceUnavailableError when DynamoDB fails.
 */
export async function authorize(
  deps: AuthorizeDependencies,
  rawQuery: string,
  input: { resource: string; now: number },
): Promise<AuthorizeOutcome> {
  const one = parameterReader(rawQuery);
  const { client, redirectUri } = await trustedTarget(deps, one, input.now);

  // From here on, problems go back to the client, with its state and our issuer.
  const state = one('state');
  const refused = refusal(one, input.resource);
  if (refused) {
    return {
      kind: 'redirect',
      location: redirectWith(redirectUri, {
        error: refused[0],
        error_description: refused[1],
        state: state.repeated ? undefined : state.value,
        iss: issuerOf(input.resource),
      }),
    };
  }

  const requestId = randomId();
  const request: AuthorizationRequest = {
    clientId: client.clientId,
    clientName: client.clientName ?? '',
    redirectUri,
    codeChallenge: one('code_challenge').value as string,
    resource: input.resource,
    requestExpiresAt: input.now + AUTHORIZATION_REQUEST_TTL_MS,
    // What Allow will grant: the service's scopes the app asked for (all of them when it asked
    // for none of ours), which the consent screen shows.
    scope: grantedScope(one('scope').value),
    ...(state.value === undefined ? {} : { state: state.value }),
  };
  await deps.flows.putRequest(requestId, request);
  return { kind: 'consent', requestId };
}

/** One parameter of a request: its first value, and whether it is given more than once. */
type ParameterReader = (name: (typeof PARAMETERS)[number]) => {
  value: string | undefined;
  repeated: boolean;
};

/** The parameters of a raw query string, where a repeated one shows. */
function parameterReader(rawQuery: string): ParameterReader {
  const query = new URLSearchParams(rawQuery);
  return (name) => {
    const values = query.getAll(name);
    return { value: values[0], repeated: values.length > 1 };
  };
}

/**
 * The client and the redirect URI it registered, before anything goes back to it.
 * @throws UntrustedClientError for a missing, unknown or unverifiable client, or a redirect_uri
 * it did not register.
 */
async function trustedTarget(deps: AuthorizeDependencies, one: ParameterReader, now: number) {
  const clientId = one('client_id');
  if (clientId.value === undefined || clientId.value === '' || clientId.repeated) {
    throw new UntrustedClientError('The request names no client (client_id, once).');
  }
  const client = await deps.directory.find(clientId.value, now);
  const redirect = one('redirect_uri');
  let redirectUri = redirect.value;
  // OAuth 2.1 lets a client with exactly one redirect URI leave it out.
  if (redirectUri === undefined && client.redirectUris.length === 1) {
    redirectUri = client.redirectUris[0];
  }
  if (
    redirectUri === undefined ||
    redirect.repeated ||
    !redirectUriMatches(redirectUri, client.redirectUris)
  ) {
    throw new UntrustedClientError(
      'The app asked to send you to an address it did not register: nothing was sent there.',
    );
  }
  return { client, redirectUri };
}

/**
 * What is wrong with the request for `resource`, as OAuth's error and its description, in the
 * order they are checked; undefined for a request to keep.
 */
function refusal(one: ParameterReader, resource: string): [string, string] | undefined {
  const repeated = PARAMETERS.find((name) => one(name).repeated);
  if (repeated) return ['invalid_request', `${repeated} is given more than once`];
  if (one('response_type').value !== 'code') {
    return ['unsupported_response_type', 'response_type must be code'];
  }
  const challenge = one('code_challenge').value;
  if (challenge === undefined) {
    return ['invalid_request', 'code_challenge is required: PKCE with S256'];
  }
  if (one('code_challenge_method').value !== 'S256') {
    return ['invalid_request', 'code_challenge_method must be S256 (plain is not accepted)'];
  }
  if (!CODE_CHALLENGE_PATTERN.test(challenge)) {
    return ['invalid_request', 'code_challenge is not an S256 challenge (43 base64url characters)'];
  }
  const asked = one('resource').value;
  if (asked !== undefined && !sameResource(asked, resource)) {
    return ['invalid_target', `resource must be ${resource}`];
  }
  if (
    (one('state').value?.length ?? 0) > MAX_PARAMETER_CHARS ||
    (one('scope').value?.length ?? 0) > MAX_PARAMETER_CHARS
  ) {
    return [
      'invalid_request',
      `state and scope may take at most ${MAX_PARAMETER_CHARS} characters`,
    ];
  }
  return undefined;
}

/**
 * The issuer of the requests for `resource` (this deployment's /mcp, `<origin>/mcp`): the origin,
 * which the metadata names as `issuer` (requestOrigin gives it in the form URL's origin has).
 */
const issuerOf = (resource: string): string => new URL(resource).origin;

/** The resource asked for is ours: the same URL, give or take one trailing slash. */
function sameResource(asked: string, ours: string): boolean {
  return asked === ours || asked === `${ours}/`;
}

/** What the consent screen shows of a pending request. */
export async function viewRequest(flows: Pick<FlowStore, 'getRequest'>, id: string, now: number) {
  const request = RANDOM_ID_PATTERN.test(id) ? await flows.getRequest(id, now) : undefined;
  if (!request) throw unknownAuthorizationRequest();
  return {
    client_id: request.clientId,
    client_name: request.clientName === '' ? null : request.clientName,
    redirect_uri: request.redirectUri,
    redirect_host: redirectHost(request.redirectUri),
    scopes: grantedScopes(request.scope).map((scope) => ({
      scope,
      description: SCOPES[scope],
    })),
    expires_at: new Date(request.requestExpiresAt).toISOString(),
  };
}

export interface DecisionDependencies {
  flows: Pick<FlowStore, 'takeRequest' | 'putCode'>;
  clients: Pick<ClientStore, 'keepUntil'>;
  grants: Pick<GrantStore, 'listedIds' | 'get' | 'unlist'>;
  /** How long a connection lives unrefreshed (OAUTH_GRANT_TTL_DAYS): an allowed client, as long. */
  grantTtlMs: number;
}

/**
 * The person's answer to a pending request: where to send them (the client's redirect URI with
 * a code, or with access_denied). The request is answered once.
 * @throws NotFoundError when it is unknown, expired or answered; ConflictError when the person
 * has MAX_CONNECTED_APPS apps connected already; ServiceUnavailableError when DynamoDB fails.
 */
export async function decide(
  deps: DecisionDependencies,
  input: { id: string; userId: string; decision: 'allow' | 'deny'; now: number },
): Promise<{ redirect_to: string }> {
  const { now } = input;
  if (input.decision === 'allow') await assertRoomForAnother(deps.grants, input.userId, now);
  const request = RANDOM_ID_PATTERN.test(input.id)
    ? await deps.flows.takeRequest(input.id, now)
    : undefined;
  if (!request) throw unknownAuthorizationRequest();
  if (input.decision === 'deny') {
    return {
      redirect_to: redirectWith(request.redirectUri, {
        error: 'access_denied',
        error_description: 'The person did not allow this app.',
        state: request.state,
        iss: issuerOf(request.resource),
      }),
    };
  }
  const code = newAuthorizationCode();
  const { requestExpiresAt: _, state, ...bound } = request;
  await deps.flows.putCode(secretHash(code), { ...bound, userId: input.userId }, now);
  // A registration a person allowed is kept as long as a connection is.
  if (!isMetadataDocumentUrl(request.clientId)) {
    await deps.clients.keepUntil(request.clientId, now + deps.grantTtlMs);
  }
  return {
    redirect_to: redirectWith(request.redirectUri, {
      code,
      state,
      iss: issuerOf(request.resource),
    }),
  };
}

/**
 * Refuses another connection when the person's list is full of live ones (entries of grants
 * that expired are taken off on the way).
 */
async function assertRoomForAnother(
  grants: DecisionDependencies['grants'],
  userId: string,
  now: number,
): Promise<void> {
  const ids = await grants.listedIds(userId);
  if (ids.length < MAX_CONNECTED_APPS) return;
  let live = 0;
  for (const id of ids) {
    if (await grants.get(id, now)) live++;
    else await grants.unlist(userId, id);
  }
  if (live >= MAX_CONNECTED_APPS) {
    throw tooManyConnectedApps();
  }
}
