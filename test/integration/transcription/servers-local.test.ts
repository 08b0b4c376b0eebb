// The OpenAI-compatible backend against the servers people run themselves: whisper.cpp's server
// (with and without --convert, -l auto, its /inference path), LocalAI (nanoseconds up to v4.1,
// its 15 MB limit), vLLM (its 600-second limit, models without timestamps), Speaches (its model
// downloaded or not), each faked as its source answers (test/support/stt-servers/, the commits
// read named there), over real HTTP. A fake behaves as the real thing does, not as we wish.
import { describe, expect, it } from 'vitest';
import { createOpenAiTranscription } from '../../../lib/transcription/openai';
import { failure } from '../../support/errors';
import {
  causeChain,
  FOUR_LINES,
  FOUR_LINES_HEARD,
  FOUR_LINES_MS,
  useFakeServers,
  webmPart,
  within,
} from '../../support/stt-servers/calls';
import { localAi } from '../../support/stt-servers/localai';
import { speaches } from '../../support/stt-servers/speaches';
import { vllm } from '../../support/stt-servers/vllm';
import { whisperCpp } from '../../support/stt-servers/whisper-cpp';

const serverAndBackend = useFakeServers();
const LINES = FOUR_LINES;
const PART_MS = FOUR_LINES_MS;
const expectedSegments = FOUR_LINES_HEARD;

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
