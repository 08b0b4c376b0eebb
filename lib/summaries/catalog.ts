// The model catalog: the friendly names clients send as `used_model`, what each one maps to on
// Bedrock or an OpenAI-compatible server, and the limits the summarizer plans with. Operators
// add or override Bedrock entries with MODEL_CATALOG_JSON, offer a server's models with
// OPENAI_MODELS, and restrict the offer with ALLOWED_MODELS.

import { type Config, ConfigError } from '../config';
import { ValidationError } from '../errors';
import * as z from '../schema';
import { plannerFor } from './llm/plan';
import { SUMMARY_LENGTH } from './schemas';

/** A model served by Bedrock through the Converse API. */
export interface BedrockModel {
  kind: 'bedrock';
  /** What clients send as `used_model`. */
  name: string;
  /** Human-readable name, for docs and logs. */
  label: string;
  /** Foundation model id, cross-region inference profile id or inference profile ARN. */
  modelId: string;
  /** Input + output tokens the model accepts in one call. */
  contextTokens: number;
  /** Largest `maxTokens` the model accepts. */
  maxOutputTokens: number;
  /** On-demand list price in USD per 1,000 tokens (for cost estimates only). */
  inputPricePer1k: number;
  outputPricePer1k: number;
  /** False for models that reject sampling parameters (some reasoning models answer 400 to `temperature`). */
  temperature: boolean;
  /** Sent verbatim as Converse `additionalModelRequestFields` (e.g. to switch thinking off). */
  requestFields?: Record<string, unknown>;
  /** Output tokens kept free for reasoning the model may do before it answers. */
  reasoningReserveTokens: number;
}

/** The offline summarizer: no network, no tokens, no cost. */
export interface ExtractiveModel {
  kind: 'extractive';
  name: 'extractive';
  label: string;
  /** Always 'extractive', so the response's `model_id` needs no special case. */
  modelId: 'extractive';
}

/** A model of the OpenAI-compatible server at OPENAI_BASE_URL (Ollama, vLLM, OpenAI...). */
export interface OpenAiModel {
  kind: 'openai';
  /** What clients send as `used_model`: the name in OPENAI_MODELS, lower-cased. */
  name: string;
  label: string;
  /** Sent as `model`: the name as OPENAI_MODELS writes it. */
  modelId: string;
  contextTokens: number;
  maxOutputTokens: number;
  reasoningReserveTokens: number;
  /** Unknown: the server may be free (local) or not; estimates say 0. */
  inputPricePer1k: number;
  outputPricePer1k: number;
}

export type CatalogEntry = BedrockModel | ExtractiveModel | OpenAiModel;

export interface Catalog {
  /** Offered models by name, in catalog order. */
  readonly models: ReadonlyMap<string, CatalogEntry>;
  /** The offered names, in catalog order (what a 422 lists). */
  readonly names: readonly string[];
}

const EXTRACTIVE: ExtractiveModel = {
  kind: 'extractive',
  name: 'extractive',
  label: 'Offline extractive summarizer',
  modelId: 'extractive',
};

/**
 * Built-in Bedrock models. Ids are US cross-region inference profiles (`us.` prefix): on-demand
 * calls to the newer models must go through a profile, and one prefix keeps data in one geography.
 * Prices are on-demand list prices per 1k tokens as published by AWS and Anthropic (Claude geo
 * profiles carry a 10% premium over global ones). Nova output limits are the conservative 5k
 * tokens of the launch model cards. The Claude entries are the newest Claude models Anthropic
 * documents for Bedrock's Converse API (later ones are served on Bedrock's Messages-API
 * endpoint instead); operators can add others with MODEL_CATALOG_JSON.
 */
