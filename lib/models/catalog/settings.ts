// What the operator's settings add to the catalog: the Bedrock entries of MODEL_CATALOG_JSON,
// the models of OPENAI_MODELS, and which models are left out because they are unfit (each with
// the line that tells the operator why).
import { ConfigError } from '../../errors';
import * as z from '../../schema';
import type { BedrockModel, Catalog, CatalogEntry, OpenAiModel, Unfit } from '../catalog';

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** One operator-supplied entry in MODEL_CATALOG_JSON (camelCase, like BedrockModel). */
const extraEntrySchema = z
  .strictObject({
    name: z
      .string()
      .check(z.regex(NAME, 'lowercase letters, digits, ".", "_" or "-" (at most 64)')),
    label: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    modelId: z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(2048),
        z.regex(/^[A-Za-z0-9:._/-]+$/, 'a Bedrock model id, inference profile id or ARN'),
      ),
    // Any window: one too small for a summary is left out (checkWindows), not a syntax error.
    contextTokens: z.int().check(z.minimum(1), z.maximum(10_000_000)),
    maxOutputTokens: z.int().check(z.minimum(16), z.maximum(1_000_000)),
    inputPricePer1k: z._default(z.number().check(z.minimum(0)), 0),
    outputPricePer1k: z._default(z.number().check(z.minimum(0)), 0),
    temperature: z._default(z.boolean(), true),
    requestFields: z.optional(z.record(z.string(), z.unknown())),
    reasoningReserveTokens: z._default(z.int().check(z.minimum(0)), 0),
  })
  .check(
    z.refine((entry) => entry.name !== 'extractive', {
      message: '"extractive" is the offline summarizer and cannot be redefined',
      path: ['name'],
    }),
    z.refine((entry) => entry.maxOutputTokens < entry.contextTokens, {
      message: 'must be smaller than contextTokens',
      path: ['maxOutputTokens'],
    }),
  );

const extraCatalogSchema = z.array(extraEntrySchema).check(z.maxLength(100));

export function parseExtraEntries(extraJson: string): BedrockModel[] {
  let raw: unknown;
  try {
    raw = JSON.parse(extraJson);
  } catch (error) {
    throw new ConfigError(
      `invalid configuration: MODEL_CATALOG_JSON is not valid JSON (${(error as Error).message})`,
    );
  }
  const parsed = extraCatalogSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      `invalid configuration: MODEL_CATALOG_JSON\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data.map((entry) => ({
    ...entry,
    kind: 'bedrock' as const,
    label: entry.label ?? entry.name,
  }));
}

// Model names as servers write them: "llama3.2", "qwen2.5:14b", "meta-llama/Llama-3.1-8B-Instruct".
const OPENAI_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/;

/** A quarter of the window for the answer leaves three quarters for the transcript. */
export const openAiOutputTokens = (context: number) => Math.min(8_192, Math.floor(context / 4));

/** The OPENAI_MODELS entries, each NAME or NAME@CONTEXT_TOKENS. */
export function parseOpenAiModels(items: readonly string[], contextTokens: number): OpenAiModel[] {
  return items.map((item) => {
    const at = item.lastIndexOf('@');
    const modelId = at < 0 ? item : item.slice(0, at);
    const context = at < 0 ? contextTokens : Number(item.slice(at + 1));
    if (!OPENAI_NAME.test(modelId)) {
      throw new ConfigError(
        `invalid configuration: OPENAI_MODELS: "${item}" is not a model name (letters, digits, ".", "_", ":", "/", "-"; at most 64)`,
      );
    }
    // Any window: one too small for a summary is left out (checkWindows), not a syntax error.
    if (!Number.isInteger(context) || context < 1 || context > 10_000_000) {
      throw new ConfigError(
        `invalid configuration: OPENAI_MODELS: "${item}" must end in @ and a context size of 1 to 10000000 tokens`,
      );
    }
    return {
      kind: 'openai',
      name: modelId.toLowerCase(),
      label: modelId,
      modelId,
      contextTokens: context,
      maxOutputTokens: openAiOutputTokens(context),
      reasoningReserveTokens: 0,
      inputPricePer1k: 0,
      outputPricePer1k: 0,
    };
  });
}

/**
 * The catalog of `models`, less those `unfit` finds unfit: they are left out, each with the line
 * that tells the operator why (naming its variable), so that one bad entry never takes the
 * others down.
 */
export function withUnfitLeftOut(models: Map<string, CatalogEntry>, unfit: Unfit): Catalog {
  const offered = new Map<string, CatalogEntry>();
  const leftOut = new Map<string, string>();
  for (const [name, model] of models) {
    const why = model.kind === 'extractive' ? undefined : unfit(model);
    if (why === undefined) offered.set(name, model);
    else leftOut.set(name, why);
  }
  return Object.freeze({
    models: offered,
    names: Object.freeze([...offered.keys()]),
    leftOut,
  });
}
