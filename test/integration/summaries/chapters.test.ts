// Chapters over HTTP: real handler stack, DynamoDB Local, the fake YouTube serving a description
// and a length of our choosing, the OpenAI-compatible stub as the language model.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../../lib/transcripts/timed-line';
import type { TranscriptSegment } from '../../../lib/youtube/types';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import {
  OPENAI_MODEL_NAME,
  pollJob,
  type SummarizeEnv,
  startSummarizeEnv,
} from '../../support/summarize-env';
import {
  buildLongTranscript,
  loadSharedTranscript,
  plainWords,
  toCaptionXml,
} from '../../support/transcripts';

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({ JOB_DEADLINE_MS: '60000' });
});
afterAll(() => env?.close());
beforeEach(() => {
  env.youtube.reset();
  env.youtube.setEnglishTrack(undefined);
  env.youtube.setVideoDetails(undefined);
  env.openai.reset();
  env.bedrock.reset();
});

const VIDEO_ID = FAKE_VIDEO_IDS.normal;
const VIDEO = `https://www.youtube.com/watch?v=${VIDEO_ID}`;
let lengthSeed = 120;
/** A summary_length no other test used, so the cache does not answer. */
const freshLength = () => lengthSeed++;

interface ChapterBody {
  start_seconds: number;
  end_seconds: number;
  title: string;
  summary: string;
  url: string;
}

/** Serves `segments` as the video's captions, the video as long as they are (or `seconds`). */
function serve(segments: readonly TranscriptSegment[], details: { description?: string } = {}) {
  const last = segments.at(-1);
  const seconds = last ? Math.ceil((last.offsetMs + last.durationMs) / 1000) : 0;
  env.youtube.setEnglishTrack(toCaptionXml(segments));
  env.youtube.setVideoDetails({ lengthSeconds: seconds, ...details });
  return seconds;
}

