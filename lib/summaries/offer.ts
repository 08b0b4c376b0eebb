// The models this deployment offers, to summaries, /ask and collections alike: the model
// catalog less the models whose window cannot make the shortest summary the API allows. The
// rule is the summary planner's, so it lives here and the catalog takes it as a parameter.
import type { Config } from '../config';
import { logger } from '../logger';
import {
  type BuildCatalogOptions,
  buildModelCatalog,
  type Catalog,
  modelCatalogOf,
  type OpenAiModel,
  type Unfit,
} from '../models/catalog';
import { openAiOutputTokens } from '../models/catalog/settings';
import { SUMMARY_LENGTH } from './limits';
import { plannerFor } from './llm/plan';

/** The fewest tokens of window with which an OPENAI_MODELS entry makes the shortest summary. */
function smallestOpenAiWindow(model: OpenAiModel): number {
  const makes = (context: number) =>
    plannerFor({
      ...model,
      contextTokens: context,
      maxOutputTokens: openAiOutputTokens(context),
    }).longestSummary() >= SUMMARY_LENGTH.min;
  let low = model.contextTokens;
  let high = 1_024;
  while (!makes(high)) high *= 2;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (makes(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * Why a model cannot make a summary of SUMMARY_LENGTH.min words (its context leaves too little
 * room beside the prompt), naming its variable and the fix; undefined when it can.
 */
export const tooSmallForSummaries: Unfit = (model) => {
  if (plannerFor(model).longestSummary() >= SUMMARY_LENGTH.min) return undefined;
  const [variable, entry, fix] =
    model.kind === 'openai'
      ? [
          'OPENAI_MODELS',
          `${model.label}@${model.contextTokens}`,
          `give it a window of at least ${smallestOpenAiWindow(model)} tokens`,
        ]
      : ['MODEL_CATALOG_JSON', model.name, 'give it a larger contextTokens'];
  return (
    `${variable}: "${entry}" is left out: it cannot make a summary of ${SUMMARY_LENGTH.min} ` +
    `words, as its context of ${model.contextTokens} tokens (at most ${model.maxOutputTokens} ` +
    `of answer) leaves too little room beside the prompt; ${fix}`
  );
};

/**
 * The offered catalog of the built-ins, operator entries and the allow-list (buildModelCatalog,
 * less the models too small for any summary).
 * @throws ConfigError as buildModelCatalog does.
 */
export function buildCatalog(options: BuildCatalogOptions = {}): Catalog {
  return buildModelCatalog(options, tooSmallForSummaries);
}

/**
 * The catalog this deployment offers, from ALLOWED_MODELS, MODEL_CATALOG_JSON and OPENAI_MODELS,
 * built anew (catalogFromConfig keeps one per Config).
 * @throws ConfigError as modelCatalogOf does.
 */
export function catalogOf(config: Config): Catalog {
  return modelCatalogOf(config, tooSmallForSummaries);
}

// The catalog of each Config: built, and its left-out models told, once per Config (a Lambda
// instance's, or the local host's, which all its functions share).
const catalogs = new WeakMap<Config, Catalog>();

/**
 * The catalog of `config` (catalogOf), built once per Config: the first call tells `report` (by
 * default, the log, as an error) why each left-out model is left out.
 * @throws ConfigError as catalogOf does.
 */
export function catalogFromConfig(
  config: Config,
  report: (line: string) => void = (line) => logger.error(`invalid configuration: ${line}`),
): Catalog {
  const known = catalogs.get(config);
  if (known !== undefined) return known;
  const catalog = catalogOf(config);
  for (const line of catalog.leftOut.values()) report(line);
  catalogs.set(config, catalog);
  return catalog;
}
