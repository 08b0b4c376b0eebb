// What an OpenAI-compatible server's answer becomes, piece by piece: where the upload goes, the
// times of its segments (seconds, or the one unit that explains them), text laid over the file
// when it has no times, a refusal's words as a person reads them, and which failed connections
// may be tried again.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../lib/errors';
import { nothingWasSent, patientFetch } from '../../../lib/net/patient-fetch';
import type { AudioFile } from '../../../lib/transcription/backend';
import { endpointOf } from '../../../lib/transcription/openai/endpoint';
import { readable } from '../../../lib/transcription/openai/failures';
import { heardOf, sentencesIn } from '../../../lib/transcription/openai/heard';
import { runToEnd } from '../../../lib/util/cooperative';

const file = (durationMs?: number): AudioFile => ({
  bytes: new Uint8Array(8),
  mimeType: 'audio/webm',
  videoId: 'dQw4w9WgXcQ',
  ...(durationMs === undefined ? {} : { durationMs }),
});
const heard = (answer: unknown, durationMs?: number) =>
  runToEnd(heardOf(answer, file(durationMs), { format: 'verbose_json' }));
const problem = (run: () => unknown): HttpError => {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
};
const segments = (...times: [number, number][]) =>
  times.map(([start, end], i) => ({ start, end, text: ` line ${i}` }));

describe('endpointOf', () => {
  it.each([
    ['http://localhost:8000/v1', undefined, 'http://localhost:8000/v1/audio/transcriptions', false],
    [
      'http://localhost:8000/v1/',
      undefined,
      'http://localhost:8000/v1/audio/transcriptions',
      false,
    ],
    ['http://localhost:8080/inference', undefined, 'http://localhost:8080/inference', true],
    ['http://localhost:8080', '/inference', 'http://localhost:8080/inference', true],
    [
      'http://gpu:9000/api',
      '/v1/audio/transcriptions',
      'http://gpu:9000/api/v1/audio/transcriptions',
      false,
    ],
  ])('%s with path %s posts to %s', (base, path, url, whisperCpp) => {
    expect(endpointOf(base, path)).toEqual({ url, whisperCpp });
  });
});

describe('segment times', () => {
  it('are seconds when they fit the file, a little past its end included', () => {
    const result = heard({ segments: segments([0, 4.5], [4.5, 10.6]) }, 10_000);

    expect(result.segments.map((segment) => [segment.startMs, segment.endMs])).toEqual([
      [0, 4_500],
      [4_500, 10_600],
    ]);
  });

  it.each([
    ['milliseconds', 1e3],
    ['microseconds', 1e6],
    ['nanoseconds', 1e9],
  ])('in %s are rescaled when that unit alone makes them fit', (_unit, per) => {
    const result = heard({ segments: segments([0, 4 * per], [4 * per, 590 * per]) }, 600_000);

    expect(result.segments.map((segment) => [segment.startMs, segment.endMs])).toEqual([
      [0, 4_000],
      [4_000, 590_000],
    ]);
  });

  it('in seconds with a stray line past the end stay seconds: the stray is for placing to drop', () => {
    const times: [number, number][] = [
      [0.5, 1.25],
      [1.25, 2.5],
      [2.5, 3.75],
      [4.5, 5_000.5],
    ];

    const result = heard({ segments: segments(...times) }, 10_000);

    expect(result.segments.map((segment) => segment.endMs)).toEqual([
      1_250, 2_500, 3_750, 5_000_500,
    ]);
  });

  it('that are not whole numbers of a unit are not rescaled: a 502 naming them', () => {
    const error = problem(() => heard({ segments: segments([0, 1.5e9 + 0.5]) }, 600_000));

    expect(error.status).toBe(502);
    expect(error.message).toMatch(/segment times up to 1\.5e\+9 s in a 600-second file/);
  });

  it('that are missing on some segments are not a transcription; a negative one is left to be dropped', () => {
    // Where every backend's segments are placed (heard.ts), one starting before its file is dropped.
    expect(heard({ segments: segments([-1, 2]) }, 10_000).segments[0]?.startMs).toBe(-1_000);
    expect(
      problem(() => heard({ segments: [{ start: 0, end: 1, text: 'a' }, { text: 'b' }] }, 10_000))
        .message,
    ).toMatch(/some segments have no times/);
  });

  it('absent from every segment (whisper.cpp -nt) leave the text, laid over the file', () => {
    const result = heard(
      { text: 'One. Two.', segments: [{ text: 'One.' }, { text: 'Two.' }] },
      8_000,
    );

    expect(result).toEqual({
      segments: [
        { startMs: 0, endMs: 4_000, text: 'One.' },
        { startMs: 4_000, endMs: 8_000, text: 'Two.' },
      ],
      timing: 'estimated',
    });
  });

  it('more than 20 lines per second of audio is not speech: a 502', () => {
    const many = Array.from({ length: 201 }, (_, i) => ({
      start: i / 100,
      end: i / 100,
      text: 'x',
    }));

    expect(heard({ segments: many.slice(0, 200) }, 5_000).segments).toHaveLength(200);
    expect(problem(() => heard({ segments: many }, 5_000)).message).toMatch(
      /201 lines in 5 seconds of audio/,
    );
  });
});

