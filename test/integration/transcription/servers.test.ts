// The OpenAI-compatible backend against the servers people run, each faked as its source answers
// (test/support/stt-servers/: paths, status codes, error bodies, answer shapes, time units,
// limits; the commits read are named there), over real HTTP: what each one's answer and each
// one's refusal become. A fake behaves as the real thing does, not as we wish.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOpenAiTranscription,
  type OpenAiTranscriptionOptions,
} from '../../../lib/transcription/openai';
import { failure } from '../../support/errors';
import { causeChain, spokenLines, webmPart, within } from '../../support/stt-servers/calls';
import { localAi } from '../../support/stt-servers/localai';
import { groq, openAi } from '../../support/stt-servers/openai';
import type { SttProfile } from '../../support/stt-servers/profile';
import { speaches } from '../../support/stt-servers/speaches';
import { vllm } from '../../support/stt-servers/vllm';
import { whisperCpp } from '../../support/stt-servers/whisper-cpp';
import { startTranscriptionStub, type TranscriptionStub } from '../../support/transcription-stub';

const LINES = ['The first thing.', 'Then a second one!', 'A third?', 'And the last words.'];
/** Four lines of five seconds: a 20-second part. */
const PART_MS = 20_000;

let stubs: TranscriptionStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.map((stub) => stub.close()));
  stubs = [];
});

/** A fake of `profile` saying LINES, and the backend the service makes of its settings. */
async function serverAndBackend(
  profile: SttProfile,
  options: Partial<OpenAiTranscriptionOptions> = {},
  language = 'english',
) {
  const stub = await startTranscriptionStub({ profile });
  stubs.push(stub);
  stub.setSegments(spokenLines(LINES), language);
  const backend = createOpenAiTranscription({
    baseUrl: stub.baseUrl,
    model: 'whisper-1',
    maxUploadMb: 25,
    retryBaseDelayMs: 10,
    ...options,
  });
  return { stub, backend };
}

const expectedSegments = LINES.map((text, i) => ({
  startMs: i * 5_000,
  endMs: (i + 1) * 5_000,
  text: ` ${text}`,
}));

describe('servers that answer verbose_json with segments in seconds', () => {
  it.each([
    ['OpenAI whisper-1', openAi('whisper-1'), 'whisper-1', 'english'],
    ['Groq', groq, 'whisper-large-v3', 'english'],
    [
      'Speaches',
      speaches({ downloaded: ['Systran/faster-whisper-small'] }),
      'Systran/faster-whisper-small',
      'en',
    ],
    ['LocalAI from v4.2', localAi({ version: '4.2' }), 'whisper-1', undefined],
    ['vLLM', vllm(), 'openai/whisper-large-v3', undefined],
  ] as const)('reads %s: its segments timed, its language', async (_name, profile, model, said) => {
    const { stub, backend } = await serverAndBackend(profile, { model });

    const heard = await backend.transcribeFile(webmPart(PART_MS), within(10_000));

    expect(heard).toEqual({
      segments: expectedSegments,
      timing: 'segments',
      ...(said ? { language: said } : {}),
    });
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]).toMatchObject({
      path: profile.uploadPath,
      model,
      responseFormat: 'verbose_json',
      granularities: ['segment'],
      language: undefined,
      fileName: 'dQw4w9WgXcQ-part2of3.webm',
      fileType: 'audio/webm; codecs="opus"',
    });
  });

  it('names the language when the video’s audio track says it, as its primary subtag', async () => {
    const { stub, backend } = await serverAndBackend(openAi('whisper-1'));

    await backend.transcribeFile(webmPart(PART_MS), within(10_000, 'pt-BR'));

    expect(stub.requests[0]?.language).toBe('pt');
  });

  it('sends the API key as a bearer token, and no Authorization header without one', async () => {
    const { stub, backend } = await serverAndBackend(groq, { apiKey: 'gsk_test_123' });
    const keyless = createOpenAiTranscription({
      baseUrl: stub.baseUrl,
      model: 'whisper-large-v3',
      maxUploadMb: 25,
    });

    await backend.transcribeFile(webmPart(PART_MS), within(10_000));
    await keyless.transcribeFile(webmPart(PART_MS), within(10_000));

    expect(stub.requests.map((request) => request.authorization)).toEqual([
      'Bearer gsk_test_123',
      undefined,
    ]);
  });
});

