// What a hostile or broken upstream cannot do through a transcription (docs/SECURITY.md,
// "Transcription"), over HTTP against the real handler stack: a backend's segment a trillion
// seconds past the video's end, or its lines carrying NUL, ESC and bidi overrides; a creator's
// chapter line doing the same; a player answer that says a video lasts five minutes when its
// audio lasts an hour.
import { beforeEach, describe, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { useTranscriptionEnv } from '../../support/summarize-env';

/** Control characters (but tab and newline), bidi controls and zero-width characters. */
const HIDDEN = /(?![\t\n])[\p{Cc}\p{Cf}]/u;

const setup = useTranscriptionEnv({
  TRANSCRIPTION_MAX_MINUTES: '30',
  // Five minutes fit, sixty would not.
  TRANSCRIPTION_DAILY_MINUTES: '8',
});
beforeEach(() => {
  setup.env.youtube.setVideoDetails(undefined);
});

const summarize = (video: string, token = setup.env.token) =>
  setup.env.host.request('POST', '/summarize', {
    json: { video_url: video, summary_length: 120 },
    token,
  });

describe('a transcription backend’s answer', () => {
  it('never puts a key point past the video’s end, nor a hidden character in the output', async () => {
    // The recorded caption-less video lasts 4:48.
    const line = (s: number, text: string) => ({ offsetMs: s * 1000, durationMs: 4_000, text });
    setup.stt.setSegments([
      line(0, 'Kernels slide over the image\u0000 and sum the pixels under them.'),
      line(40, 'Each kernel\u001b[2J finds edges, corners or \u202Etxt.exe\u202C blobs.'),
      line(90, 'Pooling\u200B layers shrink the maps \u2066between\u2069 the convolutions.'),
      line(150, 'The last layers\u0085 decide what the picture shows.'),
      line(200, 'Training tunes the kernels from labelled examples.'),
      line(1e12, 'A trillion seconds in, the network is still talking about kernels and edges.'),
    ]);

    const answer = await summarize(FAKE_VIDEO_IDS['audio-refused-first']);

    expect(answer.status, answer.text).toBe(200);
    const { key_points: points, summary, metadata } = answer.body;
    expect(points.length).toBeGreaterThan(0);
    for (const point of points) {
      expect(point.start_seconds).toBeLessThanOrEqual(metadata.duration_seconds);
      expect(point.text).not.toMatch(HIDDEN);
    }
    expect(answer.text).not.toMatch(/trillion/);
    expect(summary).not.toMatch(HIDDEN);
    expect(summary.length).toBeGreaterThan(0);
    expect(JSON.stringify(answer.body.chapters)).not.toMatch(HIDDEN);
  });
});

describe('a creator’s chapter line', () => {
  it('reaches the chapters without its hidden characters', async () => {
    setup.env.youtube.setVideoDetails({
      description:
        '0:00 Intro\u0000\n1:00 Kernels \u202Egnp.exe\n2:30 Pooling\u2066 layers\u2069\n3:30 Wrap\u200B-up',
    });

    const answer = await summarize(FAKE_VIDEO_IDS.normal);

    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.metadata.chapters_source).toBe('creator');
    expect(answer.body.chapters.map((chapter: { title: string }) => chapter.title)).toEqual([
      'Intro',
      'Kernels gnp.exe',
      'Pooling layers',
      'Wrap-up',
    ]);
  });
});

describe('a player answer that understates the video’s length', () => {
  it('is checked and charged by the audio’s own length: 422 after reading only its index', async () => {
    // The player says 5 minutes; the audio's index says an hour.
    setup.env.youtube.setVideoDetails({ lengthSeconds: 300 });
    const { token } = await setup.env.host.registerAndLogin();

    const answer = await summarize(FAKE_VIDEO_IDS['no-captions-long'], token);

    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.type).toBe('urn:tubesum:problem:video-too-long-to-transcribe');
    expect(answer.body.detail).toMatch(/6[01] minutes long.*at most 30 minutes/);
    // Only the init segment and the index were asked for; nothing reached the backend.
    const served = setup.env.youtube.media.find((request) => request.file)?.file;
    expect(setup.env.youtube.media.map((request) => request.range)).toEqual([
      [0, served?.indexRange.end],
    ]);
    expect(setup.stt.requests).toHaveLength(0);
    // No minutes were charged: five more still fit the budget of eight.
    setup.env.youtube.setVideoDetails(undefined);
    const next = await summarize(FAKE_VIDEO_IDS['audio-foreign-first'], token);
    expect(next.status, next.text).toBe(200);
  });
});
