// A real OpenAI-compatible speech-to-text server for tests: `POST /v1/audio/transcriptions`
// takes the multipart upload the `openai` client sends (read by undici's own parser, as
// transcription-stub.ts reads it), decodes the file with ffmpeg and recognizes it with
// pocketsphinx (pocketsphinx.ts), and answers as Whisper does: `verbose_json` with the
// language, the duration and timed segments, times the recognizer's own, from the start of the
// uploaded file. A file ffmpeg can't decode gets a 400 with ffmpeg's reason, as a real server's
// would. Like a server on a CPU it recognizes `concurrency` files at a time and queues the
// rest. Every request is recorded, with how its decoding went.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { Request } from 'undici';
import { type Expectation, type LanguageModel, writeLanguageModel } from './language-model';
import { type Decoded, decodeToWav, type RecognizedWord, recognizeWav } from './pocketsphinx';
import type { TimedText } from './wer';
import { segmentsOf, verboseJson } from './whisper';

/** One upload, as the server read and answered it. */
export interface RecognizerRequest {
  fileName: string;
  fileType: string;
  fileBytes: number;
  model: string;
  responseFormat: string;
  granularities: string[];
  /**
   * When all of it had arrived, when its decoding began (after the queue), when its work ended
   * (its place in the queue freed), when its answer was sent (epoch ms).
   */
  receivedAt: number;
  startedAt?: number;
  finishedAt?: number;
  answeredAt?: number;
  status?: number;
  /** How ffmpeg decoded it (absent when the request was refused before). */
  decoded?: Decoded;
  /** What pocketsphinx heard, and how long it took. */
  words?: RecognizedWord[];
  recognizeMs?: number;
  /** The segments answered. */
  segments?: TimedText[];
  /** Why it failed (400 or 500). */
  error?: string;
}

export interface RecognizerServerOptions {
  /**
   * The sentences the audio says: the recognizer's dictionary and language model are made of
   * them (language-model.ts says why). Without: pocketsphinx's general en-us model.
   */
  sentences?: readonly string[];
  /** What of `sentences` the recognizer knows (default `script`: language-model.ts says why). */
  expectation?: Expectation;
  /** Files recognized at once; the others wait (default 1, as on a CPU server). */
  concurrency?: number;
}

export interface RecognizerServer {
  /** `http://127.0.0.1:<port>/v1`: the `openai` client's baseURL, TRANSCRIPTION_BASE_URL. */
  baseUrl: string;
  requests: RecognizerRequest[];
  close(): Promise<void>;
}

const FORMATS = new Set(['json', 'text', 'verbose_json']);

/**
 * Starts the server on a free port of 127.0.0.1.
 * @throws Error when a word of `sentences` is not in pocketsphinx's dictionary.
 */
