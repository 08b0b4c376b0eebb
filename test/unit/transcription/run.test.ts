// The steps of one transcription under a claim, each alone: the audio's length checked and
// charged before any is sent (begin), and an upload backend's audio refused or sent whole when
// it has no index (byUpload). The store and backend fakes keep what they are asked, as the
// real ones' signatures say (lib/transcription/store.ts, backend.ts).
import { describe, expect, it } from 'vitest';
import type { LocatedAudio } from '../../../lib/transcription/audio-source';
import type {
  AudioFile,
  JobBackend,
  TranscribeCall,
  UploadBackend,
} from '../../../lib/transcription/backend';
import { TranscriptionPendingError } from '../../../lib/transcription/errors';
import {
  asJob,
  begin,
  byUpload,
  HAND_OVER_MARGIN_MS,
  type RunState,
  type TranscriptionRunDeps,
  transcribeUnderClaim,
} from '../../../lib/transcription/run';
import type { MinutesCharge } from '../../../lib/transcription/store';
import type { TranscriptionLimits } from '../../../lib/transcription/transcriber';
import type { MediaIndex } from '../../../lib/youtube/audio/segments';
import type { CaptionlessVideo } from '../../../lib/youtube/client';
import { failure } from '../../support/errors';

const MB = 1_048_576;
const limits: TranscriptionLimits = {
  maxMinutes: 90,
  maxMb: 100,
  partMb: 24,
  partMinutes: 20,
  concurrency: 2,
};
const offer = {
  client: 'ANDROID_VR',
  userAgent: 'ua',
  itag: 251,
  url: 'https://rr1.googlevideo.com/videoplayback',
  mimeType: 'audio/webm; codecs="opus"',
  bytes: undefined,
  exact: false,
} as unknown as LocatedAudio['offer'];

const video = (durationSeconds: number | null): CaptionlessVideo =>
  ({
    kind: 'captionless',
    metadata: { video_id: 'dQw4w9WgXcQ', duration_seconds: durationSeconds },
    offers: [offer],
    cipheredOnly: false,
  }) as unknown as CaptionlessVideo;

/** An index of `count` segments of `segmentMs` and `segmentBytes` each, after a 200-byte init. */
function index(count: number, segmentMs: number, segmentBytes: number): MediaIndex {
  const segments = Array.from({ length: count }, (_, i) => ({
    bytes: { start: 200 + i * segmentBytes, end: 200 + (i + 1) * segmentBytes - 1 },
    startMs: i * segmentMs,
    endMs: (i + 1) * segmentMs,
  }));
  return {
    container: 'webm',
    init: { start: 0, end: 199 },
    segments,
    durationMs: count * segmentMs,
  };
}
const indexed = (media: MediaIndex): LocatedAudio => ({
  offer,
  indexed: { index: media, head: new Uint8Array(200) },
});

function fakes(earlierCharge?: MinutesCharge) {
  const charged: { payer: string; minutes: number }[] = [];
  const remembered: unknown[] = [];
  let transcribing = 0;
  const deps = {
    backend: { kind: 'upload', name: 'openai-compatible', uploadLimitBytes: 25 * MB },
    store: {
      charge: async (payer: string, minutes: number) => {
        charged.push({ payer, minutes });
        return { userId: payer, day: '2026-11-28', minutes };
      },
      remember: async (_videoId: string, _owner: string, what: unknown) => {
        remembered.push(what);
      },
    },
    limits,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  } as unknown as TranscriptionRunDeps;
  const state: RunState = {
    partsDone: 0,
    charge: earlierCharge,
    jobName: undefined,
    reached: false,
  };
  const request = {
    videoId: 'dQw4w9WgXcQ',
    signal: AbortSignal.timeout(60_000),
    deadlineAt: Date.now() + 60_000,
    payer: 'user-1',
    onTranscribing: async () => {
      transcribing++;
    },
  };
  return { deps, state, request, charged, remembered, transcribed: () => transcribing };
}

