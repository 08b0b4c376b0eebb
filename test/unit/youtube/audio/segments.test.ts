// readMediaIndex's own checks: which containers it cuts, the ranges it is given, and that any
// damage to a file's first bytes gives a MediaIndexError or a sound index, never another error,
// an endless loop or a huge allocation (random bytes flipped and heads cut at random places).
import { describe, expect, it } from 'vitest';
import {
  type MediaIndex,
  MediaIndexError,
  readMediaIndex,
} from '../../../../lib/youtube/audio/segments';
import { type GeneratedAudio, mp4Audio, webmAudio } from '../../../support/media/containers';
import { indexedFormat } from '../../../support/media/ffmpeg';
import { Noise } from '../../../support/media/writer';

const webm = webmAudio({ durationMs: 30_000, bytesPerSecond: 2_000, clusterMs: 1_000, seed: 5 });
const mp4 = mp4Audio({ durationMs: 30_000, bytesPerSecond: 2_000, fragmentMs: 1_000, seed: 5 });

/** Whether an index keeps its promises: segments non-empty, contiguous in bytes and time. */
function sound(index: MediaIndex, fileLength: number): boolean {
  return index.segments.every((segment, i) => {
    const before = index.segments[i - 1];
    return (
      segment.bytes.end > segment.bytes.start &&
      segment.endMs > segment.startMs &&
      Number.isFinite(segment.endMs) &&
      segment.bytes.end <= fileLength &&
      (!before || (before.bytes.end === segment.bytes.start && before.endMs === segment.startMs))
    );
  });
}

/** What reading `head` as `audio`'s format does: 'index', 'refused', or the unexpected error. */
function outcome(audio: GeneratedAudio, head: Uint8Array, indexEnd?: number): string {
  const format = indexedFormat(audio);
  if (indexEnd !== undefined) format.indexRange = { ...format.indexRange, end: indexEnd };
  try {
    return sound(readMediaIndex(head, format), audio.bytes.length) ? 'index' : 'unsound index';
  } catch (error) {
    return error instanceof MediaIndexError ? 'refused' : String(error);
  }
}

describe('readMediaIndex', () => {
  it.each([
    ['audio/webm; codecs="opus"', webm, 'webm'],
    ['AUDIO/WEBM', webm, 'webm'],
    ['audio/mp4; codecs="mp4a.40.2"', mp4, 'mp4'],
  ] as const)('reads %s as %s', (mimeType, audio, container) => {
    const index = readMediaIndex(audio.bytes, { ...indexedFormat(audio), mimeType });

    expect(index.container).toBe(container);
  });

  it.each(['video/mp4', 'audio/ogg', 'audio/webmx', ''])('refuses to cut %j', (mimeType) => {
    expect(() => readMediaIndex(webm.bytes, { ...indexedFormat(webm), mimeType })).toThrow(
      MediaIndexError,
    );
  });

  it('refuses an index range that starts inside the init segment', () => {
    const format = indexedFormat(webm);

    const read = () =>
      readMediaIndex(webm.bytes, {
        ...format,
        initRange: { start: 0, end: format.indexRange.start + 1 },
      });

    expect(read).toThrow(/overlap/);
  });

  it.each([
    ['WebM', webm],
    ['MP4', mp4],
  ])(
    'gives a MediaIndexError or a sound index for %s with random bytes flipped',
    (_name, audio) => {
      const noise = new Noise(42);
      const end = audio.indexRange.end + 1;
      const outcomes = new Set<string>();

      for (let round = 0; round < 3_000; round++) {
        const head = Buffer.from(audio.bytes.subarray(0, end));
        for (let flips = 1 + (noise.next() % 3); flips > 0; flips--) {
          head[noise.next() % end] = noise.next() & 0xff;
        }
        outcomes.add(outcome(audio, head));
      }

      expect([...outcomes].sort()).toEqual(['index', 'refused']);
    },
  );

  it.each([
    ['WebM', webm],
    ['MP4', mp4],
  ])('refuses %s heads cut anywhere inside the index', (_name, audio) => {
    const outcomes = new Set<string>();

    for (let end = audio.indexRange.start + 1; end <= audio.indexRange.end; end++) {
      outcomes.add(outcome(audio, audio.bytes.subarray(0, end), end));
    }

    expect([...outcomes]).toEqual(['refused']);
  });
});
