// The API keys area's schemas, one module: what POST /api-keys takes and answers (a key as
// listed, plus the key), and what GET /api-keys lists. The route table names them; the OpenAPI
// document is made from them.

import * as z from '../../schema';
import { nameSchema } from '../../util/names';
import { RANDOM_ID_PATTERN } from '../../util/random-id';
import {
  API_KEY_EXPIRED_RETENTION_DAYS,
  API_KEY_MAX_LIFETIME_DAYS,
  API_KEY_NAME_MAX_CHARS,
  API_KEYS_PER_USER,
} from './limits';

export const apiKeyNameSchema = nameSchema(API_KEY_NAME_MAX_CHARS, {
  description: `A name to tell the key by (1-${API_KEY_NAME_MAX_CHARS} characters, trimmed)`,
  examples: ['laptop'],
});

/** A key's id (DELETE /api-keys/{id}): what randomId() makes; anything else names no key. */
export const apiKeyIdSchema = z
  .string()
  .check(
    z.maxLength(64),
    z.regex(RANDOM_ID_PATTERN),
    z.meta({ description: 'The key’s id (not the key)', examples: ['pQ2nA0sTjR8eXyV7lKc4Zw'] }),
  );

/** What `expires_in_days` must be, said for every way of missing it. */
const LIFETIME_RULE = `Use a whole number of days from 1 to ${API_KEY_MAX_LIFETIME_DAYS}, or leave it out for a key that never expires.`;

export const apiKeyLifetimeSchema = z.int({ error: LIFETIME_RULE }).check(
  z.minimum(1, LIFETIME_RULE),
  z.maximum(API_KEY_MAX_LIFETIME_DAYS, LIFETIME_RULE),
  z.meta({
    description: `Days until the key expires (1-${API_KEY_MAX_LIFETIME_DAYS}); from then on it gets the same 401 as an unknown key. Absent: it never expires, and works until it is deleted.`,
    examples: [90],
  }),
);

export const createApiKeyBodySchema = z
  .object({ name: apiKeyNameSchema, expires_in_days: z.optional(apiKeyLifetimeSchema) })
  .check(z.meta({ id: 'ApiKeyRequest' }));

/** The fields of a key as listed (fresh schemas each time: each object documents its own). */
const apiKeyFields = () => ({
  id: z.string().check(z.meta({ description: 'The key’s id, to delete it by' })),
  name: z.string(),
  created_at: z
    .string()
    .check(z.meta({ description: 'ISO 8601', examples: ['2025-06-01T12:00:00.000Z'] })),
  last_used_at: z.nullable(z.string()).check(
    z.meta({
      description:
        'ISO 8601; recorded at most once a minute, so up to a minute behind; null if never used',
    }),
  ),
  expires_at: z.nullable(z.string()).check(
    z.meta({
      description: `ISO 8601: from this moment the key gets the same 401 as an unknown key; null if it never expires. An expired key stays listed until it is deleted, or until it is removed ${API_KEY_EXPIRED_RETENTION_DAYS} days after it expired.`,
      examples: ['2025-08-30T12:00:00.000Z'],
    }),
  ),
});

const { id, name, ...times } = apiKeyFields();
export const createdApiKeySchema = z
  .object({
    id,
    name,
    key: z.string().check(
      z.meta({
        description:
          'The key: send it as `Authorization: Bearer <key>`. Shown this once; the service keeps only its hash.',
        examples: ['tsk_EXAMPLE-not-a-real-key-00000000000000000000'],
      }),
    ),
    ...times,
  })
  .check(
    z.meta({
      id: 'NewApiKey',
      description: 'The key as it will be listed (never used yet), and the key itself',
    }),
  );

export const apiKeySchema = z
  .object(apiKeyFields())
  .check(z.meta({ id: 'ApiKey', description: 'An API key as listed: never the key itself' }));

export const apiKeyListSchema = z
  .object({
    items: z.array(apiKeySchema).check(
      z.meta({
        description: `The caller’s keys, newest first (at most ${API_KEYS_PER_USER})`,
      }),
    ),
  })
  .check(z.meta({ id: 'ApiKeyList' }));

export type CreatedApiKey = z.output<typeof createdApiKeySchema>;
export type ApiKeyView = z.output<typeof apiKeySchema>;