describe('begin', () => {
  it('charges the index’s real length in whole minutes, once, and remembers the charge', async () => {
    const { deps, state, request, charged, remembered, transcribed } = fakes();
    // The player says 10 minutes; the audio is 30 min 0.5 s long.
    const run = { found: video(600), request, owner: 'run-1' };
    const length = await begin(deps, run, state, indexed(index(3601, 500, 1_000)));
    expect(length).toEqual({ durationMs: 1_800_500, minutes: 31, known: true });
    expect(charged).toEqual([{ payer: 'user-1', minutes: 31 }]);
    expect(remembered).toEqual([{ charge: { userId: 'user-1', day: '2026-11-28', minutes: 31 } }]);
    expect(transcribed()).toBe(1);
  });

  it('charges nothing again when an earlier run charged, nor without a payer', async () => {
    const earlier = { userId: 'user-1', day: '2026-11-28', minutes: 31 };
    const resumed = fakes(earlier);
    await begin(
      resumed.deps,
      { found: video(600), request: resumed.request, owner: 'run-2' },
      resumed.state,
      indexed(index(10, 1_000, 1_000)),
    );
    expect(resumed.charged).toEqual([]);
    expect(resumed.state.charge).toBe(earlier);
    const free = fakes();
    const request = { ...free.request, payer: undefined };
    await begin(
      free.deps,
      { found: video(600), request, owner: 'run-3' },
      free.state,
      indexed(index(10, 1_000, 1_000)),
    );
    expect(free.charged).toEqual([]);
  });

  it('charges a minute at least, and takes the player’s length without an index', async () => {
    const short = fakes();
    await begin(
      short.deps,
      { found: video(600), request: short.request, owner: 'o' },
      short.state,
      indexed(index(1, 2_000, 1_000)),
    );
    expect(short.charged).toEqual([{ payer: 'user-1', minutes: 1 }]);
    const whole = fakes();
    const located: LocatedAudio = {
      offer,
      whole: { bytes: new Uint8Array(1_000), mimeType: offer.mimeType, videoId: 'dQw4w9WgXcQ' },
    };
    const length = await begin(
      whole.deps,
      { found: video(61), request: whole.request, owner: 'o' },
      whole.state,
      located,
    );
    expect(length).toEqual({ durationMs: 61_000, minutes: 2, known: false });
  });

  it('takes exactly TRANSCRIPTION_MAX_MINUTES, and refuses a millisecond more before charging', async () => {
    const exact = fakes();
    await begin(
      exact.deps,
      { found: video(60), request: exact.request, owner: 'o' },
      exact.state,
      indexed(index(90, 60_000, 1_000)),
    );
    expect(exact.charged).toEqual([{ payer: 'user-1', minutes: 90 }]);
    const over = fakes();
    const media = index(90, 60_000, 1_000);
    media.durationMs += 1;
    const error = await failure(
      begin(
        over.deps,
        { found: video(60), request: over.request, owner: 'o' },
        over.state,
        indexed(media),
      ),
    );
    expect([error.status, error.type]).toEqual([422, 'video-too-long-to-transcribe']);
    expect(error.message).toContain('91 minutes long');
    expect(over.charged).toEqual([]);
    expect(over.transcribed()).toBe(0);
  });

  it('takes exactly TRANSCRIPTION_MAX_MB of audio, and refuses a byte more before charging', async () => {
    const endingAt = (lastByte: number) => {
      const media = index(100, 1_000, MB - 2);
      const last = media.segments.at(-1);
      if (last) last.bytes.end = lastByte;
      return indexed(media);
    };
    const exact = fakes();
    await begin(
      exact.deps,
      { found: video(60), request: exact.request, owner: 'o' },
      exact.state,
      endingAt(100 * MB),
    );
    expect(exact.charged).toHaveLength(1);
    const over = fakes();
    const error = await failure(
      begin(
        over.deps,
        { found: video(60), request: over.request, owner: 'o' },
        over.state,
        endingAt(100 * MB + 1),
      ),
    );
    expect([error.status, error.type]).toEqual([422, 'transcription-too-large']);
    expect(error.message).toContain('TRANSCRIPTION_MAX_MB');
    expect(over.charged).toEqual([]);
  });
});

describe('byUpload', () => {
  const call = { signal: AbortSignal.timeout(60_000), handOverAt: Date.now() + 60_000 };

  function uploadBackend(limitBytes: number) {
    const files: AudioFile[] = [];
    const backend: UploadBackend = {
      kind: 'upload',
      name: 'openai-compatible',
      uploadLimitBytes: limitBytes,
      transcribeFile: async (file) => {
        files.push(file);
        return { segments: [{ startMs: 0, endMs: 61_500, text: 'Hello there.' }] };
      },
    };
    return { backend, files };
  }

  it('sends audio without an index whole, as long as the player says and a second more', async () => {
    const { deps, state, request } = fakes();
    const bytes = new Uint8Array(10 * MB);
    const located: LocatedAudio = {
      offer,
      whole: { bytes, mimeType: offer.mimeType, videoId: 'dQw4w9WgXcQ' },
    };
    const withSource = {
      ...deps,
      source: { whole: async () => ({ bytes, mimeType: offer.mimeType, videoId: 'dQw4w9WgXcQ' }) },
    } as unknown as TranscriptionRunDeps;
    const { backend, files } = uploadBackend(25 * MB);
    const fetch = { videoId: 'dQw4w9WgXcQ', signal: call.signal };
    const placed = await byUpload(
      withSource,
      backend,
      { request, fetch, located },
      state,
      call,
      61_000,
    );
    expect(files.map((file) => file.durationMs)).toEqual([62_000]);
    expect(placed.segments).toEqual([{ startMs: 0, endMs: 61_500, text: 'Hello there.' }]);
    expect(state.reached).toBe(true);
  });

  it('refuses audio without an index larger than one upload, sending nothing', async () => {
    const { deps, state, request } = fakes();
    const bytes = new Uint8Array(25 * MB + 1);
    const withSource = {
      ...deps,
      source: { whole: async () => ({ bytes, mimeType: offer.mimeType, videoId: 'dQw4w9WgXcQ' }) },
    } as unknown as TranscriptionRunDeps;
    const { backend, files } = uploadBackend(25 * MB);
    const located: LocatedAudio = { offer };
    const fetch = { videoId: 'dQw4w9WgXcQ', signal: call.signal };
    const error = await failure(
      byUpload(withSource, backend, { request, fetch, located }, state, call, 61_000),
    );
    expect([error.status, error.type]).toEqual([422, 'transcription-too-large']);
    expect(files).toEqual([]);
    expect(state.reached).toBe(false);
  });

  it('refuses indexed audio with a segment larger than a part may be, naming the upload limit', async () => {
    const { deps, state, request } = fakes();
    const withSource = { ...deps, source: {} } as unknown as TranscriptionRunDeps;
    // The backend takes 10 MB at once: below TRANSCRIPTION_PART_MB (24), so it bounds a part.
    const { backend, files } = uploadBackend(10 * MB);
    const located = indexed(index(3, 60_000, 11 * MB));
    const fetch = { videoId: 'dQw4w9WgXcQ', signal: call.signal };
    const error = await failure(
      byUpload(withSource, backend, { request, fetch, located }, state, call, 180_000),
    );
    expect([error.status, error.type]).toEqual([422, 'transcription-too-large']);
    expect(error.message).toContain('at most 10 MB (TRANSCRIPTION_MAX_UPLOAD_MB)');
    expect(files).toEqual([]);
  });
});

