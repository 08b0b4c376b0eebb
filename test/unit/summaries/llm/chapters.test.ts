// A model's chapters ride on the calls a summary makes anyway: asked in the whole transcript's
// call or in each part's, never in a combination; parts follow the creator's chapters where the
// description lists them; and where a model gives none usable, they are made offline.
import { describe, expect, it } from 'vitest';
import { splitChapters } from '../../../../lib/summaries/chapters/model';
import { checkChapters } from '../../../../lib/summaries/llm/chapter-asks';
import { spansOf, splitAtChapters } from '../../../../lib/summaries/llm/parts';
import type { ModelLimits } from '../../../../lib/summaries/llm/plan';
import { splitIntoParts } from '../../../../lib/summaries/llm/plan/even-split';
import {
  type ChatModel,
  type ChatRequest,
  createLlmSummarizer,
} from '../../../../lib/summaries/llm/summarizer';
import { formatTimestamp } from '../../../../lib/transcripts/timed-line';
import { timedUnits } from '../../../../lib/transcripts/timed-units';
import type { Transcript, VideoMetadata } from '../../../../lib/youtube/types';
import { echoAnswer } from '../../../support/echo-model';
import { buildLongTranscript, loadSharedMetadata } from '../../../support/transcripts';

const long = buildLongTranscript(30_000);
const starts = new Set(long.segments.map((segment) => segment.offsetMs));
const lastCaption = long.segments.at(-1);
const endMs = (lastCaption?.offsetMs ?? 0) + (lastCaption?.durationMs ?? 0);

function fakeChat(
  answer: (request: ChatRequest) => string = (request) =>
    echoAnswer({ system: request.system, userText: request.user }),
) {
  const requests: ChatRequest[] = [];
  const chat: ChatModel = {
    async complete(request) {
      requests.push(request);
      return { text: answer(request) };
    },
  };
  return { chat, requests };
}

const limits: ModelLimits = {
  name: 'local',
  contextTokens: 32_768,
  maxOutputTokens: 8_192,
  reasoningReserveTokens: 0,
};

function summarize(chat: ChatModel, metadata: VideoMetadata, transcript: Transcript = long) {
  return createLlmSummarizer({ chat, limits, concurrency: 2 }).summarize({
    transcript,
    metadata,
    targetWords: 300,
    signal: AbortSignal.timeout(30_000),
  });
}

describe('a model’s chapters of a 3-hour talk in parts', () => {
  it('asks each part for its share of them, the combinations for none, and keeps them at captions', async () => {
    const { chat, requests } = fakeChat();

    const result = await summarize(chat, { ...loadSharedMetadata(), description: 'A talk.' });

    const parts = requests.filter((request) => request.step === 'part');
    expect(parts.length).toBe(result.chunks);
    for (const request of parts)
      expect(request.system).toMatch(/Divide this part of the transcript into about \d+ chapters/);
    for (const request of requests.filter((r) => r.step === 'combine')) {
      expect(request.system).not.toContain('CHAPTERS:');
    }
    expect(result.chapters.source).toBe('model');
    expect(result.chapters.list.length).toBeGreaterThanOrEqual(10);
    expect(result.chapters.list.length).toBeLessThanOrEqual(45);
    for (const chapter of result.chapters.list) {
      expect(starts.has(chapter.startMs) || chapter.startMs === 0).toBe(true);
    }
    expect(result.chapters.list.at(-1)?.endMs).toBe(endMs);
  });

  it('summarises the creator’s chapters in the parts that start them, the parts ending where chapters do', async () => {
    const { chat, requests } = fakeChat();
    const times = [0, 1_500, 3_000, 4_600, 6_100, 7_700, 9_000];
    const description = times
      .map(
        (seconds, i) =>
          `${Math.floor(seconds / 3600)}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')} Chapter ${i + 1}`,
      )
      .join('\n');

    const result = await summarize(chat, { ...loadSharedMetadata(), description });

    expect(result.chapters.source).toBe('creator');
    expect(result.chapters.list.map((c) => [c.startMs / 1000, c.title])).toEqual(
      times.map((seconds, i) => [seconds, `Chapter ${i + 1}`]),
    );
    const parts = requests.filter((request) => request.step === 'part');
    // Every chapter is summarised by exactly one part, which lists it in its range.
    const asked = parts.flatMap((request) =>
      [...(request.user.match(/^\[[\d:]+\] Chapter \d+$/gm) ?? [])].filter(() =>
        request.system.includes('The creator divided the video'),
      ),
    );
    expect(asked).toHaveLength(times.length);
    for (const chapter of result.chapters.list) {
      expect(chapter.summary.split(/\s+/).length).toBeGreaterThanOrEqual(5);
    }
  });

  it('lists in each part every chapter it is asked to summarise, however many the description has', async () => {
    const { chat, requests } = fakeChat();
    // 40 chapters four minutes apart, titled at length: more than a prompt lists of the whole.
    const chapters = Array.from({ length: 40 }, (_, i) => {
      const minutes = i * 4;
      return {
        time: `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:00`,
        title: `Chapter ${i + 1}, on what the speaker says in this stretch of the talk`,
      };
    });
    const description = chapters.map((c) => `${c.time} ${c.title}`).join('\n');

    const result = await summarize(chat, { ...loadSharedMetadata(), description });

    expect(result.chapters.source).toBe('creator');
    expect(result.chapters.list).toHaveLength(chapters.length);
    const asking = requests.filter(
      (request) => request.step === 'part' && request.system.includes('The creator divided'),
    );
    expect(asking.length).toBe(result.chunks);
    for (const { title } of chapters) {
      const listed = asking.filter((request) => request.user.includes(`] ${title}\n`));
      expect(listed, title).toHaveLength(1);
    }
  });

  it('makes them offline when the model gives none', async () => {
    const { chat } = fakeChat((request) =>
      echoAnswer({ system: 'no chapters asked', userText: request.user }),
    );

    const result = await summarize(chat, { ...loadSharedMetadata(), description: '' });

    expect(result.chapters.source).toBe('offline');
    expect(result.chapters.list.length).toBeGreaterThanOrEqual(10);
  });
});

