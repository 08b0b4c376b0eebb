// The OpenAI-compatible backend against the hosted servers people use (OpenAI, Groq) and the
// servers people run (test/support/stt-servers/: each faked as its source or its documented
// answers say: paths, status codes, error bodies, answer shapes, time units, limits), over real
// HTTP: what each one's answer and each one's refusal become. A fake behaves as the real thing
// does, not as we wish. whisper.cpp, LocalAI, vLLM and Speaches in particular: servers-local.test.ts.
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
import { groq, openAi } from '../../support/stt-servers/openai';
import { speaches } from '../../support/stt-servers/speaches';
import { vllm } from '../../support/stt-servers/vllm';

const serverAndBackend = useFakeServers();
const LINES = FOUR_LINES;
const PART_MS = FOUR_LINES_MS;
const expectedSegments = FOUR_LINES_HEARD;

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
