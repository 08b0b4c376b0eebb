// The accounts area's routes: GET /health (beside them: it needs no account, and its function
// imports none of this), POST /register, POST /token and DELETE /account. Their schemas are the
// area's own.
import {
  deleteAccountBodySchema,
  healthResponseSchema,
  registerBodySchema,
  registerResponseSchema,
  tokenBodySchema,
  tokenResponseSchema,
} from '../accounts/schemas';
import { deletionNeedsLoginToken } from '../accounts/users/errors';
import { ConflictError, TooManyRequestsError, UnauthorizedError, ValidationError } from '../errors';
import { anyRoute, type RouteDef, route, withBody } from './route';

export const accountRoutes = {
  health: route({
    method: 'GET',
    path: '/health',
    function: 'health',
    auth: false,
    tag: 'service',
    summary: 'Liveness check',
    description: 'Touches no dependency: healthy whenever the function runs.',
    responses: {
      200: { description: 'The service runs', schema: healthResponseSchema },
      ...anyRoute,
    },
  }),
  register: route({
    method: 'POST',
    path: '/register',
    function: 'register',
    auth: false,
    tag: 'accounts',
    summary: 'Create an account',
    description:
      'The password is stored only as a bcrypt hash. Usernames and emails are unique, compared case-insensitively.',
    body: { schema: registerBodySchema, contentTypes: ['application/json'] },
    responses: {
      201: { description: 'Registered', schema: registerResponseSchema },
      ...withBody,
      409: {
        description: 'Username or email already registered',
        example: new ConflictError('That username is already taken.'),
      },
      422: {
        description: 'Invalid fields (see errors)',
        example: new ValidationError([
          {
            field: 'password',
            message: 'This password is one of the most commonly used: choose another.',
          },
        ]),
      },
      429: {
        description:
          'Too many accounts registered from this address this hour, or too many password hashes from this address; see Retry-After',
        example: new TooManyRequestsError(
          3600,
          'Too many accounts were registered from this address; try again later.',
          'too-many-registrations',
        ),
      },
    },
  }),
  token: route({
    method: 'POST',
    path: '/token',
    function: 'token',
    auth: false,
    tag: 'accounts',
    summary: 'Log in: exchange username (or email) and password for an access token',
    description:
      "Takes JSON or an OAuth2 password-grant form (what Swagger UI's Authorize button sends). Every failed login gets the same 401; after repeated failures for one account, logins are refused for a while (429).",
    body: {
      schema: tokenBodySchema,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    },
    oauth2Errors: true,
    responses: {
      200: { description: 'A bearer token', schema: tokenResponseSchema },
      ...withBody,
      401: {
        description: 'Wrong username, email or password (always the same answer)',
        example: new UnauthorizedError('invalid_credentials'),
      },
      422: {
        description: 'Invalid fields (see errors)',
        example: new ValidationError([{ field: 'password', message: 'Fill in this field.' }]),
      },
      429: {
        description:
          'Too many failed logins for this account (from this address or from everywhere), or too many password checks from this address; see Retry-After',
        example: new TooManyRequestsError(
          900,
          'Too many failed logins for this account; try again later.',
          'too-many-login-attempts',
        ),
      },
    },
  }),
  // `/account`, not `/users/{id}` nor `/me`: the caller's own account, the one the token names,
  // as a resource of its own. There is no id to send, so none to guess or to get wrong (no
  // object-level authorization to check), and the name says what goes.
  deleteAccount: route({
    method: 'DELETE',
    path: '/account',
    function: 'account',
    auth: true,
    loginOnly: true,
    tag: 'accounts',
    summary: "Delete the caller's account and everything it owns",
    description:
      "Needs an access token from POST /token (not an API key) and the account's password in the body. Deletes the account (its username and email can be registered again at once), every API key of it (they stop working at once) and its summary jobs (the history); summaries themselves are shared and belong to no one. Tokens already issued are refused from then on. The password is checked as POST /token checks one, and counts against the same limits: a wrong password is a failed login (403 wrong-password), and repeated ones are refused with 429. A deletion interrupted by a failure (503) finishes when the same request is sent again with the same token.",
    body: { schema: deleteAccountBodySchema, contentTypes: ['application/json'] },
    responses: {
      204: { description: 'Deleted: the account and its data are gone' },
      ...withBody,
      403: {
        description:
          'An API key instead of an access token (login-token-required), or the wrong password (wrong-password); nothing was deleted',
        example: deletionNeedsLoginToken(),
      },
      422: {
        description: 'No password (see errors)',
        example: new ValidationError([{ field: 'password', message: 'Fill in this field.' }]),
      },
      429: {
        description:
          'Too many failed logins for this account (this confirmation counts as one), or too many password checks from this address; see Retry-After',
        example: new TooManyRequestsError(
          900,
          'Too many failed logins for this account; try again later.',
          'too-many-login-attempts',
        ),
      },
    },
  }),
} as const satisfies Record<string, RouteDef>;
