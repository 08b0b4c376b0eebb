// The errors of the OAuth authorization server, by the codes OAuth gives them (RFC 6749 4.1.2.1
// and 5.2, RFC 7591 3.2.2, RFC 8707 2, RFC 7009 2.2.1). Each is an HttpError carrying its code,
// which an OAuth endpoint answers as `error` (oauthErrorReply).
import {
  ConflictError,
  ForbiddenError,
  HttpError,
  type HttpErrorOptions,
  NotFoundError,
} from '../errors';
import { MAX_CONNECTED_APPS } from './limits';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied';

/** An OAuth error: 400, or 401 for invalid_client (RFC 6749 5.2). */
export class OAuthError extends HttpError {
  override name = 'OAuthError';
  constructor(
    readonly code: OAuthErrorCode,
    detail: string,
    options: HttpErrorOptions = {},
  ) {
    super(
      code === 'invalid_client' ? 401 : 400,
      `oauth-${code.replaceAll('_', '-')}`,
      'OAuth error',
      {
        ...options,
        detail,
        extensions: { error: code, ...options.extensions },
      },
    );
  }
}

/**
 * 401 invalid_client: a confidential client's secret wrong, missing or sent by another method than
 * it registered (RFC 6749 5.2). Always with a Basic challenge: RFC 6749 asks for one when the
 * client tried Basic, and RFC 9110 asks every 401 for one.
 */
export const invalidClient = (detail: string) =>
  new OAuthError('invalid_client', detail, {
    headers: { 'WWW-Authenticate': 'Basic realm="tubesum"' },
  });

/** The same answer for a code or refresh token that is unknown, expired, used or not this client's. */
export const invalidGrant = (detail: string) => new OAuthError('invalid_grant', detail);

/**
 * Why an authorization request cannot be sent back to its client: its client_id or redirect_uri
 * cannot be trusted, so the person gets an error page, never a redirect (RFC 6749 4.1.2.1).
 */
export class UntrustedClientError extends HttpError {
  override name = 'UntrustedClientError';
  constructor(detail: string, options: HttpErrorOptions = {}) {
    super(400, 'oauth-untrusted-client', 'This app cannot be connected', { ...options, detail });
  }
}

/** The same 404 for a connection request that never was, has expired, or was answered. */
export const unknownAuthorizationRequest = () =>
  new NotFoundError(
    'This connection request has expired or was answered already: start again from the app.',
    'authorization-request-not-found',
  );

/** The same 404 for a connected app that is not the caller's, or no longer connected. */
export const unknownConnectedApp = () =>
  new NotFoundError('No such connected app of yours.', 'connected-app-not-found');

/**
 * 403 for an API key where a person's own sign-in is needed: answering a connection request and
 * managing connected apps. A leaked key must not be able to connect an app of its holder's.
 */
export const oauthNeedsLoginToken = () =>
  new ForbiddenError(
    'login-token-required',
    'Connecting and disconnecting apps needs an access token from POST /token (the page’s sign-in); an API key cannot.',
  );

/** 403 for an answer to a connection request sent from a page of another origin. */
export const crossSiteAnswer = () =>
  new ForbiddenError(
    'cross-site-request',
    'A connection request is answered from this service’s own page, not from another site.',
  );

/** 409 when a person with MAX_CONNECTED_APPS live connections allows one more. */
export const tooManyConnectedApps = () =>
  new ConflictError(
    `You have ${MAX_CONNECTED_APPS} apps connected: disconnect one first.`,
    'too-many-connected-apps',
  );
