// The problems of DELETE /account, made in one place so that the route table's examples are the
// very errors the service throws. Apart from deletion.ts, so that the route table (which register
// and token bundle too) does not bundle the deletion and the stores it uses.

import { ForbiddenError } from '../../errors';
import { loginTokenRequired } from '../api-keys/errors';

/**
 * 403 for a deletion confirmed with the wrong password. Not a 401: the access token is good (a
 * 401 would tell clients, the page included, to sign in again), the confirmation is not.
 */
export const wrongPassword = () =>
  new ForbiddenError(
    'wrong-password',
    'That is not the password of this account; nothing was deleted.',
  );

/**
 * 403 for DELETE /account with an API key: the API keys' login-token-required problem (its type,
 * which clients already know), with a detail about this route. A leaked key, which lives until it
 * is deleted, must not be able to delete its owner's account.
 */
export const deletionNeedsLoginToken = () =>
  new ForbiddenError(
    loginTokenRequired().type,
    'Deleting an account needs an access token from POST /token; an API key cannot delete its account.',
  );
