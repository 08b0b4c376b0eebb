// A local OpenAI-compatible speech-to-text server: `POST {base}/audio/transcriptions` with a
// multipart/form-data body (`file`, `model`, `response_format`, `timestamp_granularities[]`,
// `language`), as OpenAI, Speaches (faster-whisper-server) and whisper.cpp's server take it. The
// body is parsed by undici's own multipart parser (Request.formData), so the real `openai`
// client's upload is read as a server reads it. It answers `verbose_json` as Whisper does: the
// language by its English name, the duration, and timed segments (from a transcript it is
// given). Errors look like OpenAI's: the status and `{ "error": { "message", "type" } }`.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Request } from 'undici';
import type { TranscriptSegment } from '../../lib/youtube/types';
import { loadSharedTranscript } from './transcripts';

/** One upload as the stub read it. */
export interface RecordedTranscription {
  model: string;
  responseFormat: string | undefined;
  granularities: string[];
  language: string | undefined;
  fileName: string;
  fileType: string;
  fileBytes: number;
  /** SHA-256 (hex) of the uploaded file. */
  sha256: string;
  authorization: string | undefined;
  /** When the request began to arrive, when all of it had come, when it was answered (ms). */
  startedAt: number;
  receivedAt: number;
  answeredAt?: number;
  status?: number;
}

/**
 * One scripted answer: 'success' (verbose_json of the stub's segments), 'server-error' (500),
 * 'rejected' (400: the audio is not a valid media file), 'garbage' (200 with JSON that is not a
 * transcription), 'hang' (never answers), 'held' (a success once the test calls release()), or
 * a success after `delayMs`.
 */
export type TranscriptionStep =
  | 'success'
  | 'server-error'
  | 'rejected'
  | 'garbage'
  | 'hang'
  | 'held'
  | { delayMs: number };

export interface TranscriptionStub {
  /** `http://127.0.0.1:<port>/v1`: pass as TRANSCRIPTION_BASE_URL. */
  baseUrl: string;
  requests: RecordedTranscription[];
  /** Answers in turn, one per request; the last repeats. Unscripted: 'success'. */
  script(steps: TranscriptionStep[]): void;
  /** Lets every 'held' answer, waiting or to come, go out. */
  release(): void;
  /** The segments a success answers with (default: the shared Computerphile transcript). */
  setSegments(segments: readonly TranscriptSegment[], language?: string): void;
  reset(): void;
  close(): Promise<void>;
}

export const REJECTED_REASON =
  'Invalid file format. Supported formats: flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm';

/** Starts the stub on a free port of 127.0.0.1. */
export async function startTranscriptionStub(): Promise<TranscriptionStub> {
  const requests: RecordedTranscription[] = [];
  let steps: TranscriptionStep[] = [];
  let next = 0;
  let segments: readonly TranscriptSegment[] = loadSharedTranscript().segments;
  let language = 'english';
  /** Resolved by release(): what 'held' answers wait for. */
  let openGate = () => {};
  const newGate = () => new Promise<void>((resolve) => (openGate = resolve));
  let released = newGate();

  const send = (
    res: ServerResponse,
    recorded: RecordedTranscription | undefined,
    status: number,
    body: unknown,
  ) => {
    if (recorded) recorded.status = status;
    const payload = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' }).end(payload, () => {
      if (recorded) recorded.answeredAt = Date.now();
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const startedAt = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      send(res, undefined, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      return;
    }
    const receivedAt = Date.now();
    const form = await new Request('http://stub.invalid/', {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type'] ?? '') },
      body: Buffer.concat(chunks),
    })
      .formData()
      .catch(() => undefined);
    const file = form?.get('file');
    if (!form || !file || typeof file === 'string') {
      send(res, undefined, 400, {
        error: {
          message: 'a multipart body with a file is required',
          type: 'invalid_request_error',
        },
      });
      return;
    }
    const bytes = Buffer.from(await file.arrayBuffer());
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    const recorded: RecordedTranscription = {
      model: field('model') ?? '',
      responseFormat: field('response_format'),
      granularities: form.getAll('timestamp_granularities[]').map(String),
      language: field('language'),
      fileName: file.name,
      fileType: file.type,
      fileBytes: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      authorization: req.headers.authorization,
      startedAt,
      receivedAt,
    };
    requests.push(recorded);
    const step =
      steps.length === 0
        ? 'success'
        : (steps[Math.min(next, steps.length - 1)] as TranscriptionStep);
    next++;
    if (step === 'hang') return;
    if (step === 'server-error') {
      send(res, recorded, 500, { error: { message: 'CUDA out of memory', type: 'server_error' } });
      return;
    }
    if (step === 'rejected') {
      send(res, recorded, 400, {
        error: { message: REJECTED_REASON, type: 'invalid_request_error' },
      });
      return;
    }
    if (step === 'garbage') {
      send(res, recorded, 200, { status: 'ok', result: 'queued' });
      return;
    }
    if (step === 'held') await released;
    if (typeof step === 'object') await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    if (res.destroyed) return;
    const last = segments.at(-1);
    send(res, recorded, 200, {
      task: 'transcribe',
      language,
      duration: last ? (last.offsetMs + last.durationMs) / 1000 : 0,
      text: segments.map((segment) => segment.text).join(' '),
      segments: segments.map((segment, id) => ({
        id,
        seek: 0,
        start: segment.offsetMs / 1000,
        end: (segment.offsetMs + segment.durationMs) / 1000,
        text: ` ${segment.text}`,
        tokens: [],
        temperature: 0,
        avg_logprob: -0.2,
        compression_ratio: 1.4,
        no_speech_prob: 0.01,
      })),
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, undefined, 500, { error: { message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(list) {
      steps = [...list];
      next = 0;
    },
    release() {
      openGate();
    },
    setSegments(list, spoken = 'english') {
      segments = list;
      language = spoken;
    },
    reset() {
      openGate();
      released = newGate();
      requests.length = 0;
      steps = [];
      next = 0;
      segments = loadSharedTranscript().segments;
      language = 'english';
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
