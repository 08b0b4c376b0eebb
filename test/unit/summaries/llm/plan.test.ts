// plannerFor's parts, each alone: how a part's words are bounded, the key points a step asks
// for, the room a call leaves a transcript beside the video's description, the shorter summary
// a long video's part summaries leave room for, and the longest summary at its boundary.
import { describe, expect, it } from 'vitest';
import { maxWordsFor, wantedTokens } from '../../../../lib/models/tokens';
import { keyPointCount } from '../../../../lib/summaries/key-points';
import { type ModelLimits, plannerFor } from '../../../../lib/summaries/llm/plan';
import type { PromptContext, Step } from '../../../../lib/summaries/llm/prompt';
import type { VideoMetadata } from '../../../../lib/youtube/types';
import { loadSharedMetadata } from '../../../support/transcripts';

const limits = (contextTokens: number, maxOutputTokens: number): ModelLimits => ({
  name: 'm',
  contextTokens,
  maxOutputTokens,
  reasoningReserveTokens: 0,
});
const shared = loadSharedMetadata();
const withDescription = (description: string): VideoMetadata => ({ ...shared, description });
const part = (words: number): Step => ({ kind: 'part', words, index: 0, count: 4 });
const final = (words: number): Step => ({
  kind: 'combine',
  words,
  first: 1,
  last: 2,
  total: 2,
  final: true,
});

describe('partWordsMax and clampWords', () => {
  it('bound a part’s words to 60-800 on a model that can answer that much', () => {
    const planner = plannerFor(limits(32_768, 4_096));
    expect(planner.partWordsMax).toBe(800);
    expect([10, 60, 500, 800, 5_000].map((words) => planner.clampWords(words))).toEqual([
      60, 60, 500, 800, 800,
    ]);
  });

  it('never ask more than the model can answer, even below 60 words', () => {
    const tiny = limits(4_096, 200);
    const planner = plannerFor(tiny);
    expect(planner.partWordsMax).toBe(maxWordsFor(tiny));
    expect(planner.partWordsMax).toBeLessThan(60);
    expect(planner.clampWords(10)).toBe(planner.partWordsMax);
    expect(planner.clampWords(500)).toBe(planner.partWordsMax);
  });
});

describe('pointsFor', () => {
  const planner = plannerFor(limits(32_768, 4_096));
  it('asks no key points when the summary has none, and no more than a step’s words carry', () => {
    const context = (keyPoints: number): PromptContext => ({ metadata: shared, keyPoints });
    expect(planner.pointsFor(part(800), context(0))).toBe(0);
    expect(planner.pointsFor(part(100), context(10))).toBe(keyPointCount(100));
    expect(planner.pointsFor(final(2_000), context(5))).toBe(5);
  });
});

describe('dataBudget and metadataChars', () => {
  const planner = plannerFor(limits(8_192, 2_048));
  const long = withDescription('A description. '.repeat(2_000));

  it('keep a part’s description at most a quarter of the room, and leave it that room', () => {
    const bare = planner.dataBudget(part(300), { metadata: withDescription(''), keyPoints: 3 });
    const crowded = planner.dataBudget(part(300), { metadata: long, keyPoints: 3 });
    expect(crowded).toBeLessThan(bare);
    expect(crowded).toBeGreaterThanOrEqual(Math.floor(bare * 0.75) - 1);
    // A transcript that fills the budget still leaves the description its quarter.
    const body = 'x'.repeat(crowded * 3);
    const chars = planner.metadataChars(part(300), { metadata: long, keyPoints: 3 }, body);
    expect(chars).toBeGreaterThanOrEqual(3 * (bare - crowded) - 6);
  });

  it('give a combination all the room: its description gets what the summaries leave', () => {
    const context = (metadata: VideoMetadata): PromptContext => ({ metadata, keyPoints: 5 });
    expect(planner.dataBudget(final(500), context(long))).toBe(
      planner.dataBudget(final(500), context(withDescription(''))),
    );
  });

  it('leave the description less the longer the body', () => {
    const context: PromptContext = { metadata: long, keyPoints: 3 };
    const short = planner.metadataChars(part(300), context, 'x'.repeat(3_000));
    const longer = planner.metadataChars(part(300), context, 'x'.repeat(6_000));
    expect(short - longer).toBe(3_000);
    expect(planner.metadataChars(part(300), context, 'x'.repeat(100_000))).toBe(0);
  });
});

describe('shorterThan', () => {
  const planner = plannerFor(limits(8_192, 2_048));
  const context: PromptContext = { metadata: shared, keyPoints: 5 };
  const holds = (words: number, bodyTokens: number, asked: number) =>
    planner.dataBudget(final(words), {
      ...context,
      keyPoints: keyPointCount(words),
    }) >=
    (bodyTokens * words) / asked;

  it('is the longest shorter summary whose final step holds its share of the part summaries', () => {
    const asked = 900;
    const bodyTokens = 12_000;
    const shorter = planner.shorterThan(asked, bodyTokens, context);
    expect(shorter).toBeGreaterThan(0);
    expect(shorter).toBeLessThan(asked);
    expect(holds(shorter, bodyTokens, asked)).toBe(true);
    expect(holds(shorter + 1, bodyTokens, asked)).toBe(false);
  });

  it('is shorter for more part summaries', () => {
    expect(planner.shorterThan(900, 20_000, context)).toBeLessThan(
      planner.shorterThan(900, 12_000, context),
    );
  });
});

describe('longestSummary', () => {
  it('is where the answer stops fitting the output limit, when the context is large', () => {
    // 1,999 tokens: exactly what 966 words and their 10 key points may need.
    const model = limits(200_000, 1_999);
    let expected = 0;
    while (wantedTokens(expected + 1, model, keyPointCount(expected + 1)) <= 1_999) expected++;
    expect(wantedTokens(expected, model, keyPointCount(expected))).toBe(1_999);
    expect(plannerFor(model).longestSummary()).toBe(expected);
  });

  it('is kept per model for any video, not for one video’s metadata', () => {
    const model = limits(3_000, 1_000);
    const planner = plannerFor(model);
    const any = planner.longestSummary();
    expect(plannerFor(model).longestSummary()).toBe(any);
    expect(planner.longestSummary(withDescription(''))).toBeGreaterThan(any);
    expect(planner.longestSummary()).toBe(any);
  });
});
