// The summary record's key: its version is derived from the response schema, so a change of the
// summary's shape can never serve records of the old shape (SUMMARY_SHAPE_VERSION by hand was
// easy to forget, and no test could catch it).
import { describe, expect, it } from 'vitest';
import * as z from '../../../../lib/schema';
import { schemaVersion } from '../../../../lib/schema-version';
import { summarizeResponseSchema } from '../../../../lib/summaries/schemas';
import {
  modelOfKey,
  reusable,
  type SummaryRecord,
  shapeVersion,
  summaryKey,
  videoIdOfKey,
} from '../../../../lib/summaries/store/records';

const work = { videoId: 'py5byOOHZM8', model: 'extractive', length: 200 };

describe('the summary key', () => {
  it('carries the version of the response schema it was made with', () => {
    expect(summaryKey(work)).toBe(`SUMMARY#${shapeVersion()}#py5byOOHZM8#*#extractive#200#*`);
    expect(shapeVersion()).toBe(schemaVersion(summarizeResponseSchema));
  });

  it('changes when a field is added to the response, or its type changes', () => {
    const added = z.extend(summarizeResponseSchema, { reading_minutes: z.int() });
    const retyped = z.object({ ...summarizeResponseSchema.shape, word_count: z.string() });

    expect(schemaVersion(added)).not.toBe(shapeVersion());
    expect(schemaVersion(retyped)).not.toBe(shapeVersion());
    expect(schemaVersion(added)).not.toBe(schemaVersion(retyped));
  });

  it('names its model where the local queue reads it (modelOfKey), whatever the model is called', () => {
    for (const model of ['extractive', 'qwen2.5:7b-instruct', 'us.amazon.nova-micro-v1:0']) {
      const key = summaryKey({ ...work, model, language: 'pt-BR', summaryLanguage: 'en' });
      expect(modelOfKey(key)).toBe(model);
    }
    expect(modelOfKey('ASK#abc#py5byOOHZM8#*#extractive#q')).toBeUndefined();
  });

  it('names its video where a job shows it (videoIdOfKey)', () => {
    const key = summaryKey({ ...work, videoId: 'a-b_c1234XY', model: 'qwen2.5:7b-instruct' });
    expect(videoIdOfKey(key)).toBe('a-b_c1234XY');
    expect(videoIdOfKey('ASK#abc#py5byOOHZM8#*#extractive#q')).toBeUndefined();
  });

  it('tells languages apart, ignoring their case', () => {
    const german = summaryKey({ ...work, summaryLanguage: 'DE' });

    expect(german).toBe(summaryKey({ ...work, summaryLanguage: 'de' }));
    expect(german).not.toBe(summaryKey(work));
    expect(summaryKey({ ...work, language: 'en' })).not.toBe(summaryKey(work));
  });
});

describe('what a new request may do with a record', () => {
  const now = 1_800_000_000_000;
  const record = (state: SummaryRecord['state'], reuseUntil = 0, expiresAt = now / 1000 + 60) =>
    ({ state, reuseUntil, expiresAt }) as SummaryRecord;

  it('reuses an outcome until its reuse time, then starts a new run', () => {
    expect(reusable(record('done', now + 1), now)).toBe('done');
    expect(reusable(record('done', now), now)).toBe('free');
    expect(reusable(record('failed', now + 1), now)).toBe('failed');
    expect(reusable(record('failed', now - 1), now)).toBe('free');
  });

  it('joins a run under way, and starts anew after a cancelled one or none', () => {
    expect(reusable(record('running'), now)).toBe('running');
    // A run abandoned for so long that its record is due for deletion is started anew.
    expect(reusable(record('running', 0, now / 1000 - 1), now)).toBe('free');
    expect(reusable(record('cancelled', now + 1_000), now)).toBe('free');
    expect(reusable(undefined, now)).toBe('free');
  });
});
