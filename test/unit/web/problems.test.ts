// Which field of the summary form a problem is shown by (web/problems.ts).
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../web/api';
import { fieldOf } from '../../../web/problems';

const problem = (type: string, extra: Partial<Problem> = {}): Problem => ({
  type: `urn:tubesum:problem:${type}`,
  title: 'Problem',
  status: 422,
  detail: 'It went wrong.',
  request_id: 'r',
  ...extra,
});

describe('fieldOf', () => {
  it('names the field a validation error names', () => {
    expect(
      fieldOf(problem('validation-error', { errors: [{ field: 'used_model', message: 'no' }] })),
    ).toBe('used_model');
  });

  it('puts problems about the video by the Video URL field', () => {
    for (const type of ['video-unavailable', 'captions-disabled', 'transcript-empty']) {
      expect(fieldOf(problem(type)), type).toBe('video_url');
    }
  });

  it('puts a length the model cannot make by the length field', () => {
    expect(fieldOf(problem('summary-length-unsupported'))).toBe('summary_length');
  });

  it('leaves quota and blocking to the action as a whole', () => {
    for (const type of ['quota-exceeded', 'youtube-blocked', 'model-throttled']) {
      expect(fieldOf(problem(type)), type).toBeUndefined();
    }
  });
});
