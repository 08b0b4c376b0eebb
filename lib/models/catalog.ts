// The model catalog: the friendly names clients send as `used_model`, what each one maps to on
// Bedrock or an OpenAI-compatible server, and the limits calls are planned with. Operators
// add or override Bedrock entries with MODEL_CATALOG_JSON, offer a server's models with
// OPENAI_MODELS, and restrict the offer with ALLOWED_MODELS. Which models are fit to offer is
// the caller's rule (the summaries' catalog leaves out windows too small for any summary).
import type { Config } from '../config';
import { ConfigError, ServiceUnavailableError, ValidationError } from '../errors';
import { BUILT_IN_MODELS, EXTRACTIVE } from './catalog/built-in';
import { parseExtraEntries, parseOpenAiModels, withUnfitLeftOut } from './catalog/settings';

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
  /**
   * Models the configuration names but that are left out, by name: the line telling the operator
   * why (a window too small for any summary). A request for one answers 503 server-misconfigured.
   */
  readonly leftOut: ReadonlyMap<string, string>;
}

/**
 * Why a model the configuration names cannot be offered (the line that tells the operator, naming
 * its variable), or undefined when it can.
 */
export type Unfit = (model: BedrockModel | OpenAiModel) => string | undefined;

export interface BuildCatalogOptions {
  /** Names to offer; empty or absent offers the whole catalog. */
  allowed?: readonly string[];
  /** MODEL_CATALOG_JSON: a JSON array of extra entries; an entry with a built-in name replaces it. */
  extraJson?: string;
  /** OPENAI_MODELS: NAME or NAME@CONTEXT_TOKENS items, with the context of those without. */
  openai?: { models: readonly string[]; contextTokens: number };
}

/**
 * Builds the catalog from the built-ins, operator entries and the allow-list; models `unfit`
 * finds unfit are left out (Catalog.leftOut).
 * @throws ConfigError naming MODEL_CATALOG_JSON (bad JSON or entry), OPENAI_MODELS (a malformed
 *   or duplicate entry) or ALLOWED_MODELS (unknown name).
 */
export function buildModelCatalog(options: BuildCatalogOptions, unfit: Unfit): Catalog {
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
  if (allowed.length === 0) return withUnfitLeftOut(all, unfit);

  const unknown = allowed.filter((name) => !all.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `invalid configuration: ALLOWED_MODELS names unknown models: ${unknown.join(', ')} ` +
        `(catalog: ${[...all.keys()].join(', ')})`,
    );
  }
  const offered = new Map<string, CatalogEntry>();
  for (const [name, entry] of all) if (allowed.includes(name)) offered.set(name, entry);
  return withUnfitLeftOut(offered, unfit);
}

/**
 * The catalog of `config`, from ALLOWED_MODELS, MODEL_CATALOG_JSON and OPENAI_MODELS, less the
 * models `unfit` finds unfit, built anew.
 * @throws ConfigError as buildModelCatalog does, naming DEFAULT_MODEL when it is not offered, or
 *   OPENAI_BASE_URL when OPENAI_MODELS has no server.
 */
export function modelCatalogOf(config: Config, unfit: Unfit): Catalog {
  if (config.OPENAI_MODELS.length > 0 && config.OPENAI_BASE_URL === undefined) {
    throw new ConfigError(
      'invalid configuration: OPENAI_MODELS names models but OPENAI_BASE_URL does not say where their server is',
    );
  }
  const catalog = buildModelCatalog(
    {
      allowed: config.ALLOWED_MODELS,
      extraJson: config.MODEL_CATALOG_JSON,
      openai: { models: config.OPENAI_MODELS, contextTokens: config.OPENAI_CONTEXT_TOKENS },
    },
    unfit,
  );
  const defaultModel = config.DEFAULT_MODEL.trim().toLowerCase();
  if (!catalog.models.has(defaultModel)) {
    const why = catalog.leftOut.get(defaultModel);
    throw new ConfigError(
      `invalid configuration: DEFAULT_MODEL "${config.DEFAULT_MODEL}" is not offered ` +
        (why === undefined ? `(offered: ${catalog.names.join(', ')})` : `(${why})`),
    );
  }
  return catalog;
}

/**
 * 503 server-misconfigured for a model the configuration names but leaves out (its line in the
 * log says why): only the operator can act, and the other models still serve.
 */
export class ModelLeftOutError extends ServiceUnavailableError {
  override name = 'ModelLeftOutError';
  constructor(requested: string, allowed: readonly string[]) {
    super(
      'server-misconfigured',
      `The model "${requested}" is misconfigured on this server and cannot be used; the operator ` +
        `has been told. Usable models: ${allowed.join(', ')}.`,
      30,
      { expose: true, extensions: { allowed_models: [...allowed] } },
    );
  }
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
 * @throws UnknownModelError (a 422 ValidationError with `allowed_models`) for any other name,
 *   ModelLeftOutError (503 server-misconfigured) for a model the configuration leaves out.
 */
export function resolveModel(catalog: Catalog, name: string): CatalogEntry {
  const entry = catalog.models.get(name);
  if (entry !== undefined) return entry;
  if (catalog.leftOut.has(name)) throw new ModelLeftOutError(name, catalog.names);
  throw new UnknownModelError(name, catalog.names);
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
