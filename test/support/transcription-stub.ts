// A local speech-to-text server that answers as a real one does: a profile of
// test/support/stt-servers/ (by default OpenAI's whisper-1 answers without its upload limit, as
// the older tests upload whole videos; gpt-4o-transcribe, Groq, whisper.cpp,
// LocalAI, vLLM, Speaches), each written from that server's source. The multipart body is parsed
// by undici's own parser (Request.formData), so the real `openai` client's upload is read as a
// server reads it. The answer is made from a transcript the test gives (setSegments), and a
// script of faults may replace it: 5xx, hangs, delays, resets, raw answers of any size (sent in
// pieces, so that a client that stops reading is seen to stop).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Request } from 'undici';
import type { TranscriptSegment } from '../../lib/youtube/types';
import { openAi } from './stt-servers/openai';
import type { SttAnswer, SttProfile, SttUpload } from './stt-servers/profile';
import { loadSharedTranscript } from './transcripts';

/** One request as the stub read it. */
export interface RecordedTranscription {
  path: string;
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
  /** Bytes of the answer's body written before it ended or the client went away. */
  answeredBytes?: number;
  /** Whether the client closed the connection before the whole answer was written. */
  cutOff?: boolean;
}

/**
 * One scripted answer: 'success' (the profile's own answer), 'server-error' (500), 'rejected'
 * (400: the audio is not a valid media file), 'garbage' (200 with JSON that is not a
 * transcription), 'throttled' (429, Retry-After: 1), 'hang' (never answers), 'held' (a success
 * once the test calls release()), 'reset' (the connection closed once the upload is in, no
 * answer), 'reset-mid-answer' (the answer's headers and some of its body, then closed), a
 * success after `delayMs`, or a given answer (after `delayMs`; `chunked`: without its length).
 */
export type TranscriptionStep =
  | 'success'
  | 'server-error'
  | 'rejected'
  | 'garbage'
  | 'throttled'
  | 'hang'
  | 'held'
  | 'reset'
  | 'reset-mid-answer'
  | { delayMs: number }
  | { answer: SttAnswer; delayMs?: number; chunked?: boolean };

export interface TranscriptionStub {
  /** The profile's base URL, e.g. `http://127.0.0.1:<port>/v1`: TRANSCRIPTION_BASE_URL. */
  baseUrl: string;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  profile: SttProfile;
  requests: RecordedTranscription[];
  /** Answers in turn, one per request; the last repeats. Unscripted: 'success'. */
  script(steps: TranscriptionStep[]): void;
  /** Lets every 'held' answer, waiting or to come, go out. */
  release(): void;
  /** The segments a success answers with (default: the shared Computerphile transcript). */
  setSegments(segments: readonly TranscriptSegment[], language?: string): void;
  /** The length of the files it receives (default: the end of the last segment). */
  setFileDuration(ms: number | ((fileName: string) => number)): void;
  reset(): void;
  close(): Promise<void>;
}

export const REJECTED_REASON =
  'Invalid file format. Supported formats: flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm';

/** Pieces an answer is written in. */
const PIECE_BYTES = 64 * 1024;

/** Reads a request's body and its multipart fields, as a server does. */
async function readUpload(req: IncomingMessage): Promise<SttUpload> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const upload: SttUpload = {
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0] ?? '/',
    fields: new Map(),
    bodyBytes: body.byteLength,
  };
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data')) return upload;
  const form = await new Request('http://stub.invalid/', {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  })
    .formData()
    .catch(() => undefined);
  for (const [name, value] of form ?? []) {
    if (typeof value === 'string') {
      upload.fields.set(name, [...(upload.fields.get(name) ?? []), value]);
    } else {
      upload.file = {
        name: value.name,
        type: value.type,
        bytes: Buffer.from(await value.arrayBuffer()),
      };
    }
  }
  return upload;
}

/**
 * What a success answers unless told otherwise: the shared transcript's first four minutes, so
 * that it fits every file the tests send (the shortest video lasts 4:48; parts last longer), as
 * a real server's times fit the audio it was sent.
 */
function firstMinutes(): TranscriptSegment[] {
  return loadSharedTranscript().segments.filter(
    (segment) => segment.offsetMs + segment.durationMs <= 240_000,
  );
}

