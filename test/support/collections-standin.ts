// A stand-in for the collections routes (POST /collections, GET and DELETE /collections/{id},
// POST /collections/{id}/ask) inside a browser page, for the page's browser test while the
// playlist and channel reader (lib/youtube/collections) is on another branch: the page's calls
// to them are answered here, in the API's shapes (lib/collections/schemas.ts), and everything
// else goes to the real local host. The collection's videos are real: each is summarized by the
// local host's POST /summarize with the person's own token (so the page opens real summary
// jobs), its overview is made of those summaries' key points, and a question is answered by the
// local host's POST /ask about its first summarized video.
import { randomUUID } from 'node:crypto';
import type { Page, Route } from 'playwright-core';
import type { Collection, CollectionAnswer, Job, Problem } from '../../web/api';

type Video = Collection['videos'][number];

/** A playlist or channel the stand-in knows: what YouTube would list. */
export interface ListedCollection {
  kind: Collection['kind'];
  title: string;
  author: string;
  /** In order; a skipped entry (private, deleted…) is never summarized. */
  videos: { video_id: string; title: string; skipped?: NonNullable<Video['reason']> }[];
  /** Its videos are never started: it stays running until cancelled. */
  hold?: boolean;
}

export interface CollectionsStandIn {
  /** Each call the page made to the collections routes, as `METHOD /path`. */
  calls: string[];
}

const problem = (status: number, type: string, detail: string): Problem => ({
  type: `urn:tubesum:problem:${type}`,
  title: 'Problem',
  status,
  detail,
  request_id: randomUUID(),
});

/** What each playlist or channel is called in a link: its list id, or its path. */
function keyOf(url: string): string {
  const parsed = new URL(url);
  return parsed.searchParams.get('list') ?? parsed.pathname.replace(/^\/|\/$/g, '');
}

/**
 * Answers the page's calls to the collections routes with `listed` (by list id, or a channel's
 * path such as `@creativecommons`), summarizing their videos on the local host at `hostUrl`.
 */
