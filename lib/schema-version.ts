// The versions in the keys of stored answers (a summary's record, a cached answer to a question):
// a short hash of the answer schema's JSON Schema, so that a change of shape is never served
// from a record written in the old one. The Lambda bundles get each version computed when they
// are built (infra/bundling.ts passes it to esbuild as a `define`), so a cold start neither
// converts a schema nor carries zod's JSON Schema converter (~20 KB); the local host and the
// tests, which run the sources, compute it on first use from the same schema.
import { createHash } from 'node:crypto';
import * as z from './schema';

/** A short hash of a response schema's JSON Schema: changes whenever the schema does. */
export function schemaVersion(schema: z.ZodMiniType): string {
  return createHash('sha256')
    .update(JSON.stringify(z.toJSONSchema(schema, { io: 'output' })))
    .digest('base64url')
    .slice(0, 10);
}