/** Starts the stub on a free port of 127.0.0.1, answering as `profile` does. */
export async function startTranscriptionStub(
  options: { profile?: SttProfile } = {},
): Promise<TranscriptionStub> {
  // By default a server that answers as OpenAI's whisper-1, without its 25 MiB upload limit.
  const profile =
    options.profile ?? openAi('whisper-1', { uploadLimitBytes: Number.POSITIVE_INFINITY });
  const requests: RecordedTranscription[] = [];
  let steps: TranscriptionStep[] = [];
  let next = 0;
  let segments: readonly TranscriptSegment[] = firstMinutes();
  let language = 'english';
  let duration: number | ((fileName: string) => number) | undefined;
  /** Resolved by release(): what 'held' answers wait for. */
  let openGate = () => {};
  const newGate = () => new Promise<void>((resolve) => (openGate = resolve));
  let released = newGate();
  const spoken = {
    get segments() {
      return segments;
    },
    get language() {
      return language;
    },
    durationMsOf(fileName: string) {
      if (typeof duration === 'function') return duration(fileName);
      if (duration !== undefined) return duration;
      const last = segments.at(-1);
      return last ? last.offsetMs + last.durationMs : 0;
    },
  };

  /**
   * Writes an answer in pieces, minding back-pressure; `cutAt` closes the socket there, and
   * `chunked` leaves its length unsaid.
   */
  const send = async (
    res: ServerResponse,
    recorded: RecordedTranscription | undefined,
    answer: SttAnswer,
    { cutAt, chunked = false }: { cutAt?: number; chunked?: boolean } = {},
  ) => {
    if (recorded) recorded.status = answer.status;
    const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
    res.writeHead(answer.status, {
      'content-type': answer.contentType ?? 'application/json',
      ...(cutAt === undefined && !chunked ? { 'content-length': String(body.byteLength) } : {}),
      ...answer.headers,
    });
    let written = 0;
    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    const end = cutAt ?? body.byteLength;
    while (written < end && !gone) {
      const piece = body.subarray(written, Math.min(end, written + PIECE_BYTES));
      written += piece.byteLength;
      if (!res.write(piece)) {
        // Whichever comes first takes the other's listener away: one 'close' listener left per
        // drained piece piled up past Node's 10 and printed a MaxListenersExceededWarning.
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      }
    }
    if (recorded) {
      recorded.answeredBytes = written;
      recorded.cutOff = gone && written < body.byteLength;
    }
    if (cutAt !== undefined) {
      // Let the written pieces leave, then hang up mid-answer.
      setTimeout(() => res.socket?.destroy(), 50);
      return;
    }
    if (!gone) {
      res.end(() => {
        if (recorded) recorded.answeredAt = Date.now();
      });
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const startedAt = Date.now();
    const upload = await readUpload(req);
    const receivedAt = Date.now();
    if (upload.method !== 'POST') {
      await send(res, undefined, profile.answer(upload, spoken));
      return;
    }
    const field = (name: string) => upload.fields.get(name)?.[0];
    const recorded: RecordedTranscription = {
      path: upload.path,
      model: field('model') ?? '',
      responseFormat: field('response_format'),
      granularities: upload.fields.get('timestamp_granularities[]') ?? [],
      language: field('language'),
      fileName: upload.file?.name ?? '',
      fileType: upload.file?.type ?? '',
      fileBytes: upload.file?.bytes.byteLength ?? 0,
      sha256: createHash('sha256')
        .update(upload.file?.bytes ?? Buffer.alloc(0))
        .digest('hex'),
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
    if (step === 'reset') {
      res.socket?.destroy();
      return;
    }
    const openAiError = (status: number, message: string, type: string) => ({
      status,
      body: JSON.stringify({ error: { message, type } }),
    });
    if (step === 'server-error') {
      await send(res, recorded, openAiError(500, 'CUDA out of memory', 'server_error'));
      return;
    }
    if (step === 'throttled') {
      await send(res, recorded, {
        ...openAiError(429, 'Rate limit reached', 'requests'),
        headers: { 'retry-after': '1' },
      });
      return;
    }
    if (step === 'rejected') {
      await send(res, recorded, openAiError(400, REJECTED_REASON, 'invalid_request_error'));
      return;
    }
    if (step === 'garbage') {
      await send(res, recorded, { status: 200, body: '{"status":"ok","result":"queued"}' });
      return;
    }
    if (step === 'held') await released;
    if (typeof step === 'object' && step.delayMs !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    }
    if (res.destroyed) return;
    if (typeof step === 'object' && 'answer' in step) {
      await send(res, recorded, step.answer, { chunked: step.chunked ?? false });
      return;
    }
    const answer = profile.answer(upload, spoken);
    if (step === 'reset-mid-answer') {
      await send(res, recorded, answer, { cutAt: Math.floor(Buffer.byteLength(answer.body) / 2) });
      return;
    }
    await send(res, recorded, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      }
    });
  });
  // An upload answered after minutes (the opt-in 320-second test): Node's server would close it.
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}${profile.basePath}`,
    origin,
    profile,
    requests,
    script(list) {
      steps = [...list];
      next = 0;
    },
    release() {
      openGate();
    },
    setSegments(list, spokenLanguage = 'english') {
      segments = list;
      language = spokenLanguage;
    },
    setFileDuration(ms) {
      duration = ms;
    },
    reset() {
      openGate();
      released = newGate();
      requests.length = 0;
      steps = [];
      next = 0;
      segments = firstMinutes();
      language = 'english';
      duration = undefined;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
