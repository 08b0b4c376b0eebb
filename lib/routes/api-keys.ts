// The API keys area's routes: POST and GET /api-keys, DELETE /api-keys/{id}, for a login token
// only (a key cannot make or remove keys).
import { loginTokenRequired, tooManyApiKeys, unknownApiKey } from '../accounts/api-keys/errors';
import {
  API_KEY_EXPIRED_RETENTION_DAYS,
  API_KEY_MAX_LIFETIME_DAYS,
  API_KEYS_PER_USER,
} from '../accounts/api-keys/limits';
import {
  apiKeyIdSchema,
  apiKeyListSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
} from '../accounts/api-keys/schemas';
import { ValidationError } from '../errors';
import { handled, type ResponseDef, type RouteDef, route, withBody } from './route';

// What every route that needs a login token answers (only these routes are `loginOnly`).
const loginOnly = {
  403: {
    description: 'Authenticated with an API key: managing keys needs an access token',
    example: loginTokenRequired(),
  },
} satisfies Record<number, ResponseDef>;

export const apiKeyRoutes = {
  createApiKey: route({
    method: 'POST',
    path: '/api-keys',
    function: 'api-keys',
    auth: true,
    loginOnly: true,
    tag: 'accounts',
    summary: 'Create an API key (the key is shown this once)',
    description: `An API key works wherever an access token does, as \`Authorization: Bearer <key>\`, until it is deleted or, with \`expires_in_days\` (1-${API_KEY_MAX_LIFETIME_DAYS}), until it expires: from \`expires_at\` on it gets the same 401 as an unknown key. Without \`expires_in_days\` it never expires. Keep it secret: the service stores only its SHA-256 and cannot show it again. Keys cannot manage keys: these routes need an access token from POST /token. A user holds at most ${API_KEYS_PER_USER} keys; expired keys count until they are deleted, or removed ${API_KEY_EXPIRED_RETENTION_DAYS} days after they expired.`,
    body: { schema: createApiKeyBodySchema, contentTypes: ['application/json'] },
    responses: {
      201: { description: 'The new key, with its secret', schema: createdApiKeySchema },
      ...withBody,
      ...loginOnly,
      409: {
        description: `The caller already holds ${API_KEYS_PER_USER} keys`,
        example: tooManyApiKeys(),
      },
      422: {
        description: 'Invalid name or expires_in_days (see errors)',
        example: new ValidationError([{ field: 'name', message: 'Fill in this field.' }]),
      },
    },
  }),
  listApiKeys: route({
    method: 'GET',
    path: '/api-keys',
    function: 'api-keys',
    auth: true,
    loginOnly: true,
    tag: 'accounts',
    summary: "The caller's API keys (never the keys themselves)",
    description: `Each key with its id, name, when it was made, when it was last used (to the minute) and when it expires (\`expires_at\`, null for never). An expired key is listed, with its \`expires_at\` in the past, until it is deleted or ${API_KEY_EXPIRED_RETENTION_DAYS} days have passed since it expired. Needs an access token from POST /token.`,
    responses: {
      200: { description: 'The keys, newest first', schema: apiKeyListSchema },
      ...handled,
      ...loginOnly,
    },
  }),
  deleteApiKey: route({
    method: 'DELETE',
    path: '/api-keys/{id}',
    function: 'api-keys',
    auth: true,
    loginOnly: true,
    tag: 'accounts',
    summary: 'Delete an API key: it stops working at once',
    description:
      'A request with the key a moment later gets 401, on every instance of the service. Needs an access token from POST /token.',
    params: { id: apiKeyIdSchema },
    responses: {
      204: { description: 'Deleted' },
      ...handled,
      ...loginOnly,
      404: { description: 'No such key of yours', example: unknownApiKey() },
    },
  }),
} as const satisfies Record<string, RouteDef>;
