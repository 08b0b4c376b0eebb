// The problems of the API keys area, made in one place so the route table's examples are the
// very errors the service throws.
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors';
import { API_KEY_EXPIRED_RETENTION_DAYS, API_KEYS_PER_USER } from './limits';

/** 404 for a key id that is not one of the caller's: unknown and someone else's look the same. */
export const unknownApiKey = () => new NotFoundError('No such API key.');

/** 409 when the caller already holds API_KEYS_PER_USER keys (expired ones count until removed). */
export const tooManyApiKeys = () =>
  new ConflictError(
    `You already have ${API_KEYS_PER_USER} API keys, the most one account may hold; delete one first. Expired keys count until you delete them, or until they are removed ${API_KEY_EXPIRED_RETENTION_DAYS} days after they expire.`,
    'too-many-api-keys',
  );

/**
 * 403 for a request to manage keys authenticated with a key: a leaked key must not be able to
 * mint more keys (which would outlive its deletion) or delete its owner's other keys.
 */
export const loginTokenRequired = () =>
  new ForbiddenError(
    'login-token-required',
    'Managing API keys needs an access token from POST /token; an API key cannot create, list or delete keys.',
  );
