// JSON Schema (draft 2020-12) of the zod schemas that validate, as zod writes it, plus what zod
// cannot know from a schema alone: `used_model` is the enum of the models this deployment
// offers. The OpenAPI document and the MCP tools' schemas are both made here, so a client sees
// the same rules in both.
import * as z from './schema';

/**
 * `used_model`, in every request that names a model: toJsonSchema writes it as the enum of the
 * models the deployment offers, and only those exact names are accepted (resolveModel).
 */
export const usedModelSchema = z.string().check(z.minLength(1), z.maxLength(64));

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema objects are open-ended
export type Json = Record<string, any>;

/** Edits zod's output for one schema in place (zod's `override`). */
export type JsonSchemaOverride = (context: { zodSchema: unknown; jsonSchema: Json }) => void;

export interface JsonSchemaOptions {
  /** Requests are described in their input form (defaults optional), answers in their output. */
  io: 'input' | 'output';
  /** The model names this deployment offers: `used_model` is written as their enum. */
  models: readonly string[];
  /** A caller's own edits, after ours. */
  override?: JsonSchemaOverride;
}

/**
 * The JSON Schema of `schema`: schemas with an `id` come back in `$defs` (the root as a `$ref`
 * when it has one).
 * @throws Error from zod for a schema JSON Schema cannot express (a transform in output form).
 */
export function toJsonSchema(schema: z.ZodMiniType, options: JsonSchemaOptions): Json {
  return z.toJSONSchema(schema, {
    io: options.io,
    target: 'draft-2020-12',
    override: (context) => {
      const { zodSchema, jsonSchema } = context as { zodSchema: unknown; jsonSchema: Json };
      if (zodSchema === usedModelSchema) jsonSchema.enum = [...options.models];
      options.override?.({ zodSchema, jsonSchema });
    },
  }) as Json;
}
