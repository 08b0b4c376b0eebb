// POST /collections/{id}/ask: a question across a collection's summarized videos, answered
// within the request as POST /ask is. Every video's transcript (the transcript cache, else
// YouTube) is cut into passages and searched as one (BM25+ across the collection). Offline, the
// best passages are the answer; a language model gets the best passages that fit its context,
// each marked `[V<n> m:ss]`, and its marks are checked as /ask's are: each is moved to the
// caption of that video near that time that says the sentence before it, or dropped. Nothing a
// model writes can cite a moment outside the collection's videos. The quota and the cache work
// as /ask's: a cached answer is free, any other takes a unit, given back on our failures.
import { createHash } from 'node:crypto';
import type { User } from '../accounts/users/store';
import { makeCitation, quotedInAnswer } from '../ask/citations';
import { answeringPassages, passagesOf, searchPassages } from '../ask/passages';
import { normaliseQuestion } from '../ask/question';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import { type BedrockModel, type Catalog, type OpenAiModel, resolveModel } from '../models/catalog';
import type { ChatModel } from '../models/chat';
import type { Cache } from '../store/cache';
import { givesUnitBack, type Quota } from '../store/quota';
import { formatTimestamp } from '../transcripts/timed-line';
import type { VideoRequest } from '../transcripts/videos';
import type { Video } from '../youtube/types';
import { type Found, modelAnswer, NOT_ADDRESSED } from './answers';
import { CollectionNotReadyError } from './errors';
import type { CollectionAskResponse, CollectionCitation } from './schemas';
import type { Collection } from './store';

export interface CollectionAskDeps {
  catalog: Catalog;
  /** The user's collection. @throws CollectionNotFoundError */
  collection: (user: Pick<User, 'id'>, id: string) => Promise<Collection>;
  quota: Pick<Quota, 'reserve' | 'release'>;
  answers: Cache<CollectionAskResponse>;
  video: (request: VideoRequest) => Promise<Video>;
  chat: (model: BedrockModel | OpenAiModel) => Promise<ChatModel>;
  logger: Logger;
}

/** Transcripts read at once. */
const READS_AT_ONCE = 8;

/** The key of a cached answer: the collection, the videos it read, the model, the question. */
function answerKey(
  collection: Collection,
  videoIds: readonly string[],
  model: string,
  question: string,
) {
  const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 32);
  return `CASK#v1#${collection.id}#${hash(videoIds.join(','))}#${model}#${hash(normaliseQuestion(question))}`;
}

/** The collection questions service over its collaborators. */
export function createCollectionAsk(deps: CollectionAskDeps) {
  return {
    /**
     * Answers a question across the user's collection.
     * @throws CollectionNotFoundError, CollectionNotReadyError (409), 429 (quota), 502-504
     *   (YouTube or the model), 503 (the table).
     */
    ask: (
      user: Pick<User, 'id'>,
      id: string,
      question: string,
      options: ReadOptions,
    ): Promise<CollectionAskResponse> => askCollection(deps, user, id, question, options),
  };
}

/** How long the videos may take to read, and what stops them. */
type ReadOptions = { signal: AbortSignal; deadlineAt: number };

/** An answer as made, before the question's own metadata is added. */
type MadeAnswer = Omit<
  CollectionAskResponse['metadata'],
  'question' | 'model' | 'cached' | 'elapsed_ms'
> & {
  answer: string;
  citations: CollectionCitation[];
};

