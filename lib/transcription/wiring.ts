// The transcriber of a Config, for the summary worker alone (loaded on the first video without
// captions): the backend TRANSCRIPTION_BACKEND names, with its SDK, the claims and minutes in the
// table, and the kept transcriptions.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OperatorCredentials } from '../aws/operator-credentials';
import type { Config } from '../config';
import { ConfigError } from '../errors';
import type { Logger } from '../logger';
import { createCache } from '../store/cache';
import type { YouTubeClient } from '../youtube/client';
import type { TranscriptionBackend } from './backend';
import type { PlacedHeard } from './heard';
import { transcriptionCache } from './reuse';
import { createTranscriptionStore } from './store';
import { createTranscriber, type Transcriber } from './transcriber';

/** Finished parts of a transcription are kept two days, as a claim is. */
const CHECKPOINT_SECONDS = 2 * 86_400;

/**
 * Which backend `config` names, or undefined for none.
 * @throws ConfigError when a backend is named without what it needs.
 */
export function backendKind(config: Config): 'openai-compatible' | 'amazon-transcribe' | undefined {
  const kind =
    config.TRANSCRIPTION_BACKEND ??
    (config.TRANSCRIPTION_BASE_URL === undefined ? undefined : 'openai-compatible');
  if (kind === 'amazon-transcribe' && config.TRANSCRIPTION_BUCKET === undefined) {
    throw new ConfigError('TRANSCRIPTION_BACKEND=amazon-transcribe needs TRANSCRIPTION_BUCKET');
  }
  if (kind === 'openai-compatible' && config.TRANSCRIPTION_BASE_URL === undefined) {
    throw new ConfigError('TRANSCRIPTION_BACKEND=openai-compatible needs TRANSCRIPTION_BASE_URL');
  }
  return kind;
}

async function backendFrom(
  config: Config,
  credentials: Pick<OperatorCredentials, 'transcriptionApiKey'>,
): Promise<TranscriptionBackend> {
  const kind = backendKind(config);
  if (kind === 'amazon-transcribe') {
    return (await import('./amazon')).createAmazonTranscription({
      bucket: config.TRANSCRIPTION_BUCKET ?? '',
      region: config.AWS_REGION,
      ...(config.AWS_ENDPOINT_URL_TRANSCRIBE
        ? { transcribeEndpoint: config.AWS_ENDPOINT_URL_TRANSCRIBE }
        : {}),
      ...(config.AWS_ENDPOINT_URL_S3 ? { s3Endpoint: config.AWS_ENDPOINT_URL_S3 } : {}),
    });
  }
  if (kind === 'openai-compatible') {
    return (await import('./openai')).createOpenAiTranscription({
      baseUrl: config.TRANSCRIPTION_BASE_URL ?? '',
      ...(config.TRANSCRIPTION_PATH === undefined ? {} : { path: config.TRANSCRIPTION_PATH }),
      model: config.TRANSCRIPTION_MODEL,
      maxUploadMb: config.TRANSCRIPTION_MAX_UPLOAD_MB,
      maxAnswerMb: config.TRANSCRIPTION_MAX_ANSWER_MB,
      ...(credentials.transcriptionApiKey === undefined
        ? {}
        : { apiKey: credentials.transcriptionApiKey }),
    });
  }
  throw new ConfigError('no transcription backend is configured');
}

/**
 * The worker's transcriber.
 * @throws ConfigError when the backend's settings are incomplete.
 */
export async function transcriberFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  deps: {
    youtube: () => Promise<Pick<YouTubeClient, 'downloadAudio'>>;
    credentials: () => Promise<Pick<OperatorCredentials, 'transcriptionApiKey'>>;
    logger: Logger;
  },
): Promise<Transcriber> {
  const leaseMs = config.JOB_LEASE_SECONDS * 1000;
  return createTranscriber({
    backend: await backendFrom(config, await deps.credentials()),
    store: createTranscriptionStore(db, config.TABLE_NAME, {
      leaseMs,
      dailyMinutes: config.TRANSCRIPTION_DAILY_MINUTES,
    }),
    transcriptions: transcriptionCache(config, db),
    checkpoints: createCache<PlacedHeard>(db, config.TABLE_NAME, CHECKPOINT_SECONDS),
    youtube: deps.youtube,
    limits: {
      maxMinutes: config.TRANSCRIPTION_MAX_MINUTES,
      maxMb: config.TRANSCRIPTION_MAX_MB,
      partMb: config.TRANSCRIPTION_PART_MB ?? config.TRANSCRIPTION_MAX_UPLOAD_MB,
      partMinutes: config.TRANSCRIPTION_PART_MINUTES,
      concurrency: config.TRANSCRIPTION_CONCURRENCY,
    },
    leaseMs,
    logger: deps.logger,
  });
}
