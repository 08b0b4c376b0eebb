// Problem details read cleanly: YouTube's reasons keep their own full stop, and get one when
// they have none.
import { describe, expect, it } from 'vitest';
import { videoUnavailable, videoUnplayable } from '../../../lib/youtube/errors';

describe('YouTube’s reasons in problem details', () => {
  it.each([
    [
      'The page needs to be reloaded.',
      'YouTube will not play this video: The page needs to be reloaded.',
    ],
    ['Custom Reason', 'YouTube will not play this video: Custom Reason.'],
    [undefined, 'YouTube will not play this video: no reason given.'],
  ])('ends %j with one full stop when unplayable', (reason, detail) => {
    expect(videoUnplayable(reason).message).toBe(detail);
  });

  it.each([
    [
      'This video is private.',
      'YouTube says this video is unavailable or private: "This video is private."',
    ],
    [
      'This video is unavailable',
      'YouTube says this video is unavailable or private: "This video is unavailable".',
    ],
    [undefined, 'YouTube says this video is unavailable or private.'],
  ])('ends %j with one full stop when unavailable', (reason, detail) => {
    expect(videoUnavailable(reason).message).toBe(detail);
  });
});
