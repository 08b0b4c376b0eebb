import { describe, expect, it } from 'vitest';
import { classifyBedrockError } from '../../../../lib/aws/bedrock';
import { type BedrockModel, resolveModel } from '../../../../lib/models/catalog';
import { estimateTokens, maxTokensFor } from '../../../../lib/models/tokens';
import { plannerFor } from '../../../../lib/summaries/llm/plan';
import { splitIntoParts } from '../../../../lib/summaries/llm/plan/even-split';
import { buildCatalog } from '../../../../lib/summaries/offer';
import { loadSharedMetadata } from '../../../support/transcripts';

const novaMicro = resolveModel(buildCatalog(), 'nova-micro') as BedrockModel;
const words = (text: string) => text.split(/\s+/).filter(Boolean);
const named = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, ...extra });

describe('estimateTokens', () => {
  it('over-estimates at one token per three characters', () => {
    expect(estimateTokens('a'.repeat(300))).toBe(100);
    expect(estimateTokens('abcd')).toBe(2);
  });
});

describe('maxTokensFor', () => {
  it('allows about 1.5 tokens per word plus a margin', () => {
    expect(maxTokensFor(200, novaMicro)).toBe(450);
  });

  it('adds the reasoning reserve and caps at the model output limit', () => {
    const thinking = { ...novaMicro, reasoningReserveTokens: 1000 };
    expect(maxTokensFor(200, thinking)).toBe(1450);
    expect(maxTokensFor(2000, { ...novaMicro, maxOutputTokens: 1000 })).toBe(1000);
  });
});

describe('splitIntoParts', () => {
  const units = Array.from({ length: 500 }, (_, i) => `segment ${i} says something useful here.`);

  it('keeps every word, in order, across the parts', () => {
    const parts = splitIntoParts(units, 400);

    expect(parts.length).toBeGreaterThan(1);
    expect(words(parts.join(' '))).toEqual(words(units.join(' ')));
  });

  it('keeps every part within the token budget and of similar size', () => {
    const parts = splitIntoParts(units, 400);
    const sizes = parts.map(estimateTokens);

    expect(Math.max(...sizes)).toBeLessThanOrEqual(400);
    expect(Math.min(...sizes)).toBeGreaterThan(Math.max(...sizes) / 2);
  });

  it('splits on segment boundaries when segments fit', () => {
    const parts = splitIntoParts(units, 400);

    for (const part of parts) expect(part).toMatch(/^segment \d+ .*here\.$/);
  });

  it('cuts an oversized segment on sentence ends, then on spaces', () => {
    const sentence = 'word '.repeat(30).trim();
    const giant = `${sentence}. ${sentence}! ${'x'.repeat(10)} ${'y '.repeat(200).trim()}`;

    const parts = splitIntoParts([giant], 60);

    expect(parts.length).toBeGreaterThan(2);
    expect(words(parts.join(' '))).toEqual(words(giant));
    for (const part of parts) expect(estimateTokens(part)).toBeLessThanOrEqual(60);
  });

  it('shares the text out evenly instead of leaving a small last part', () => {
    // Issue 19's shape: under a budget of 4,153 tokens, filling parts to the brim made four of
    // 3,987 and a fifth of 35. Five parts are needed either way; they should be alike.
    const captions = Array.from({ length: 461 }, (_, i) =>
      `u${i} ${'word '.repeat(25)}`.slice(0, 102).trim().concat('.'),
    );

    const sizes = splitIntoParts(captions, 4_153).map(estimateTokens);

    expect(sizes).toHaveLength(5);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4_153);
    expect(Math.min(...sizes)).toBeGreaterThan(0.9 * Math.max(...sizes));
  });

  it('returns one part when everything fits', () => {
    expect(splitIntoParts(['short one', '  ', 'short two'], 1000)).toEqual(['short one short two']);
  });
});

describe('the longest summary a model can make', () => {
  const window = (contextTokens: number, maxOutputTokens: number) =>
    plannerFor({ name: 'm', contextTokens, maxOutputTokens, reasoningReserveTokens: 0 });

  it('is a few hundred words for a 4,096-token window, about 1,000 for 8,192', () => {
    expect(window(4_096, 1_024).longestSummary()).toBeGreaterThan(300);
    expect(window(4_096, 1_024).longestSummary()).toBeLessThan(400);
    expect(window(8_192, 2_048).longestSummary()).toBeGreaterThan(900);
    expect(window(8_192, 2_048).longestSummary()).toBeLessThan(1_000);
  });

  it('covers the API’s 2,000 words on the built-in Bedrock models', () => {
    for (const name of ['nova-micro', 'nova-lite', 'nova-pro', 'claude-haiku', 'claude-sonnet']) {
      const model = resolveModel(buildCatalog(), name) as BedrockModel;

      expect(plannerFor(model).longestSummary(), name).toBeGreaterThanOrEqual(2_000);
    }
  });

  it('is 0 for a window that cannot hold a part of a transcript beside its prompt', () => {
    expect(window(1_024, 256).longestSummary()).toBe(0);
  });

  it('is longer for a video with a short description than for the largest prompt', () => {
    const planner = window(3_000, 1_000);

    expect(planner.longestSummary(loadSharedMetadata())).toBeGreaterThan(planner.longestSummary());
  });
});

describe('classifyBedrockError', () => {
  it('retries throttling, unavailability, model warm-up and network failures', () => {
    for (const error of [
      named('ThrottlingException'),
      named('ServiceUnavailableException'),
      named('InternalServerException'),
      named('ModelNotReadyException'),
      named('Error', { code: 'ECONNRESET' }),
      named('SomethingNew', { $metadata: { httpStatusCode: 502 } }),
    ]) {
      expect(classifyBedrockError(error).retryable).toBe(true);
    }
  });

  it('does not retry quota exhaustion, access, validation, timeouts or aborts', () => {
    expect(classifyBedrockError(named('ServiceQuotaExceededException'))).toEqual({
      kind: 'throttled',
      retryable: false,
    });
    expect(classifyBedrockError(named('AccessDeniedException')).kind).toBe('access-denied');
    expect(classifyBedrockError(named('CredentialsProviderError')).kind).toBe(
      'credentials-missing',
    );
    expect(classifyBedrockError(named('ValidationException')).kind).toBe('invalid-request');
    expect(classifyBedrockError(named('ResourceNotFoundException')).kind).toBe('not-found');
    expect(classifyBedrockError(named('ModelTimeoutException')).kind).toBe('timeout');
    expect(classifyBedrockError(named('AbortError')).kind).toBe('aborted');
    expect(classifyBedrockError(new TypeError('bug')).kind).toBe('unknown');
  });
});