describe('an answer', () => {
  it('without text or segments is not a transcription', () => {
    for (const answer of [null, [], 'text', { status: 'queued' }, { text: 3 }, { segments: {} }]) {
      expect(problem(() => heard(answer, 1_000)).message).toMatch(/not a transcription/);
    }
  });

  it('with no spoken text gives no lines', () => {
    expect(heard({ text: '  ', segments: [] }, 10_000)).toEqual({
      segments: [],
      timing: 'estimated',
    });
  });
});

describe('sentencesIn', () => {
  it('cuts after a stop and its closing quotes, before a space', () => {
    expect(sentencesIn('He said "stop." Then 3.5 more! Why? End')).toEqual([
      'He said "stop."',
      'Then 3.5 more!',
      'Why?',
      'End',
    ]);
  });

  it('cuts after a full-width stop without a space', () => {
    expect(sentencesIn('今日は晴れ。明日は雨？そうです')).toEqual([
      '今日は晴れ。',
      '明日は雨？',
      'そうです',
    ]);
  });
});

describe('readable', () => {
  it('makes a proxy’s HTML page its visible words, entities decoded', () => {
    const page =
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>h1{color:red}</style></head>' +
      '<body><h1>502 Bad Gateway</h1><p>The server&#39;s upstream &amp; co.</p><script>alert(1)</script></body></html>';

    expect(readable(page)).toBe("502 Bad Gateway The server's upstream & co.");
  });

  it('leaves plain words plain, and cuts them at 300 characters', () => {
    expect(readable('failed to read audio data')).toBe('failed to read audio data');
    expect(readable('a <b> not html'.repeat(50))).toHaveLength(300);
  });

  it('gives the title of a page whose body says nothing', () => {
    expect(readable('<html><head><title>413 Too Large</title></head><body></body></html>')).toBe(
      '413 Too Large',
    );
  });
});

describe('nothingWasSent', () => {
  it('is true of a refused connection, false of one closed after the request went out', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const refusedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const hangsUp = createServer((req) => req.on('end', () => req.socket.destroy()).resume());
    await new Promise<void>((resolve) => hangsUp.listen(0, '127.0.0.1', resolve));
    const fetch = patientFetch();
    const errorOf = (port: number) =>
      fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'x' }).then(
        () => undefined,
        (error: unknown) => error,
      );

    try {
      expect(nothingWasSent(await errorOf(refusedPort))).toBe(true);
      expect(nothingWasSent(await errorOf((hangsUp.address() as AddressInfo).port))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => hangsUp.close(() => resolve()));
    }
  });

  it('is true when every address of a host refused', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const each = new AggregateError([refused, refused]);

    expect(nothingWasSent(new TypeError('fetch failed', { cause: each }))).toBe(true);
    expect(nothingWasSent(new TypeError('fetch failed', { cause: new Error('other') }))).toBe(
      false,
    );
  });
});