export async function standInCollections(
  page: Page,
  hostUrl: string,
  listed: Record<string, ListedCollection>,
): Promise<CollectionsStandIn> {
  const origin = new URL(hostUrl).origin;
  const collections = new Map<string, { collection: Collection; hold: boolean; token: string }>();
  const calls: string[] = [];

  /** The local host, called as the page would with the person's token. */
  const host = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${origin}/${path}`, {
      method,
      headers: {
        authorization: token,
        'content-type': 'application/json',
        prefer: 'respond-async',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
    };
  };

  /** One step: the next queued video is started, or the running one looked at, or the overview made. */
  const advance = async (entry: { collection: Collection; token: string }) => {
    const { collection, token } = entry;
    const running = collection.videos.find((video) => video.status === 'running');
    const queued = collection.videos.find((video) => video.status === 'queued');
    if (running?.summary_id) {
      const { body } = await host('GET', `summaries/${running.summary_id}`, token);
      const job = body as Job;
      if (job.status === 'done') running.status = 'done';
      if (job.status === 'failed') Object.assign(running, { status: 'failed', error: job.error });
    } else if (queued) {
      const started = await host('POST', 'summarize', token, {
        video_url: queued.url,
        used_model: collection.request.used_model,
        summary_length: collection.request.summary_length,
      });
      if (started.status === 202) {
        Object.assign(queued, { status: 'running', summary_id: (started.body as Job).id });
      } else if (started.status === 200) {
        const location = started.headers.get('content-location') ?? '';
        Object.assign(queued, { status: 'done', summary_id: location.split('/').at(-1) });
      } else {
        Object.assign(queued, { status: 'failed', error: started.body as Problem });
      }
    } else {
      collection.overview = await overviewOf(collection, token);
      collection.status = 'done';
    }
    collection.progress.done = collection.videos.filter(
      (video) => video.status !== 'queued' && video.status !== 'running',
    ).length;
    if (collection.status === 'queued') collection.status = 'running';
  };

  /** Two themes across the summarized videos: each cites a key point of every one of them. */
  const overviewOf = async (collection: Collection, token: string) => {
    const done = collection.videos.filter((video) => video.status === 'done');
    const jobs = await Promise.all(
      done.map(
        async (video) => (await host('GET', `summaries/${video.summary_id}`, token)).body as Job,
      ),
    );
    const summaries = jobs.flatMap((job) => (job.result ? [job.result] : []));
    const themes = [0, 1].map((at) => ({
      title: at === 0 ? 'How the videos begin' : 'What they come back to',
      summary: `Each of the ${summaries.length} videos says this in its own words.`,
      citations: summaries.flatMap((summary) => {
        const point = summary.key_points?.[at];
        return point
          ? [
              {
                video_id: summary.metadata.video_id,
                start_seconds: point.start_seconds,
                text: point.text,
                url: point.url,
              },
            ]
          : [];
      }),
    }));
    const summary = summaries.map((one) => one.summary.split('\n')[0]).join('\n\n');
    return {
      summary,
      word_count: summary.split(/\s+/).length,
      themes,
      model: collection.request.used_model,
      videos: summaries.length,
      input_tokens: null,
      output_tokens: null,
      generated_at: new Date().toISOString(),
    };
  };

  const create = (body: Record<string, unknown>, token: string) => {
    const url = String(body.url);
    const key = keyOf(url);
    if (key.startsWith('RD') && !key.startsWith('RDCLAK5uy_')) {
      return problem(
        422,
        'collection-mix-unsupported',
        `"${key}" is a YouTube mix, a list YouTube makes up for each viewer as it plays; it has no fixed entries to summarize. Use a regular playlist or a channel, or summarize the video itself with POST /summarize.`,
      );
    }
    const spec = listed[key];
    if (!spec)
      return problem(404, 'playlist-unavailable', 'YouTube says this playlist does not exist.');
    const now = new Date().toISOString();
    const collection: Collection = {
      id: randomUUID().replace(/-/g, '').slice(0, 22),
      kind: spec.kind,
      title: spec.title,
      author: spec.author,
      url: url.trim(),
      status: 'queued',
      progress: { done: 0, total: 0 },
      request: {
        summary_length: Number(body.summary_length ?? 200),
        used_model: String(body.used_model ?? 'extractive'),
        summary_language: null,
        limit: Number(body.limit),
      },
      more: spec.videos.length > Number(body.limit),
      videos: spec.videos.slice(0, Number(body.limit)).map((video) => ({
        video_id: video.video_id,
        title: video.title,
        url: `https://www.youtube.com/watch?v=${video.video_id}`,
        status: video.skipped ? 'skipped' : 'queued',
        summary_id: null,
        reason: video.skipped ?? null,
        error: null,
      })),
      overview: null,
      error: null,
      created_at: now,
      updated_at: now,
    };
    collection.progress = {
      done: collection.videos.filter((v) => v.status === 'skipped').length,
      total: collection.videos.length,
    };
    collections.set(collection.id, { collection, hold: spec.hold === true, token });
    return collection;
  };

  const ask = async (collection: Collection, question: string, token: string) => {
    const first = collection.videos.find((video) => video.status === 'done');
    const { body } = await host('POST', 'ask', token, {
      video_url: first?.url,
      question,
      used_model: collection.request.used_model,
    });
    const answer: CollectionAnswer = {
      answer: body.answer,
      citations: body.citations.map((citation: object) => ({
        ...citation,
        video_id: first?.video_id,
      })),
      metadata: { ...body.metadata, videos: 1 },
    };
    return answer;
  };

  const reply = (
    route: Route,
    status: number,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    route.fulfill({
      status,
      headers: {
        'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
        ...headers,
      },
      body: body === undefined ? '' : JSON.stringify(body),
    });

  await page.route(new RegExp(`^${origin}/collections(/|$)`), async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    calls.push(`${request.method()} ${path}`);
    const token = request.headers().authorization ?? '';
    const [, , id, action] = path.split('/');
    if (request.method() === 'POST' && id === undefined) {
      const made = create(request.postDataJSON(), token);
      if ('detail' in made) return reply(route, made.status, made);
      return reply(route, 202, made, { location: `/collections/${made.id}`, 'retry-after': '1' });
    }
    const entry = id ? collections.get(id) : undefined;
    if (!entry || entry.token !== token)
      return reply(route, 404, problem(404, 'not-found', 'No such collection.'));
    const { collection } = entry;
    const unfinished = collection.status === 'queued' || collection.status === 'running';
    if (request.method() === 'GET') {
      if (unfinished && !entry.hold) await advance(entry);
      const still = collection.status === 'queued' || collection.status === 'running';
      return reply(route, 200, collection, still ? { 'retry-after': '1' } : {});
    }
    if (request.method() === 'DELETE') {
      if (!unfinished) {
        collections.delete(collection.id);
        return reply(route, 204);
      }
      collection.status = 'cancelled';
      for (const video of collection.videos)
        if (video.status === 'queued') video.status = 'cancelled';
      collection.progress.done = collection.videos.filter(
        (video) => video.status !== 'running',
      ).length;
      return reply(route, 200, collection);
    }
    if (request.method() === 'POST' && action === 'ask') {
      return reply(route, 200, await ask(collection, request.postDataJSON().question, token));
    }
    return reply(route, 405, problem(405, 'method-not-allowed', 'Method not allowed.'));
  });
  return { calls };
}