describe('OpenAI gpt-4o-transcribe, which gives text without times', () => {
  it('asks json once the model refused verbose_json, and lays the text over the file by sentence', async () => {
    const { stub, backend } = await serverAndBackend(openAi('gpt-4o-transcribe'), {
      model: 'gpt-4o-transcribe',
    });

    const first = await backend.transcribeFile(webmPart(PART_MS), within(10_000));
    const second = await backend.transcribeFile(webmPart(PART_MS, { number: 3 }), within(10_000));

    // Learned from the first 400, for the model and the process's life.
    expect(stub.requests.map((request) => [request.responseFormat, request.status])).toEqual([
      ['verbose_json', 400],
      ['json', 200],
      ['json', 200],
    ]);
    expect(stub.requests[1]?.granularities).toEqual([]);
    // Each sentence's share of the 20 s is its share of the characters.
    const total = LINES.join('').length;
    let before = 0;
    const laid = LINES.map((text) => {
      const segment = {
        startMs: Math.round((PART_MS * before) / total),
        endMs: Math.round((PART_MS * (before + text.length)) / total),
        text,
      };
      before += text.length;
      return segment;
    });
    expect(first).toEqual({ segments: laid, timing: 'estimated' });
    expect(second).toEqual(first);
  });

  it('asks json again for parts that were refused at the same time, each once', async () => {
    const { stub, backend } = await serverAndBackend(openAi('gpt-4o-mini-transcribe'), {
      model: 'gpt-4o-mini-transcribe',
    });

    const heard = await Promise.all(
      [1, 2, 3].map((number) =>
        backend.transcribeFile(webmPart(PART_MS, { number }), within(10_000)),
      ),
    );

    expect(heard.every((each) => each.timing === 'estimated')).toBe(true);
    const formats = stub.requests.map((request) => request.responseFormat);
    expect(formats.filter((format) => format === 'json')).toHaveLength(3);
    expect(formats.filter((format) => format === 'verbose_json').length).toBeLessThanOrEqual(3);
  });

  it('gives the text as one line at 0:00 when the part’s length is unknown', async () => {
    const { backend } = await serverAndBackend(openAi('gpt-4o-transcribe'), {
      model: 'gpt-4o-transcribe',
    });

    const heard = await backend.transcribeFile(webmPart(undefined), within(10_000));

    expect(heard).toEqual({
      segments: [{ startMs: 0, endMs: 0, text: LINES.join(' ') }],
      timing: 'estimated',
    });
  });
});