export const BUILT_IN_MODELS: readonly BedrockModel[] = [
  {
    kind: 'bedrock',
    name: 'nova-micro',
    label: 'Amazon Nova Micro',
    modelId: 'us.amazon.nova-micro-v1:0',
    contextTokens: 128_000,
    maxOutputTokens: 5_000,
    inputPricePer1k: 0.000035,
    outputPricePer1k: 0.00014,
    temperature: true,
    reasoningReserveTokens: 0,
  },
  {
    kind: 'bedrock',
    name: 'nova-lite',
    label: 'Amazon Nova Lite',
    modelId: 'us.amazon.nova-lite-v1:0',
    contextTokens: 300_000,
    maxOutputTokens: 5_000,
    inputPricePer1k: 0.00006,
    outputPricePer1k: 0.00024,
    temperature: true,
    reasoningReserveTokens: 0,
  },
  {
    kind: 'bedrock',
    name: 'nova-pro',
    label: 'Amazon Nova Pro',
    modelId: 'us.amazon.nova-pro-v1:0',
    contextTokens: 300_000,
    maxOutputTokens: 5_000,
    inputPricePer1k: 0.0008,
    outputPricePer1k: 0.0032,
    temperature: true,
    reasoningReserveTokens: 0,
  },
  {
    kind: 'bedrock',
    name: 'claude-haiku',
    label: 'Anthropic Claude Haiku 4.5',
    modelId: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    contextTokens: 200_000,
    maxOutputTokens: 64_000,
    inputPricePer1k: 0.0011,
    outputPricePer1k: 0.0055,
    temperature: true,
    reasoningReserveTokens: 0,
  },
  {
    kind: 'bedrock',
    name: 'claude-sonnet',
    label: 'Anthropic Claude Sonnet 4.6',
    modelId: 'us.anthropic.claude-sonnet-4-6',
    contextTokens: 200_000,
    maxOutputTokens: 64_000,
    inputPricePer1k: 0.0033,
    outputPricePer1k: 0.0165,
    temperature: true,
    reasoningReserveTokens: 0,
  },
];

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
    contextTokens: z.int().check(z.minimum(1_000), z.maximum(10_000_000)),
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

function parseExtraEntries(extraJson: string): BedrockModel[] {
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

export interface BuildCatalogOptions {
  /** Names to offer; empty or absent offers the whole catalog. */
  allowed?: readonly string[];
  /** MODEL_CATALOG_JSON: a JSON array of extra entries; an entry with a built-in name replaces it. */
  extraJson?: string;
  /** OPENAI_MODELS: NAME or NAME@CONTEXT_TOKENS items, with the context of those without. */
  openai?: { models: readonly string[]; contextTokens: number };
}

// Model names as servers write them: "llama3.2", "qwen2.5:14b", "meta-llama/Llama-3.1-8B-Instruct".
const OPENAI_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/;

/** The OPENAI_MODELS entries, each NAME or NAME@CONTEXT_TOKENS. */
function parseOpenAiModels(items: readonly string[], contextTokens: number): OpenAiModel[] {
  return items.map((item) => {
    const at = item.lastIndexOf('@');
    const modelId = at < 0 ? item : item.slice(0, at);
    const context = at < 0 ? contextTokens : Number(item.slice(at + 1));
    if (!OPENAI_NAME.test(modelId)) {
      throw new ConfigError(
        `invalid configuration: OPENAI_MODELS: "${item}" is not a model name (letters, digits, ".", "_", ":", "/", "-"; at most 64)`,
      );
    }
    if (!Number.isInteger(context) || context < 1_024 || context > 10_000_000) {
      throw new ConfigError(
        `invalid configuration: OPENAI_MODELS: "${item}" must end in @ and a context size of 1024 to 10000000 tokens`,
      );
    }
    return {
      kind: 'openai',
      name: modelId.toLowerCase(),
      label: modelId,
      modelId,
      contextTokens: context,
      // A quarter of the window for the answer leaves three quarters for the transcript.
      maxOutputTokens: Math.min(8_192, Math.floor(context / 4)),
      reasoningReserveTokens: 0,
      inputPricePer1k: 0,
      outputPricePer1k: 0,
    };
  });
}

/**
 * Builds the catalog from the built-ins, operator entries and the allow-list.
 * @throws ConfigError naming MODEL_CATALOG_JSON (bad JSON or entry) or ALLOWED_MODELS (unknown name).
 */
export function buildCatalog(options: BuildCatalogOptions = {}): Catalog {
  const all = new Map<string, CatalogEntry>([[EXTRACTIVE.name, EXTRACTIVE]]);
  for (const model of BUILT_IN_MODELS) all.set(model.name, model);
  if (options.extraJson !== undefined && options.extraJson.trim() !== '') {
    for (const model of parseExtraEntries(options.extraJson)) all.set(model.name, model);
  }
  for (const model of parseOpenAiModels(
    options.openai?.models ?? [],
    options.openai?.contextTokens ?? 4_096,
  )) {
    if (all.has(model.name)) {
      throw new ConfigError(
        `invalid configuration: OPENAI_MODELS: "${model.label}" is already the name of a model (${[...all.keys()].join(', ')})`,
      );
    }
    all.set(model.name, model);
  }

  const allowed = (options.allowed ?? []).map((name) => name.trim().toLowerCase());
  if (allowed.length === 0) return freeze(checkWindows(all));

  const unknown = allowed.filter((name) => !all.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `invalid configuration: ALLOWED_MODELS names unknown models: ${unknown.join(', ')} ` +
        `(catalog: ${[...all.keys()].join(', ')})`,
    );
  }
  const offered = new Map<string, CatalogEntry>();
  for (const [name, entry] of all) if (allowed.includes(name)) offered.set(name, entry);
  return freeze(checkWindows(offered));
}