export async function startRecognizerServer(
  options: RecognizerServerOptions = {},
): Promise<RecognizerServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tubesum-recognizer-'));
  const model = options.sentences
    ? writeLanguageModel(options.sentences, dir, options.expectation)
    : undefined;
  const requests: RecognizerRequest[] = [];
  const queue = limit(options.concurrency ?? 1);
  const closing = new AbortController();

  const server = createServer((req, res) => {
    handle(req, res, { requests, queue, model, dir, signal: closing.signal }).catch(
      (error: unknown) => {
        if (!res.headersSent) send(res, undefined, 500, openAiError(String(error), 'server_error'));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Context {
  requests: RecognizerRequest[];
  queue: <T>(work: () => Promise<T>) => Promise<T>;
  model: LanguageModel | undefined;
  dir: string;
  signal: AbortSignal;
}

async function handle(req: IncomingMessage, res: ServerResponse, context: Context) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
    send(res, undefined, 404, openAiError(`no route ${req.method} ${req.url}`));
    return;
  }
  const form = await new Request('http://recognizer.invalid/', {
    method: 'POST',
    headers: { 'content-type': String(req.headers['content-type'] ?? '') },
    body: Buffer.concat(chunks),
  })
    .formData()
    .catch(() => undefined);
  const file = form?.get('file');
  if (!form || !file || typeof file === 'string') {
    send(res, undefined, 400, openAiError('a multipart body with a file is required'));
    return;
  }
  const bytes = Buffer.from(await file.arrayBuffer());
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const recorded: RecognizerRequest = {
    fileName: file.name,
    fileType: file.type,
    fileBytes: bytes.byteLength,
    model: field('model') ?? '',
    responseFormat: field('response_format') ?? 'json',
    granularities: form.getAll('timestamp_granularities[]').map(String),
    receivedAt: Date.now(),
  };
  context.requests.push(recorded);
  if (!FORMATS.has(recorded.responseFormat)) {
    recorded.error = `response_format ${recorded.responseFormat} is not supported here`;
    send(res, recorded, 400, openAiError(recorded.error));
    return;
  }
  await context.queue(() => transcribe(res, recorded, bytes, context));
}

/** Decodes and recognizes one upload, and answers it. */
async function transcribe(
  res: ServerResponse,
  recorded: RecognizerRequest,
  bytes: Buffer,
  context: Context,
) {
  if (context.signal.aborted) return; // closed while it waited
  recorded.startedAt = Date.now();
  const work = mkdtempSync(join(context.dir, 'request-'));
  try {
    // ffmpeg reads the container from the bytes; the name keeps only a plain extension.
    const extension = /^\.[a-z0-9]{1,5}$/i.test(extname(recorded.fileName))
      ? extname(recorded.fileName)
      : '.bin';
    const upload = join(work, `upload${extension}`);
    writeFileSync(upload, bytes);
    const wav = join(work, 'audio.wav');
    recorded.decoded = await decodeToWav(upload, wav, context.signal);
    if (recorded.decoded.exitCode !== 0) {
      recorded.error = `could not decode the audio: ${recorded.decoded.errors.join('; ') || `ffmpeg exited ${recorded.decoded.exitCode}`}`;
      send(res, recorded, 400, openAiError(recorded.error));
      return;
    }
    const heard = await recognizeWav(wav, {
      ...(context.model ? { model: context.model } : {}),
      signal: context.signal,
    }).catch((error: unknown) => {
      recorded.error = String(error);
      return undefined;
    });
    if (!heard) {
      send(res, recorded, 500, openAiError(recorded.error ?? 'recognition failed', 'server_error'));
      return;
    }
    recorded.words = heard.words;
    recorded.recognizeMs = heard.elapsedMs;
    recorded.segments = segmentsOf(heard.words);
    answer(res, recorded, recorded.segments, heard.words, recorded.decoded.durationMs);
  } finally {
    rmSync(work, { recursive: true, force: true });
    recorded.finishedAt = Date.now();
  }
}

function answer(
  res: ServerResponse,
  recorded: RecognizerRequest,
  segments: readonly TimedText[],
  words: readonly RecognizedWord[],
  durationMs: number,
) {
  const text = segments.map((segment) => segment.text).join(' ');
  if (recorded.responseFormat === 'text') {
    recorded.status = 200;
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(text, () => {
      recorded.answeredAt = Date.now();
    });
    return;
  }
  if (recorded.responseFormat === 'json') {
    send(res, recorded, 200, { text });
    return;
  }
  send(
    res,
    recorded,
    200,
    verboseJson(segments, durationMs, recorded.granularities.includes('word') ? words : undefined),
  );
}

function openAiError(message: string, type = 'invalid_request_error') {
  return { error: { message, type, param: null, code: null } };
}

function send(
  res: ServerResponse,
  recorded: RecognizerRequest | undefined,
  status: number,
  body: unknown,
) {
  if (recorded) recorded.status = status;
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body), () => {
    if (recorded) recorded.answeredAt = Date.now();
  });
}

/** Runs at most `concurrency` pieces of work at once; the others wait their turn, in order. */
function limit(concurrency: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // A slot that frees goes straight to the next in line: none can slip in between.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
