// The summary worker of a Config: the stores, the YouTube client, the summarizers and the
// transcriber of videos without captions, each loaded on first use (modelClientsFrom).
// The worker function and the local host build it.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { modelClientsFrom } from '../../models/clients';
import { createCache } from '../../store/cache';
import {
  captionlessHandler,
  transcriptionCache,
  transcriptionConfigured,
} from '../../transcription/reuse';
import { once } from '../../util/once';
import type { Video } from '../../youtube/types';
import { catalogFromConfig } from '../offer';
import type { Summarizer } from '../types';
import { storesFrom } from '../wiring';
import { createSummaryWorker, type SummaryWorker, type SummaryWorkerDeps } from './worker';

/**
 * The summary worker of `config`; `shutdown` (the local host's) stops its runs; `onSettled` hears
 * of each settled job of a collection.
 * @throws ConfigError for an invalid model catalog.
 */
export function summaryWorkerFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  logger: Logger,
  shutdown?: AbortSignal,
  onSettled?: SummaryWorkerDeps['onSettled'],
): SummaryWorker {
  const clients = modelClientsFrom(config, logger);
  // The offline summarizer holds a language model (3.5 MB): loaded on its first run only.
  const extractive = once<Summarizer>(async () =>
    (await import('../extractive/summarizer')).createExtractiveSummarizer(),
  );
  const configured = transcriptionConfigured(config);
  return createSummaryWorker({
    ...storesFrom(config, db),
    videos: createCache<Video>(db, config.TABLE_NAME, config.TRANSCRIPT_CACHE_TTL_SECONDS),
    youtube: clients.youtube,
    captionless: captionlessHandler({
      transcriptions: transcriptionCache(config, db),
      configured,
      // The backend and its SDK load on the first video without captions.
      ...(configured
        ? {
            transcriber: once(async () =>
              (await import('../../transcription/wiring')).transcriberFrom(config, db, {
                youtube: clients.youtube,
                credentials: clients.credentials,
                logger,
              }),
            ),
          }
        : {}),
    }),
    catalog: catalogFromConfig(config),
    summarizer: async (model) => {
      if (model.kind === 'extractive') return extractive();
      // The summary pipeline in a chunk of its own, apart from the chat that /ask loads too.
      const [{ createLlmSummarizer }, chat] = await Promise.all([
        import('../llm/summarizer'),
        clients.chat(model),
      ]);
      return createLlmSummarizer({
        chat,
        limits: model,
        concurrency:
          model.kind === 'openai' ? config.OPENAI_CONCURRENCY : config.BEDROCK_CONCURRENCY,
      });
    },
    reuseSeconds: config.SUMMARY_CACHE_TTL_SECONDS,
    renewEveryMs: Math.max(500, (config.JOB_LEASE_SECONDS * 1000) / 3),
    logger,
    ...(shutdown ? { shutdown } : {}),
    ...(onSettled ? { onSettled } : {}),
  });
}