describe('a model’s chapter summaries', () => {
  it('keep at most three sentences of what the model wrote', async () => {
    const talk = buildLongTranscript(1_650);
    const at = (index: number) => formatTimestamp(talk.segments[index]?.offsetMs ?? 0);
    const { chat } = fakeChat(() =>
      [
        'SUMMARY:',
        'A talk about kernels and how networks learn them from pictures.',
        'CHAPTERS:',
        '[0:00] Opening',
        'The first sentence says what the talk is. The second says who gives it. The third one ends it. A fourth says one thing too many. A fifth too.',
        `[${at(40)}] Kernels`,
        'Kernels slide over the image and find its edges. That is all it says.',
        `[${at(80)}] Learning`,
        'The network learns its kernels from labelled pictures.',
      ].join('\n'),
    );

    const result = await summarize(chat, { ...loadSharedMetadata(), description: '' }, talk);

    expect(result.chapters.source).toBe('model');
    expect(result.chapters.list.map((chapter) => chapter.summary)).toEqual([
      'The first sentence says what the talk is. The second says who gives it. The third one ends it.',
      'Kernels slide over the image and find its edges. That is all it says.',
      'The network learns its kernels from labelled pictures.',
    ]);
  });
});

describe('parts that follow the creator’s chapters', () => {
  const units = timedUnits(long);

  it('end where chapters start, and are at most one more than the even split', () => {
    const chapterStarts = [0, 1_500_000, 3_000_000, 4_600_000, 6_100_000, 7_700_000, 9_000_000];
    const budget = 20_000;
    const even = splitIntoParts(
      units.map((unit) => unit.text),
      budget,
    ).length;

    const parts = splitAtChapters(units, budget, chapterStarts) ?? [];
    const spans = spansOf(units, parts);

    expect(parts.length).toBeGreaterThanOrEqual(even);
    expect(parts.length).toBeLessThanOrEqual(even + 1);
    for (const span of spans.slice(1)) {
      const first = units.find((unit) => unit.startMs >= span.startMs);
      expect(
        chapterStarts.some((ms) => first?.startMs === units.find((u) => u.startMs >= ms)?.startMs),
      ).toBe(true);
    }
    for (const part of parts) expect(Math.ceil(part.length / 3)).toBeLessThanOrEqual(budget);
    // Nothing lost: the parts hold every unit, in order.
    expect(parts.join(' ')).toBe(units.map((unit) => unit.text).join(' '));
  });

  it('are not made when no cut at chapter starts fits the budget', () => {
    expect(splitAtChapters(units, 15_000, [0, 9_000_000])).toBeUndefined();
  });
});

describe('checkChapters', () => {
  const caption = long.segments[200];
  const at = caption?.offsetMs ?? 0;
  const mark = `${Math.floor(at / 60_000)}:${String(Math.floor((at % 60_000) / 1000)).padStart(2, '0')}`;
  const cut = (text: string) => text.slice(0, 20);

  it('keeps a made chapter in the stretch the call read, at its caption, its summary cut', () => {
    const { chapters: claimed } = splitChapters(
      [
        'CHAPTERS:',
        `[${mark}] Inside`,
        'A summary far longer than any chapter needs to be, going on and on.',
        '[2:59:59] Outside the stretch',
        'This chapter is in another part.',
        '[99:99] Not a time',
        'Read as more of the chapter before.',
      ].join('\n'),
    );

    const kept = checkChapters(
      { kind: 'make', count: 2, fromMs: at - 60_000, toMs: at + 600_000 },
      claimed,
      long,
      endMs,
      cut,
    );

    expect(kept).toEqual([{ startMs: at, title: 'Inside', summary: 'A summary far longer' }]);
  });

  it('keeps a creator chapter the call summarised, with the creator’s time and title', () => {
    const { chapters: claimed } = splitChapters(
      'CHAPTERS:\n[0:01] A title the model changed\nWhat the first chapter says, in words.',
    );

    const kept = checkChapters(
      {
        kind: 'summarise',
        chapters: [
          { startMs: 0, title: 'Intro' },
          { startMs: 600_000, title: 'Kernels' },
        ],
        fromMs: 0,
        toMs: 1_200_000,
      },
      claimed,
      long,
      endMs,
      (text) => text,
    );

    expect(kept).toEqual([
      { startMs: 0, title: 'Intro', summary: 'What the first chapter says, in words.' },
    ]);
  });
});
