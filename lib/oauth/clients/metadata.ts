// A client's metadata as this server accepts it (RFC 7591 2), the same rules for a registration
// and for a client ID metadata document: the redirect URIs it can use (the others are left out:
// RFC 7591 3.2.1 lets a server replace what it was asked for, and a host such as Cursor lists a
// URI we refuse beside two we take), a printable name, how it authenticates at the token
// endpoint, and the grant and response types there are. What a client lists beyond what is
// served is left out the same way when it can do without it: claude.ai's metadata document
// lists the jwt-bearer grant (anthropics/claude-ai-mcp #487), ChatGPT's prefers private_key_jwt
// and lists none among its methods (Altinity/altinity-mcp #118, tableau/tableau-mcp #814).

import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris';

/** How a client authenticates at the token and revocation endpoints (RFC 7591 2). */
export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'none',
  'client_secret_post',
  'client_secret_basic',
] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** The longest client_name shown to a person. */
export const MAX_CLIENT_NAME_CHARS = 100;
/** The grant types every client gets, and the only ones there are. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token'];

/** Metadata as a client sends it (a registration's body, or a metadata document). */
export interface ClientMetadataInput {
  redirect_uris?: unknown;
  client_name?: unknown;
  token_endpoint_auth_method?: unknown;
  /** The methods it can use, when it can use more than one (a metadata document's). */
  token_endpoint_auth_methods_supported?: unknown;
  grant_types?: unknown;
  response_types?: unknown;
}

/** What is kept of a client's metadata. */
export interface AcceptedMetadata {
  /** The redirect URIs it can use, in its order, each once. */
  redirectUris: string[];
  /** How many it listed that cannot be used (left out). */
  refusedRedirectUris: number;
  /** Its client_name, trimmed, or undefined when it gave none. */
  clientName: string | undefined;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
}

/** Why metadata cannot be accepted: the RFC 7591 3.2.2 error code, and what is wrong. */
export interface MetadataRefusal {
  code: 'invalid_redirect_uri' | 'invalid_client_metadata';
  detail: string;
}

const quoted = (value: unknown) => JSON.stringify(String(value).slice(0, 200));

/** The redirect URIs that can be used, or why none can. */
function usableRedirectUris(uris: unknown): { kept: string[]; refused: number } | MetadataRefusal {
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    return {
      code: 'invalid_redirect_uri',
      detail: `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`,
    };
  }
  const kept: string[] = [];
  const refused: string[] = [];
  for (const uri of uris) {
    const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'is not a string';
    if (problem) refused.push(`redirect_uri ${quoted(uri)} ${problem}`);
    else if (!kept.includes(uri)) kept.push(uri);
  }
  if (kept.length === 0) {
    const more = refused.length > 1 ? ` (and ${refused.length - 1} more that cannot be used)` : '';
    return { code: 'invalid_redirect_uri', detail: `${refused[0]}${more}` };
  }
  return { kept, refused: refused.length };
}

/**
 * The method a client asked for. Left out, it is "none": RFC 7591 2 makes client_secret_basic the
 * default, but a client that asks for no secret has none to send, and reads the method from the
 * answer, which always states it. One not served here is "none" when the client lists "none"
 * among the methods it can use (OpenID Connect Registration 1.0, "RP Metadata Choices"): ChatGPT's
 * metadata document asks for private_key_jwt and lists none, and then uses none with PKCE.
 */
function authMethodOf(
  metadata: ClientMetadataInput,
  secretsAllowed: boolean,
): TokenEndpointAuthMethod | MetadataRefusal {
  const method = metadata.token_endpoint_auth_method;
  if (method === undefined) return 'none';
  const served: readonly unknown[] = secretsAllowed ? TOKEN_ENDPOINT_AUTH_METHODS : ['none'];
  if (served.includes(method)) return method as TokenEndpointAuthMethod;
  const choices = metadata.token_endpoint_auth_methods_supported;
  if (Array.isArray(choices) && choices.includes('none')) return 'none';
  if (!secretsAllowed) {
    return {
      code: 'invalid_client_metadata',
      detail: 'token_endpoint_auth_method must be "none": such a client has no secret here',
    };
  }
  return {
    code: 'invalid_client_metadata',
    detail: `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}`,
  };
}

/** Why a client_name cannot be shown, or undefined. */
function nameProblem(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  // Control and format characters (right-to-left overrides, zero-width joiners) could make a
  // name read as another on the consent screen.
  if (typeof name !== 'string' || name.trim() === '' || /\p{C}/u.test(name)) {
    return 'client_name must be printable text';
  }
  if ([...name.trim()].length > MAX_CLIENT_NAME_CHARS) {
    return `client_name must be at most ${MAX_CLIENT_NAME_CHARS} characters`;
  }
  return undefined;
}

/** Why the grant or response types cannot be served, or undefined. */
function typesProblem(grants: unknown, responses: unknown): string | undefined {
  // Grant types beyond these two are left out (every client gets GRANT_TYPES): a client that
  // cannot do without the code grant is the only one refused.
  if (grants !== undefined && (!Array.isArray(grants) || !grants.includes('authorization_code'))) {
    return 'grant_types must include authorization_code (grant types not served here are left out)';
  }
  if (
    responses !== undefined &&
    (!Array.isArray(responses) || responses.some((type) => type !== 'code'))
  ) {
    return 'response_types must be ["code"]';
  }
  return undefined;
}

/**
 * A client's metadata as accepted, or why it cannot be. `secretsAllowed`: whether the client may
 * authenticate with a secret (a registration; a metadata document's client has none to send).
 */
export function acceptClientMetadata(
  metadata: ClientMetadataInput,
  options: { secretsAllowed: boolean },
): AcceptedMetadata | MetadataRefusal {
  const uris = usableRedirectUris(metadata.redirect_uris);
  if ('code' in uris) return uris;
  const name = nameProblem(metadata.client_name);
  if (name) return { code: 'invalid_client_metadata', detail: name };
  const method = authMethodOf(metadata, options.secretsAllowed);
  if (typeof method !== 'string') return method;
  const types = typesProblem(metadata.grant_types, metadata.response_types);
  if (types) return { code: 'invalid_client_metadata', detail: types };
  return {
    redirectUris: uris.kept,
    refusedRedirectUris: uris.refused,
    clientName: typeof metadata.client_name === 'string' ? metadata.client_name.trim() : undefined,
    tokenEndpointAuthMethod: method,
  };
}

/** Whether acceptClientMetadata refused the metadata. */
export const isRefusal = (
  outcome: AcceptedMetadata | MetadataRefusal,
): outcome is MetadataRefusal => 'code' in outcome;