describe('asJob', () => {
  function jobBackend() {
    const calls: TranscribeCall[] = [];
    const backend: JobBackend = {
      kind: 'job',
      name: 'amazon-transcribe',
      transcribe: async (_audio, call) => {
        calls.push(call);
        await call.started('job-1');
        return { segments: [{ startMs: 1_000, endMs: 2_000, text: 'Hi.' }] };
      },
    };
    return { backend, calls };
  }

  it('picks up an earlier run’s job by its name, neither locating the audio nor charging again', async () => {
    const earlier = { userId: 'user-1', day: '2026-11-28', minutes: 12 };
    const { deps, state, request, charged } = fakes(earlier);
    state.jobName = 'job-0';
    let located = 0;
    const withSource = {
      ...deps,
      source: {
        locate: async () => {
          located++;
          return indexed(index(10, 1_000, 1_000));
        },
      },
    } as unknown as TranscriptionRunDeps;
    const { backend, calls } = jobBackend();
    const placed = await asJob(
      withSource,
      backend,
      { found: video(600), request, owner: 'o' },
      state,
    );
    expect(located).toBe(0);
    expect(charged).toEqual([]);
    expect(calls[0]?.resume).toBe('job-0');
    expect(calls[0]?.handOverAt).toBe(request.deadlineAt - HAND_OVER_MARGIN_MS);
    expect(placed.segments).toEqual([{ startMs: 1_000, endMs: 2_000, text: 'Hi.' }]);
  });

  it('locates and charges a new job, and remembers its name for the next run', async () => {
    const { deps, state, request, charged, remembered } = fakes();
    const withSource = {
      ...deps,
      source: { locate: async () => indexed(index(120, 1_000, 1_000)) },
    } as unknown as TranscriptionRunDeps;
    const { backend, calls } = jobBackend();
    await asJob(withSource, backend, { found: video(600), request, owner: 'o' }, state);
    expect(charged).toEqual([{ payer: 'user-1', minutes: 2 }]);
    expect(calls[0]?.resume).toBeUndefined();
    expect(state.jobName).toBe('job-1');
    expect(remembered.at(-1)).toEqual({ jobName: 'job-1' });
  });
});

describe('transcribeUnderClaim', () => {
  /** An upload run whose download hangs until the hand-over, 100 ms after it starts, with
   * `partsDoneBefore` parts finished in this run by then. */
  async function handedOver(partsDoneBefore: number) {
    const { deps, state, request } = fakes();
    const run = { ...request, deadlineAt: Date.now() + HAND_OVER_MARGIN_MS + 100 };
    const withSource = {
      ...deps,
      source: {
        locate: async () => ({ offer }),
        whole: (_located: LocatedAudio, fetch: { signal: AbortSignal }) =>
          new Promise((_, reject) => {
            state.partsDone = partsDoneBefore;
            fetch.signal.addEventListener('abort', () =>
              reject(new DOMException('This operation was aborted', 'AbortError')),
            );
          }),
      },
    } as unknown as TranscriptionRunDeps;
    return transcribeUnderClaim(withSource, video(60), run, 'o', state).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  it('hands over as a 502 when no part was finished before the run’s time ends', async () => {
    const error = (await handedOver(0)) as { status?: number; type?: string };
    expect([error.status, error.type]).toEqual([502, 'transcription-error']);
  });

  it('hands over as pending when this run finished parts, so the next one goes on', async () => {
    expect(await handedOver(2)).toBeInstanceOf(TranscriptionPendingError);
  });
});
