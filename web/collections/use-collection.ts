// The collection the page follows: started by the summary form (POST /collections), read again
// while it runs (GET /collections/{id}, after the Retry-After the API answers with), cancelled
// (DELETE /collections/{id}) or put away; and questions across its videos.
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, type Collection, type CollectionAnswer, call } from '../api';
import type { Asker } from '../summaries/ask';
import { collectionEnded } from './format';
import { collectionMoments } from './overview';

/** What POST /collections takes from the form. */
export interface CollectionRequest {
  url: string;
  limit: number;
  summary_length?: number;
  used_model?: string;
  summary_language?: string;
}

/**
 * How long to wait before reading the collection again: the API's Retry-After (2 s queued, 5 s
 * running), within bounds, so a person sees each video settle without the page asking more
 * often than the API suggests; 2 s without one.
 */
export function pollDelayMs(headers: Headers): number {
  const seconds = Number(headers.get('retry-after'));
  if (!Number.isFinite(seconds) || seconds <= 0) return 2_000;
  return Math.min(Math.max(seconds, 1), 10) * 1_000;
}

/**
 * The collection shown, and what can be done with it. `onFailure` gets any failure of a read
 * or a cancellation (a refused token); `onEnded` is told when the collection ends (its videos'
 * summaries are in the history then).
 */
export function useCollection(
  token: string,
  onFailure: (error: unknown) => void,
  onEnded: () => void,
) {
  const [collection, setCollection] = useState<Collection>();
  const delay = useRef(2_000);

  const show = (answer: Answer<Collection>) => {
    delay.current = pollDelayMs(answer.headers);
    setCollection(answer.body);
    if (collectionEnded(answer.body)) onEnded();
  };

  useEffect(() => {
    if (!collection || collectionEnded(collection)) return;
    const { id } = collection;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const answer = await call<Collection>('GET', `collections/${id}`, {
          token,
          signal: controller.signal,
        });
        // Another collection started (or this one put away) meanwhile aborted the read.
        show(answer);
      } catch (error) {
        if (!controller.signal.aborted) onFailure(error);
      }
    }, delay.current);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [collection, token]);

  /** Starts one, and says its id. @throws ApiError for the API's refusal (shown by the form). */
  const start = async (request: CollectionRequest): Promise<string> => {
    const answer = await call<Collection>('POST', 'collections', { token, body: request });
    show(answer);
    return answer.body.id;
  };

  /** Shows one by its id (the page's address names it). */
  const open = async (id: string) => {
    try {
      show(await call<Collection>('GET', `collections/${encodeURIComponent(id)}`, { token }));
    } catch (error) {
      onFailure(error);
    }
  };

  const cancel = async () => {
    if (!collection) return;
    try {
      const answer = await call<Collection>('DELETE', `collections/${collection.id}`, { token });
      // 200: cancelled (its body is the collection); 204: it had just finished, and is removed.
      if (answer.status === 200) show(answer);
      else setCollection(undefined);
      onEnded();
    } catch (error) {
      onFailure(error);
    }
  };

  return { collection, start, open, cancel, clear: () => setCollection(undefined) };
}

/** Questions across the collection's videos (POST /collections/{id}/ask; the server's model). */
export function collectionAsker(token: string, collection: Collection): Asker {
  return async (question) => {
    const { body } = await call<CollectionAnswer>('POST', `collections/${collection.id}/ask`, {
      token,
      body: { question },
    });
    return {
      ...body.metadata,
      answer: body.answer,
      moments: collectionMoments(collection, body.citations),
    };
  };
}
