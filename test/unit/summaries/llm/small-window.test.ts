// A model with a small window: the description and chapters of each prompt are cut to what the
// window leaves beside the data (the description first), so a 2,048-token window summarises a
// 10-minute talk in parts whatever the video's metadata, and every call fits the window.
import { describe, expect, it } from 'vitest';
import { answerWithModel } from '../../../../lib/ask/answerers';
import type { OpenAiModel } from '../../../../lib/models/catalog';
import { estimateTokens } from '../../../../lib/models/tokens';
import { type ModelLimits, plannerFor } from '../../../../lib/summaries/llm/plan';
import {
  type ChatModel,
  type ChatRequest,
  createLlmSummarizer,
} from '../../../../lib/summaries/llm/summarizer';
import { creatorChapters } from '../../../../lib/transcripts/creator-chapters';
import { dataBlock } from '../../../../lib/transcripts/data-block';
import { formatTimestamp } from '../../../../lib/transcripts/timed-line';
import type { VideoMetadata } from '../../../../lib/youtube/types';
import { echoAnswer } from '../../../support/echo-model';
import { buildLongTranscript, loadSharedMetadata } from '../../../support/transcripts';

/** A window of 2,048 tokens, a quarter of it for the answer (as OPENAI_MODELS makes it). */
const window2k: ModelLimits & OpenAiModel = {
  kind: 'openai',
  name: 'small',
  label: 'small',
  modelId: 'small',
  contextTokens: 2_048,
  maxOutputTokens: 512,
  reasoningReserveTokens: 0,
  inputPricePer1k: 0,
  outputPricePer1k: 0,
};

/** A ChatModel answering as the stubs do, keeping the requests. */
function echoChat() {
  const requests: ChatRequest[] = [];
  const chat: ChatModel = {
    async complete(request) {
      requests.push(request);
      return { text: echoAnswer({ system: request.system, userText: request.user }) };
    },
  };
  return { chat, requests };
}

/** Whether a request fits the window by the service's own estimate. */
const fits = (request: ChatRequest) =>
  estimateTokens(request.system) + estimateTokens(request.user) + request.maxTokens <=
  window2k.contextTokens;

/** Sixty chapter lines, "0:00 Chapter 1 ..." a minute apart. */
const CHAPTERS = Array.from(
  { length: 60 },
  (_, i) => `${i}:00 Chapter ${i + 1} on a topic with a fairly long title`,
);
/** As long as YouTube allows of each: a 100-character title, a long description, chapters. */
const crowded: VideoMetadata = {
  ...loadSharedMetadata(),
  title: 'T'.repeat(100),
  channel_title: 'C'.repeat(100),
  description: [`Intro prose ${'about the talk '.repeat(150)}`, ...CHAPTERS].join('\n'),
};

const lineOf = (text: string, start: string) =>
  text.split('\n').find((line) => line.startsWith(start));

describe('the data block within a number of characters', () => {
  const full = dataBlock('tag', crowded, 'Transcript', 'body');
  const within = (chars: number) => dataBlock('tag', crowded, 'Transcript', 'body', chars);

  it('shows the description and chapters whole when they fit', () => {
    expect(within(Number.POSITIVE_INFINITY)).toBe(full);
    expect(within(full.length)).toBe(full);
    expect(lineOf(full, 'Description:')).toMatch(/…$/);
    expect(full).toContain('[0:00] Chapter 1 on');
  });

  it('cuts the description first, then leaves chapters out from the last', () => {
    const chapters = full.slice(full.indexOf('Chapters:'), full.indexOf('Transcript:'));

    const cutDescription = within(chapters.length + 200);
    const someChapters = within(300);
    const none = within(0);

    expect(lineOf(cutDescription, 'Description:')?.length).toBeLessThan(200);
    expect(lineOf(cutDescription, 'Description:')).toMatch(/^Description: Intro prose .*…$/);
    expect(cutDescription).toContain(chapters);
    expect(lineOf(someChapters, 'Description:')).toBeUndefined();
    expect(someChapters).toContain('[0:00] Chapter 1 on');
    expect(someChapters).not.toContain(CHAPTERS.at(-1)?.slice(5));
    expect(none).not.toMatch(/Description:|Chapters:/);
    // Title, channel and date are never cut.
    for (const block of [cutDescription, someChapters, none]) {
      expect(block).toContain(`Title: ${crowded.title}`);
      expect(block).toContain(`Channel: ${crowded.channel_title}`);
    }
  });

  it('lists the chapters a call is asked to summarise whole, cutting only the description', () => {
    // The last three of sixty: past what a prompt lists of the whole description.
    const asked = creatorChapters(crowded.description).slice(-3);
    const lines = asked.map((chapter) => `[${formatTimestamp(chapter.startMs)}] ${chapter.title}`);
    const block = (chars: number) => dataBlock('tag', crowded, 'Transcript', 'body', chars, asked);

    for (const chars of [0, 200, Number.POSITIVE_INFINITY]) {
      expect(block(chars)).toContain(['Chapters:', ...lines, 'Transcript:'].join('\n'));
      expect(block(chars)).not.toContain('[0:00] Chapter 1 on');
    }
    expect(lineOf(block(0), 'Description:')).toBeUndefined();
    expect(lineOf(block(200), 'Description:')?.length).toBeLessThan(200);
    expect(lineOf(block(200), 'Description:')).toMatch(/^Description: Intro prose .*…$/);
    expect(lineOf(block(Number.POSITIVE_INFINITY), 'Description:')).toBe(
      lineOf(full, 'Description:'),
    );
  });
});

describe('a 2,048-token window', () => {
  it('can make summaries of 25 to about 100 words, whatever the video', () => {
    const longest = plannerFor(window2k).longestSummary();

    expect(longest).toBeGreaterThanOrEqual(100);
    expect(plannerFor(window2k).longestSummary(crowded)).toBeGreaterThanOrEqual(longest);
  });

  it('summarises a 10-minute talk with the longest metadata in parts, every call within the window', async () => {
    const { chat, requests } = echoChat();

    const result = await createLlmSummarizer({ chat, limits: window2k, concurrency: 2 }).summarize({
      transcript: buildLongTranscript(1_700),
      metadata: crowded,
      targetWords: 100,
      signal: AbortSignal.timeout(20_000),
    });

    expect(result.chunks).toBeGreaterThan(1);
    expect(requests.length).toBeGreaterThan(result.chunks);
    for (const request of requests) {
      expect(fits(request)).toBe(true);
      // What the video is: its title always, and as much of the rest as the window leaves.
      expect(request.user).toContain(`Title: ${crowded.title}`);
    }
    const parts = requests.filter((request) => request.step === 'part');
    expect(parts.some((request) => request.user.includes('Chapters:'))).toBe(true);
  });

  it('answers a question of 500 characters about such a video from passages, within the window', async () => {
    const { chat, requests } = echoChat();

    const answer = await answerWithModel(
      {
        question: `What does the talk say about the topic? ${'Please be precise. '.repeat(23)}`,
        videoId: crowded.video_id,
        video: {
          metadata: crowded,
          transcript: buildLongTranscript(1_700),
          client: 'WEB',
          source: 'captions',
        },
      },
      { chat, model: window2k, signal: AbortSignal.timeout(10_000) },
    );

    expect(requests).toHaveLength(1);
    expect(fits(requests[0] as ChatRequest)).toBe(true);
    expect(answer.context).toBe('passages');
    expect(answer.passages).toBeGreaterThan(0);
  });
});