/** POST /summarize, then the job's result when it was not ready within the wait. */
async function summarize(body: Record<string, unknown>) {
  const response = await env.host.request('POST', '/summarize', { json: body, token: env.token });
  if (response.status === 202) {
    const { last } = await pollJob(env.host, env.token, response.body.id, { timeoutMs: 60_000 });
    expect(last.body.status).toBe('done');
    return last.body.result;
  }
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Every rule a list of chapters keeps: in order from 0, each ending where the next starts and
 * the last at the video's end, at least 10 s long, titled under 80 characters, summarised in
 * five words or more, linked to its start.
 */
function expectValid(chapters: ChapterBody[], videoSeconds: number) {
  expect(chapters[0]?.start_seconds).toBe(0);
  chapters.forEach((chapter, i) => {
    const next = chapters[i + 1];
    expect(chapter.end_seconds).toBe(next ? next.start_seconds : videoSeconds);
    expect(chapter.end_seconds - chapter.start_seconds).toBeGreaterThanOrEqual(10);
    expect(chapter.title.trim()).not.toBe('');
    expect(chapter.title.length).toBeLessThan(80);
    expect(wordsOf(chapter.summary)).toBeGreaterThanOrEqual(5);
    expect(chapter.url).toBe(
      `https://www.youtube.com/watch?v=${VIDEO_ID}&t=${Math.floor(chapter.start_seconds)}s`,
    );
  });
}

/** Whether `seconds` is the start of one of `segments`. */
const atCaption = (segments: readonly TranscriptSegment[], seconds: number) =>
  segments.some((segment) => segment.offsetMs === Math.round(seconds * 1000));

const CREATOR_DESCRIPTION = [
  'What convolutional neural networks are, and why they work so well on images.',
  '',
  '0:00 Intro',
  '2:30 - Kernels',
  '(7:05) Pooling | layers',
  '15:00 Training: and results',
  '',
  'More videos: https://example.com/playlist',
].join('\n');
const CREATOR_CHAPTERS = [
  { start_seconds: 0, title: 'Intro' },
  { start_seconds: 150, title: 'Kernels' },
  { start_seconds: 425, title: 'Pooling | layers' },
  { start_seconds: 900, title: 'Training: and results' },
];

describe('chapters of a video whose description lists them', () => {
  it.each([
    ['offline', 'extractive'],
    ['with a language model', OPENAI_MODEL_NAME],
  ])(
    'are exactly the creator’s, times and titles verbatim, each summarised (%s)',
    async (_, model) => {
      const captions = loadSharedTranscript().segments;
      const seconds = serve(captions, { description: CREATOR_DESCRIPTION });

      const body = await summarize({
        video_url: VIDEO,
        summary_length: freshLength(),
        used_model: model,
      });

      expect(body.metadata.chapters_source).toBe('creator');
      expect(
        body.chapters.map((c: ChapterBody) => ({ start_seconds: c.start_seconds, title: c.title })),
      ).toEqual(CREATOR_CHAPTERS);
      expectValid(body.chapters, seconds);
      // Each summary says what its own stretch of the transcript says.
      for (const chapter of body.chapters as ChapterBody[]) {
        const stretch = plainWords(
          captions
            .filter(
              (c) =>
                c.offsetMs >= chapter.start_seconds * 1000 - 30_000 &&
                c.offsetMs < chapter.end_seconds * 1000,
            )
            .map((c) => c.text)
            .join(' '),
        );
        const opening = plainWords(chapter.summary).split(' ').slice(1, 4).join(' ');
        expect(stretch, chapter.title).toContain(opening);
      }
    },
  );

  it('asks the model to summarise them in the call it makes anyway', async () => {
    serve(loadSharedTranscript().segments, { description: CREATOR_DESCRIPTION });

    await summarize({
      video_url: VIDEO,
      summary_length: freshLength(),
      used_model: OPENAI_MODEL_NAME,
    });

    expect(env.openai.requests).toHaveLength(1);
    expect(env.openai.requests[0]?.system).toContain(
      'The creator divided the video into the chapters',
    );
    expect(env.openai.requests[0]?.userText).toContain('[7:05] Pooling | layers');
  });
});

describe('chapters made without a description’s', () => {
  it('gives a 10-minute talk 2 to 6 valid chapters offline, each at a caption', async () => {
    const captions = buildLongTranscript(1_650).segments;
    const seconds = serve(captions);
    expect(seconds).toBeGreaterThanOrEqual(600);
    expect(seconds).toBeLessThan(660);

    const body = await summarize({
      video_url: VIDEO,
      summary_length: freshLength(),
      used_model: 'extractive',
    });

    expect(body.metadata.chapters_source).toBe('offline');
    expect(body.chapters.length).toBeGreaterThanOrEqual(2);
    expect(body.chapters.length).toBeLessThanOrEqual(6);
    expectValid(body.chapters, seconds);
    for (const chapter of body.chapters)
      expect(atCaption(captions, chapter.start_seconds)).toBe(true);
  });

  it('snaps a model’s chapters to the captions they fall in and drops one after the end', async () => {
    const captions = loadSharedTranscript().segments;
    const seconds = serve(captions);
    // Two moments inside captions (not at their starts), each caption long enough that no other
    // caption starts within the second named.
    const inside = captions
      .filter((c, i) => {
        const next = captions[i + 1];
        const at = Math.floor(c.offsetMs / 1000) + 1;
        return (
          at * 1000 > c.offsetMs &&
          at * 1000 < c.offsetMs + c.durationMs &&
          next &&
          next.offsetMs >= (at + 1) * 1000
        );
      })
      .filter((c) => c.offsetMs > 120_000);
    const first = inside[0] as TranscriptSegment;
    const second = inside.find((c) => c.offsetMs > first.offsetMs + 300_000) as TranscriptSegment;
    const time = (c: TranscriptSegment) =>
      formatTimestamp((Math.floor(c.offsetMs / 1000) + 1) * 1000);
    const reply = [
      'SUMMARY:',
      'A talk about convolutional neural networks and how they learn kernels from images.',
      'KEY POINTS:',
      'CHAPTERS:',
      '[0:00] **Opening**',
      'The speaker says what deep learning and convolutional neural networks are.',
      `[${time(first)}] Kernels`,
      'Kernels slide over an image and find edges and corners in it.',
      `- [${time(second)}] Learning the kernels`,
      'The network learns its kernels from labelled pictures, adjusting weights.',
      `[${formatTimestamp((seconds + 60) * 1000)}] After the end`,
      'A chapter the video does not have, at a time past its end.',
    ].join('\n');
    env.openai.script(OPENAI_MODEL_NAME, [{ reply }]);

    const body = await summarize({
      video_url: VIDEO,
      summary_length: freshLength(),
      used_model: OPENAI_MODEL_NAME,
    });

    expect(body.metadata.chapters_source).toBe('model');
    expect(body.chapters.map((c: ChapterBody) => [c.start_seconds, c.title])).toEqual([
      [0, 'Opening'],
      [first.offsetMs / 1000, 'Kernels'],
      [second.offsetMs / 1000, 'Learning the kernels'],
    ]);
    expect(body.chapters[1].summary).toBe(
      'Kernels slide over an image and find edges and corners in it.',
    );
    expectValid(body.chapters, seconds);
    expect(env.openai.requests[0]?.system).toMatch(/Divide the video into about \d+ chapters/);
  });

  it.each([
    ['offline', 'extractive'],
    ['by a model summarising in parts', OPENAI_MODEL_NAME],
  ])('gives a 3-hour talk 10 to 45 chapters (%s)', async (_, model) => {
    const captions = buildLongTranscript(30_000).segments;
    const seconds = serve(captions);
    expect(seconds).toBeGreaterThan(3 * 3600 - 600);

    const body = await summarize({
      video_url: VIDEO,
      summary_length: freshLength(),
      used_model: model,
    });

    expect(body.metadata.chapters_source).toBe(model === 'extractive' ? 'offline' : 'model');
    if (model !== 'extractive') expect(body.metadata.chunks).toBeGreaterThan(1);
    expect(body.chapters.length).toBeGreaterThanOrEqual(10);
    expect(body.chapters.length).toBeLessThanOrEqual(45);
    expectValid(body.chapters, seconds);
    for (const chapter of body.chapters)
      expect(atCaption(captions, chapter.start_seconds)).toBe(true);
  });

  it('gives a 2-minute clip none, and asks the model for none, though its description lists some', async () => {
    const captions = buildLongTranscript(300).segments;
    const seconds = serve(captions, { description: '0:00 Intro\n0:30 Kernels\n1:00 Pooling' });
    expect(seconds).toBeLessThan(180);

    const offline = await summarize({
      video_url: VIDEO,
      summary_length: freshLength(),
      used_model: 'extractive',
    });
    const model = await summarize({
      video_url: VIDEO,
      summary_length: freshLength(),
      used_model: OPENAI_MODEL_NAME,
    });

    for (const body of [offline, model]) {
      expect(body.chapters).toEqual([]);
      expect(body.metadata.chapters_source).toBeNull();
    }
    expect(env.openai.requests[0]?.system).not.toContain('CHAPTERS:');
    expect(env.openai.requests[0]?.system).not.toContain('Divide the video');
  });

  it('leaves chapters out when include_chapters is false, from the cache too', async () => {
    serve(buildLongTranscript(1_650).segments);
    const request = { video_url: VIDEO, summary_length: freshLength(), used_model: 'extractive' };

    const made = await summarize({ ...request, include_chapters: false });
    const cached = await summarize(request);

    expect(made).not.toHaveProperty('chapters');
    expect(made.key_points.length).toBeGreaterThan(0);
    expect(made.metadata.chapters_source).toBe('offline');
    expect(cached.metadata.cached).toBe(true);
    expect(cached.chapters.length).toBeGreaterThanOrEqual(2);
  });

  it('makes them offline when the model gives none usable', async () => {
    const captions = loadSharedTranscript().segments;
    const seconds = serve(captions);
    env.openai.script(OPENAI_MODEL_NAME, [
      { reply: 'SUMMARY:\nA summary without chapters.\nKEY POINTS:\n[0:00] A point.' },
    ]);

    const body = await summarize({
      video_url: VIDEO,
      summary_length: freshLength(),
      used_model: OPENAI_MODEL_NAME,
    });

    expect(body.metadata.chapters_source).toBe('offline');
    expect(body.chapters.length).toBeGreaterThanOrEqual(2);
    expectValid(body.chapters, seconds);
  });
});
