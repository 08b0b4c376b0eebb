// The document's schemas: zod's JSON Schema of each route's schemas, with every schema that has
// an id collected into components.
import { isDeepStrictEqual } from 'node:util';
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { type Json, toJsonSchema } from '../json-schema';
import type * as z from '../schema';

/**
 * Turns zod schemas into the document's schemas, collecting every schema with an `id` into
 * components (zod puts them in `$defs`; here they are referenced as `#/components/schemas/<id>`).
 */
export function schemaCollector(models: readonly string[]) {
  const components: Record<string, SchemaObject> = {};

  const override = (io: 'input' | 'output') => (ctx: { jsonSchema: Json }) => {
    const { jsonSchema } = ctx;
    // "One of these fields is required", said as anyOf of bare `required` lists (TokenRequest),
    // becomes one whole object per alternative: the same rule, but code generators then type
    // the body as a union of complete objects (a bare `required` list becomes `unknown`).
    const alternatives = jsonSchema.anyOf as Json[] | undefined;
    const bare = (alternative: Json) => Object.keys(alternative).join() === 'required';
    if (jsonSchema.properties && alternatives?.every(bare)) {
      const { anyOf: _, ...whole } = jsonSchema;
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      jsonSchema.anyOf = alternatives.map((alternative) => ({
        ...whole,
        required: [...(whole.required ?? []), ...alternative.required],
      }));
    }
    // A field with a default is optional to send. openapi-typescript (by default) and others
    // make any field with a `default` required in the types they generate, so in request
    // schemas the default is stated in words instead.
    if (io === 'input' && 'default' in jsonSchema) {
      const value = JSON.stringify(jsonSchema.default);
      delete jsonSchema.default;
      const said = jsonSchema.description ? `${jsonSchema.description.replace(/\.?$/, '.')} ` : '';
      jsonSchema.description = `${said}Defaults to ${value}.`;
    }
  };

  return {
    components,
    /** The document schema of `schema` (a $ref when it has an id). */
    schema(schema: z.ZodMiniType, io: 'input' | 'output'): SchemaObject | ReferenceObject {
      const {
        $defs = {},
        $schema: _,
        ...root
      } = toJsonSchema(schema, { io, models, override: override(io) });
      const refs = (value: unknown) =>
        JSON.parse(
          JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'),
        ) as SchemaObject;
      for (const [id, definition] of Object.entries($defs as Record<string, unknown>)) {
        const converted = refs(definition);
        // One id, one schema: a schema used in both directions must look the same in both.
        if (components[id] && !isDeepStrictEqual(components[id], converted)) {
          throw new Error(`schema ${id} differs between requests and responses`);
        }
        components[id] = converted;
      }
      return refs(root);
    },
  };
}

/** What collects the document's schemas (schemaCollector). */
export type SchemaCollector = ReturnType<typeof schemaCollector>;