/** createCollectionAsk's ask: a kept answer, or one made on the user's quota and kept. */
export async function askCollection(
  deps: CollectionAskDeps,
  user: Pick<User, 'id'>,
  id: string,
  question: string,
  options: ReadOptions,
): Promise<CollectionAskResponse> {
  const { logger } = deps;
  const startedAt = Date.now();
  const collection = await deps.collection(user, id);
  const done = collection.videos.filter((video) => video.status === 'done');
  if (done.length === 0) throw new CollectionNotReadyError();
  const model = resolveModel(deps.catalog, collection.request.model);
  const key = answerKey(
    collection,
    done.map((video) => video.videoId),
    model.name,
    question,
  );
  const cached = await deps.answers.get(key);
  if (cached) {
    return {
      ...cached,
      metadata: { ...cached.metadata, question, cached: true, elapsed_ms: Date.now() - startedAt },
    };
  }
  const { day } = await deps.quota.reserve(user.id);
  let made: MadeAnswer;
  try {
    made = await answerOf(deps, collection, model, question, options);
  } catch (error) {
    if (!(error instanceof HttpError) || givesUnitBack(error)) {
      await deps.quota.release(user.id, day).catch(() => undefined);
    }
    throw error;
  }
  const { answer, citations, ...rest } = made;
  const response: CollectionAskResponse = {
    answer,
    citations,
    metadata: {
      question,
      model: model.name,
      ...rest,
      cached: false,
      elapsed_ms: Date.now() - startedAt,
    },
  };
  await deps.answers.put(key, response).catch((error: unknown) => {
    logger.warn('could not cache the answer', { error: String(error) });
  });
  logger.info('collection question answered', {
    collection_id: collection.id,
    model: model.name,
    answered: response.metadata.answered,
    citations: citations.length,
  });
  return response;
}

/** The answer from the videos' passages: the best of them offline, else the model's. */
async function answerOf(
  deps: CollectionAskDeps,
  collection: Collection,
  model: ReturnType<typeof resolveModel>,
  question: string,
  options: ReadOptions,
): Promise<MadeAnswer> {
  const videos = await readTranscripts(deps, collection, options);
  const passages: Found[] = videos.flatMap(({ video }, v) =>
    passagesOf(video.transcript).map((passage) => ({ video: v, passage })),
  );
  const search = searchPassages(
    passages.map(({ passage }, index) => ({ ...passage, index })),
    question,
  );
  const at = (index: number) => passages[index] as Found;
  if (model.kind !== 'extractive') {
    const matches = search.matches.map((match) => at(match.passage.index));
    return modelAnswer(question, matches, videos, {
      chat: await deps.chat(model),
      model,
      signal: options.signal,
    });
  }
  const best = answeringPassages(search).map((match) => at(match.passage.index));
  const citations = best.map(({ video, passage }) => ({
    video_id: videos[video]?.videoId ?? '',
    ...makeCitation(videos[video]?.videoId ?? '', passage.startMs, passage.text),
  }));
  return {
    answer:
      citations.length === 0
        ? NOT_ADDRESSED
        : citations
            .map((c) => `${quotedInAnswer(c.text)} [${formatTimestamp(c.start_seconds * 1000)}]`)
            .join('\n\n'),
    citations,
    answered: citations.length > 0,
    videos: videos.length,
    passages: citations.length,
    input_tokens: null,
    output_tokens: null,
  };
}

/** The transcripts of its done videos (a video that cannot be read now is left out). */
export async function readTranscripts(
  { video, logger }: Pick<CollectionAskDeps, 'video' | 'logger'>,
  collection: Collection,
  options: ReadOptions,
): Promise<{ videoId: string; video: Video }[]> {
  const done = collection.videos.filter((entry) => entry.status === 'done');
  const read: ({ videoId: string; video: Video } | undefined)[] = [];
  let firstError: unknown;
  for (let start = 0; start < done.length; start += READS_AT_ONCE) {
    read.push(
      ...(await Promise.all(
        done.slice(start, start + READS_AT_ONCE).map(async ({ videoId }) => {
          try {
            return { videoId, video: await video({ videoId, ...options }) };
          } catch (error) {
            firstError ??= error;
            logger.warn('a video of the collection could not be read', {
              video_id: videoId,
              error,
            });
            return undefined;
          }
        }),
      )),
    );
  }
  const found = read.filter((entry) => entry !== undefined);
  if (found.length === 0 && firstError !== undefined) throw firstError;
  return found;
}