/**
 * The models, once each is known to make the shortest summary the API allows.
 * @throws ConfigError naming the variable of a model whose context window is too small.
 */
function checkWindows(models: Map<string, CatalogEntry>): Map<string, CatalogEntry> {
  for (const model of models.values()) {
    if (model.kind === 'extractive') continue;
    const longest = plannerFor(model).longestSummary();
    if (longest >= SUMMARY_LENGTH.min) continue;
    const variable = model.kind === 'openai' ? 'OPENAI_MODELS' : 'MODEL_CATALOG_JSON';
    throw new ConfigError(
      `invalid configuration: ${variable}: "${model.label}" cannot make a summary of ` +
        `${SUMMARY_LENGTH.min} words: its context of ${model.contextTokens} tokens (at most ` +
        `${model.maxOutputTokens} of answer) leaves too little room beside the prompt; give it a larger context`,
    );
  }
  return models;
}

function freeze(models: Map<string, CatalogEntry>): Catalog {
  return Object.freeze({ models, names: Object.freeze([...models.keys()]) });
}

/**
 * The catalog this deployment offers, from ALLOWED_MODELS and MODEL_CATALOG_JSON.
 * @throws ConfigError as buildCatalog does, naming DEFAULT_MODEL when it is not offered, or
 *   OPENAI_BASE_URL when OPENAI_MODELS has no server.
 */
export function catalogFromConfig(config: Config): Catalog {
  if (config.OPENAI_MODELS.length > 0 && config.OPENAI_BASE_URL === undefined) {
    throw new ConfigError(
      'invalid configuration: OPENAI_MODELS names models but OPENAI_BASE_URL does not say where their server is',
    );
  }
  const catalog = buildCatalog({
    allowed: config.ALLOWED_MODELS,
    extraJson: config.MODEL_CATALOG_JSON,
    openai: { models: config.OPENAI_MODELS, contextTokens: config.OPENAI_CONTEXT_TOKENS },
  });
  if (!catalog.models.has(config.DEFAULT_MODEL.trim().toLowerCase())) {
    throw new ConfigError(
      `invalid configuration: DEFAULT_MODEL "${config.DEFAULT_MODEL}" is not offered ` +
        `(offered: ${catalog.names.join(', ')})`,
    );
  }
  return catalog;
}

/** 422 for a `used_model` the catalog does not offer; lists the offered names for the client. */
export class UnknownModelError extends ValidationError {
  override name = 'UnknownModelError';
  constructor(requested: string, allowed: readonly string[]) {
    const shown = requested.slice(0, 64);
    // A name in another case or with spaces is not the model's name, but surely meant it.
    const meant = allowed.find((name) => name === requested.trim().toLowerCase());
    const message = meant
      ? `Unknown model "${shown}": write it as listed, "${meant}". Allowed: ${allowed.join(', ')}.`
      : `Unknown model "${shown}". Allowed: ${allowed.join(', ')}.`;
    super([{ field: 'used_model', message }], message);
    this.extensions.allowed_models = [...allowed];
  }
}

/**
 * The catalog entry for a requested model name, exactly as the catalog lists it: the OpenAPI
 * document lists these names as `used_model`'s enum, and the API accepts no other spelling
 * (one name per model in requests, jobs and logs).
 * @throws UnknownModelError (a 422 ValidationError with `allowed_models`) for any other name.
 */
export function resolveModel(catalog: Catalog, name: string): CatalogEntry {
  const entry = catalog.models.get(name);
  if (entry === undefined) throw new UnknownModelError(name, catalog.names);
  return entry;
}

/** What an answer's metadata says of the model that made it and what that cost. */
export function usageMetadata(
  entry: CatalogEntry,
  inputTokens: number | null,
  outputTokens: number | null,
) {
  return {
    model: entry.name,
    model_id: entry.modelId,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    estimated_cost_usd: Number(estimateCostUsd(entry, inputTokens, outputTokens).toFixed(6)),
  };
}

/** Estimated USD cost of one summary from the tokens a model reported (0 for extractive). */
export function estimateCostUsd(
  entry: CatalogEntry,
  inputTokens: number | null,
  outputTokens: number | null,
): number {
  if (entry.kind === 'extractive') return 0;
  return (
    ((inputTokens ?? 0) / 1_000) * entry.inputPricePer1k +
    ((outputTokens ?? 0) / 1_000) * entry.outputPricePer1k
  );
}