describe('whisper.cpp’s server', () => {
  it('takes a base URL ending in /inference: posts there, asks language=auto, reads its verbose_json', async () => {
    // Started as the recipe says (`--convert -l auto`), or without `-l auto`: language=auto is
    // asked either way, so German speech comes back German.
    for (const language of ['auto', 'en']) {
      const { stub, backend } = await serverAndBackend(
        whisperCpp({ convert: true, language }),
        {},
        'german',
      );

      const heard = await backend.transcribeFile(webmPart(PART_MS), within(10_000));

      expect(stub.baseUrl).toMatch(/\/inference$/);
      expect(stub.requests[0]).toMatchObject({ path: '/inference', language: 'auto' });
      expect(heard).toMatchObject({ language: 'german', timing: 'segments' });
      expect(heard.segments.map((segment) => [segment.startMs, segment.endMs])).toEqual(
        expectedSegments.map((segment) => [segment.startMs, segment.endMs]),
      );
    }
  });

  it('takes TRANSCRIPTION_PATH under a bare base URL', async () => {
    const { stub } = await serverAndBackend(whisperCpp({ convert: true }));
    const backend = createOpenAiTranscription({
      baseUrl: stub.origin,
      path: '/inference',
      model: 'whisper-1',
      maxUploadMb: 25,
    });

    const heard = await backend.transcribeFile(webmPart(PART_MS), within(10_000));

    expect(stub.requests.map((request) => request.path)).toEqual(['/inference']);
    expect(heard.segments).toHaveLength(LINES.length);
  });

  it.each([
    [400, 'v1.8.4 and later'],
    [200, 'before v1.8.4'],
  ] as const)(
    'started without --convert (HTTP %i, %s): 502 transcription-misconfigured, saying to start it with --convert and -l auto',
    async (errorStatus, _version) => {
      const { stub, backend } = await serverAndBackend(whisperCpp({ errorStatus }));

      const error = await failure(backend.transcribeFile(webmPart(PART_MS), within(10_000)));

      expect(error.status).toBe(502);
      expect(error.type).toBe('transcription-misconfigured');
      expect(error.message).toMatch(/unavailable on this service/);
      expect(error.message).toMatch(/--convert.*-l auto/);
      // The log line of the failed run has the server's own words.
      expect(causeChain(error)).toMatch(/failed to read audio data/);
      expect(stub.requests).toHaveLength(1);
    },
  );

  it('started with OpenAI’s path but without -l auto: 502 saying so when it transcribed other speech as English', async () => {
    const { stub } = await serverAndBackend(
      whisperCpp({ convert: true, inferencePath: '/v1/audio/transcriptions' }),
      {},
      'german',
    );
    const backend = createOpenAiTranscription({
      baseUrl: `${stub.origin}/v1`,
      model: 'whisper-1',
      maxUploadMb: 25,
    });

    const error = await failure(backend.transcribeFile(webmPart(PART_MS), within(10_000)));
    // A language the video names is sent, and then transcribed as it should be.
    const named = await backend.transcribeFile(webmPart(PART_MS), within(10_000, 'de'));

    expect(error.type).toBe('transcription-misconfigured');
    expect(error.message).toMatch(/-l auto/);
    expect(causeChain(error)).toMatch(/language "english", detected_language "german"/);
    expect(stub.requests.map((request) => request.language)).toEqual([undefined, 'de']);
    expect(named.language).toBe('german');
  });

  it('at a path it does not serve: 502 transcription-misconfigured naming the settings to check', async () => {
    const { stub } = await serverAndBackend(whisperCpp({ convert: true }));
    const backend = createOpenAiTranscription({
      baseUrl: `${stub.origin}/v1`,
      model: 'whisper-1',
      maxUploadMb: 25,
    });

    const error = await failure(backend.transcribeFile(webmPart(PART_MS), within(10_000)));

    expect(error.type).toBe('transcription-misconfigured');
    expect(error.message).toMatch(/TRANSCRIPTION_BASE_URL and TRANSCRIPTION_PATH/);
    expect(causeChain(error)).toMatch(/File Not Found \(\/v1\/audio\/transcriptions\)/);
  });
});

describe('LocalAI', () => {
  it('up to v4.1, times in nanoseconds: rescaled, as nanoseconds alone explain them', async () => {
    const { backend } = await serverAndBackend(localAi({ version: '4.1' }));

    const heard = await backend.transcribeFile(webmPart(PART_MS), within(10_000));

    expect(heard).toEqual({ segments: expectedSegments, timing: 'segments' });
  });

  it('answers times no unit explains: 502 naming what it answered', async () => {
    const { stub, backend } = await serverAndBackend(localAi({ version: '4.1' }));
    // Nanoseconds of a 20-minute file, in a 600-second part: not seconds, ms, µs nor ns of it.
    stub.script([
      {
        answer: {
          status: 200,
          body: JSON.stringify({
            segments: [{ id: 0, start: 0, end: 1_200_000_000_000, text: ' hi', tokens: [] }],
            text: 'hi',
          }),
        },
      },
    ]);

    const error = await failure(backend.transcribeFile(webmPart(600_000), within(10_000)));

    expect(error.status).toBe(502);
    expect(error.type).toBe('transcription-error');
    expect(error.message).toMatch(/segment times up to 1\.2e\+12 s in a 600-second file/);
  });

  it('refuses an upload over its 15 MB limit: 502 transcription-misconfigured naming UPLOAD_LIMIT', async () => {
    const { stub, backend } = await serverAndBackend(localAi({ version: '4.2' }));

    const error = await failure(
      backend.transcribeFile(webmPart(PART_MS, { bytes: 16 * 1_048_576 }), within(10_000)),
    );

    expect(error.type).toBe('transcription-misconfigured');
    expect(error.message).toMatch(/16\.0 MB upload.*TRANSCRIPTION_MAX_UPLOAD_MB.*UPLOAD_LIMIT/);
    expect(causeChain(error)).toMatch(/HTTP 413: Request Entity Too Large/);
    expect(stub.requests).toHaveLength(1);
  });
});

