// POST /ask: a question about a video, answered within the request. An answer is cached per
// video, caption language, model and normalised question in the table, with a
// TTL, and a cached answer costs nothing. Any other asking takes a unit of the daily quota the
// summaries use before YouTube is asked, and gets it back only when we or the model fail
// (givesUnitBack, as a summary does). Identical questions asked at once are each answered (and
// each charged): unlike a summary, an answer is one model call, and single flight would cost a
// record and a lease per question for little.
import { createHash } from 'node:crypto';
import type { User } from '../accounts/users/store';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import { type Catalog, resolveModel, usageMetadata } from '../models/catalog';
import type { ChatModel } from '../models/chat';
import { schemaVersion } from '../schema-version';
import type { Cache } from '../store/cache';
import { givesUnitBack, type Quota } from '../store/quota';
import { transcriptMetadata, type VideoRequest } from '../transcripts/videos';
import type { Video } from '../youtube/types';
import { parseVideoId } from '../youtube/url';
import type { answerWithModel } from './answerers';
import { normaliseQuestion } from './question';
import { type AskRequest, type AskResponse, askResponseSchema } from './schemas';

export interface AskServiceDeps {
  catalog: Catalog;
  defaultModel: string;
  quota: Quota;
  /** Answers already given, by answerKey. */
  answers: Cache<AskResponse>;
  /** The video of a request: the transcript cache, else YouTube, as a summary finds it. */
  video: (request: VideoRequest) => Promise<Video>;
  /** One call at a time to a language model of the catalog. */
  chat: (model: Parameters<typeof answerWithModel>[1]['model']) => Promise<ChatModel>;
  logger: Logger;
}

export interface AskOptions {
  /** Aborted when the request's deadline passes: YouTube and the model stop at once. */
  signal: AbortSignal;
  /** When that is (epoch ms). */
  deadlineAt: number;
}

export interface AskService {
  /**
   * Answers a user's question about a video, from the cache when it was answered before.
   * @throws HttpError: 422 (bad URL, unknown model, a video without usable captions, a model
   *   whose context holds no passage), 404 (video unavailable), 429 (quota), 502-504 (YouTube
   *   or the model failed or did not answer before the deadline), 503 (the table).
   */
  ask(user: User, request: AskRequest, options: AskOptions): Promise<AskResponse>;
}

// Derived from the response schema, as a summary's key is: change the answer's shape and older
// answers are no longer found (they expire by their TTL). Built into a Lambda bundle
// (infra/bundling.ts), otherwise computed on first use.
declare const __ASK_SHAPE_VERSION__: string | undefined;
let shape: string | undefined;

/** The key of a cached answer: the hash of the normalised question bounds its length. */
export function answerKey(key: {
  videoId: string;
  language?: string | undefined;
  model: string;
  question: string;
}): string {
  shape ??=
    typeof __ASK_SHAPE_VERSION__ === 'string'
      ? __ASK_SHAPE_VERSION__
      : schemaVersion(askResponseSchema);
  const question = createHash('sha256')
    .update(normaliseQuestion(key.question))
    .digest('base64url')
    .slice(0, 32);
  const track = key.language?.toLowerCase() ?? '*';
  return `ASK#${shape}#${key.videoId}#${track}#${key.model}#${question}`;
}

/** The questions service over its collaborators (all injectable for tests). */
export function createAskService(deps: AskServiceDeps): AskService {
  return { ask: (user, request, options) => askQuestion(deps, user, request, options) };
}

/** AskService.ask: a kept answer, or one made on the user's quota and kept. */
export async function askQuestion(
  deps: AskServiceDeps,
  user: User,
  request: AskRequest,
  { signal, deadlineAt }: AskOptions,
): Promise<AskResponse> {
  const { logger } = deps;
  const startedAt = Date.now();
  // Checked before any I/O: a bad URL or model costs no request anywhere and no unit.
  const videoId = parseVideoId(request.video_url);
  const model = resolveModel(deps.catalog, request.used_model ?? deps.defaultModel);
  const key = answerKey({ ...request, videoId, model: model.name });
  const fields = { video_id: videoId, model: model.name };
  const cached = await deps.answers.get(key);
  if (cached) {
    logger.info('answer served from cache', fields);
    return {
      ...cached,
      metadata: {
        ...cached.metadata,
        question: request.question,
        cached: true,
        elapsed_ms: Date.now() - startedAt,
      },
    };
  }

  const { day } = await deps.quota.reserve(user.id);
  const { answer, video } = await answerOnQuota(deps, { user, day }, async () => {
    const video = await deps.video({ videoId, language: request.language, signal, deadlineAt });
    const input = { question: request.question, videoId, video };
    // Loaded on the first answer made, not at a cold start that may serve only the cache.
    const answerers = await import('./answerers');
    const answer =
      model.kind === 'extractive'
        ? answerers.answerByRetrieval(input)
        : await answerers.answerWithModel(input, {
            chat: await deps.chat(model),
            model,
            signal,
          });
    return { answer, video };
  });

  const response: AskResponse = {
    answer: answer.answer,
    citations: answer.citations,
    metadata: {
      ...video.metadata,
      question: request.question,
      answered: answer.answered,
      ...transcriptMetadata(video),
      context: answer.context,
      passages: answer.passages,
      cached: false,
      ...usageMetadata(model, answer.inputTokens, answer.outputTokens),
      elapsed_ms: Date.now() - startedAt,
      generated_at: new Date().toISOString(),
    },
  };
  await deps.answers.put(key, response).catch((error: unknown) => {
    logger.warn('could not cache the answer', { error: String(error) });
  });
  logger.info('question answered', {
    ...fields,
    answered: answer.answered,
    citations: answer.citations.length,
    context: answer.context,
    input_tokens: answer.inputTokens,
    output_tokens: answer.outputTokens,
  });
  return response;
}

/**
 * Makes an answer with `make` on the unit taken on `day`: a failure of ours or of the model
 * gives the unit back; what YouTube answered keeps it.
 */
async function answerOnQuota<T>(
  { quota, logger }: Pick<AskServiceDeps, 'quota' | 'logger'>,
  { user, day }: { user: User; day: string },
  make: () => Promise<T>,
): Promise<T> {
  try {
    return await make();
  } catch (error) {
    const ours = !(error instanceof HttpError) || givesUnitBack(error);
    if (ours) {
      await quota.release(user.id, day).catch((releaseError: unknown) => {
        logger.warn('could not give back a quota unit', { error: String(releaseError) });
      });
    }
    throw error;
  }
}
