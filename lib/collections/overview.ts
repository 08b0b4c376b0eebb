// A collection's overview with the model it was asked for: offline (extractive) with the
// extractive model, else one call of the language model (overview/model.ts).
import { type Catalog, resolveModel } from '../models/catalog';
import type { ChatModel } from '../models/chat';
import { countWords } from '../util/words';
import type { SummarizedVideo } from './driver';
import { modelOverview } from './overview/model';
import { offlineSummary, offlineThemes } from './overview/offline';
import type { Overview } from './schemas';
import type { Collection } from './store';

export interface OverviewDeps {
  catalog: Catalog;
  /** One call at a time to a language model of the catalog, loaded on first use. */
  chat: (model: Parameters<typeof modelOverview>[1]['model']) => Promise<ChatModel>;
  /** How long the model may take (the worker's job deadline). */
  timeoutMs: number;
}

/**
 * The overview maker: the whole collection in its summary_length words, and its themes.
 * @throws what the model throws (502-504), and 503 when the model left the catalog.
 */
export function createOverviewMaker(deps: OverviewDeps) {
  return async (collection: Collection, videos: SummarizedVideo[]): Promise<Overview> => {
    const model = resolveModel(deps.catalog, collection.request.model);
    const words = collection.request.summaryLength;
    const made =
      model.kind === 'extractive'
        ? {
            summary: offlineSummary(videos, words),
            themes: offlineThemes(videos),
            inputTokens: null,
            outputTokens: null,
          }
        : await modelOverview(videos, {
            chat: await deps.chat(model),
            model,
            words,
            language: collection.request.summaryLanguage,
            signal: AbortSignal.timeout(deps.timeoutMs),
          });
    return {
      summary: made.summary,
      word_count: countWords(made.summary),
      themes: made.themes,
      model: model.name,
      videos: videos.length,
      input_tokens: made.inputTokens,
      output_tokens: made.outputTokens,
      generated_at: new Date().toISOString(),
    };
  };
}