describe('vLLM', () => {
  it('refuses a part longer than its 600-second decode limit: 422 with its reason; 10 minutes pass', async () => {
    const { stub, backend } = await serverAndBackend(vllm(), { model: 'openai/whisper-large-v3' });
    stub.setFileDuration((name) => (name.includes('part1of') ? 600_000 : 660_000));

    const fits = await backend.transcribeFile(webmPart(600_000, { number: 1 }), within(10_000));
    const error = await failure(backend.transcribeFile(webmPart(660_000), within(10_000)));

    expect(fits.timing).toBe('segments');
    expect(error.status).toBe(422);
    expect(error.type).toBe('transcription-rejected');
    expect(error.extensions?.backend_reason).toMatch(/exceeds maximum allowed duration of 600s/);
  });

  it('serving a model without timestamps: asks json after its refusal of verbose_json', async () => {
    const { stub, backend } = await serverAndBackend(
      vllm({ model: 'mistralai/Voxtral-Mini-3B-2507', timestamps: false }),
      { model: 'mistralai/Voxtral-Mini-3B-2507' },
    );

    const heard = await backend.transcribeFile(webmPart(PART_MS), within(10_000));

    expect(heard.timing).toBe('estimated');
    expect(stub.requests.map((request) => request.responseFormat)).toEqual([
      'verbose_json',
      'json',
    ]);
  });
});

describe('Speaches', () => {
  it('before its model is downloaded: 502 saying to download it, then transcribes once it is', async () => {
    const model = 'Systran/faster-whisper-small';
    const { stub, backend } = await serverAndBackend(speaches(), { model });

    const error = await failure(backend.transcribeFile(webmPart(PART_MS), within(10_000)));
    const download = await fetch(`${stub.origin}/v1/models/${model}`, { method: 'POST' });
    const heard = await backend.transcribeFile(webmPart(PART_MS), within(10_000));

    expect(error.status).toBe(502);
    expect(error.type).toBe('transcription-misconfigured');
    expect(error.message).toContain(
      `Operators: check TRANSCRIPTION_MODEL; Speaches needs the model downloaded first: POST /v1/models/${model}`,
    );
    expect(causeChain(error)).toMatch(/is not installed locally/);
    expect(download.status).toBe(200);
    expect(heard.language).toBe('en');
  });
});

describe('a refusal that is an HTML page (a proxy before the server)', () => {
  const page = (title: string, server: string) =>
    `<html>\r\n<head><title>${title}</title><style>body{font:sans-serif}</style></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>${server}</center>\r\n<script>var x = "<b>";</script></body>\r\n</html>\r\n`;

  it('reaches the client as its visible words, plain: a 400 is a 422 with them', async () => {
    const { stub, backend } = await serverAndBackend(openAi('whisper-1'));
    stub.script([
      {
        answer: {
          status: 400,
          contentType: 'text/html',
          body: page('400 Bad Request &amp; more', 'nginx/1.25.3'),
        },
      },
    ]);

    const error = await failure(backend.transcribeFile(webmPart(PART_MS), within(10_000)));

    expect(error.status).toBe(422);
    expect(error.extensions?.backend_reason).toBe('400 Bad Request & more nginx/1.25.3');
  });

  it('a 413 is for the operator, with the page’s words in the log', async () => {
    const { stub, backend } = await serverAndBackend(openAi('whisper-1'));
    stub.script([
      {
        answer: {
          status: 413,
          contentType: 'text/html',
          body: page('413 Request Entity Too Large', 'cloudflare'),
        },
      },
    ]);

    const error = await failure(backend.transcribeFile(webmPart(PART_MS), within(10_000)));

    expect(error.type).toBe('transcription-misconfigured');
    expect(causeChain(error)).toMatch(/HTTP 413: 413 Request Entity Too Large cloudflare/);
  });
});
