// An OpenAI-compatible speech-to-text fake that "hears" the part of a long talk it is sent: the
// uploaded WebM (multipart, parsed by undici's own parser as a server would) is read for where
// its audio sits in the talk (its first Cluster's Timecode) and how long it lasts (Info's
// Duration), and the fake answers verbose_json with the talk's lines in that stretch, timed from
// the start of the file, as Whisper does (times relative to the audio it decoded). The payloads
// of the generated audio are not sound, so this stands in for decoding; the real decoder and
// recognizer are in the speech tests (test/support/speech/). Read independently of the
// service's own WebM reader (lib/youtube/audio/webm.ts), so the two check each other.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Request } from 'undici';
import type { TranscriptSegment } from '../../lib/youtube/types';

/** One upload as the fake heard it. */
export interface HeardUpload {
  fileName: string;
  bytes: number;
  /** Where the file's audio starts in the talk, and how long it lasts (ms). */
  startMs: number;
  durationMs: number;
  receivedAt: number;
  answeredAt?: number;
  status?: number;
}

export interface HearingStub {
  /** `http://127.0.0.1:<port>/v1`: TRANSCRIPTION_BASE_URL. */
  baseUrl: string;
  uploads: HeardUpload[];
  /** The most uploads it was working on at once. */
  readonly maxInFlight: number;
  /** How long each upload takes to answer (a CPU server's time per part), or per upload. */
  setDelay(ms: number | ((upload: HeardUpload) => number)): void;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1; `speech` is the talk's lines, in its own time. */
export async function startHearingStub(
  speech: readonly TranscriptSegment[],
  options: { delayMs?: number } = {},
): Promise<HearingStub> {
  const uploads: HeardUpload[] = [];
  let delayMs: number | ((upload: HeardUpload) => number) = options.delayMs ?? 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const send = (res: ServerResponse, status: number, body: unknown, upload?: HeardUpload) => {
    if (upload) upload.status = status;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body), () => {
      if (upload) upload.answeredAt = Date.now();
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      return;
    }
    const form = await new Request('http://stub.invalid/', {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type'] ?? '') },
      body: Buffer.concat(chunks),
    }).formData();
    const file = form.get('file');
    if (!file || typeof file === 'string') {
      send(res, 400, { error: { message: 'a file is required', type: 'invalid_request_error' } });
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const place = placeOf(bytes);
    if (!place) {
      send(res, 400, { error: { message: 'Invalid file format.', type: 'invalid_request_error' } });
      return;
    }
    const upload: HeardUpload = {
      fileName: file.name,
      bytes: bytes.byteLength,
      ...place,
      receivedAt: Date.now(),
    };
    uploads.push(upload);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const wait = typeof delayMs === 'function' ? delayMs(upload) : delayMs;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const end = place.startMs + place.durationMs;
      const heard = speech.filter((line) => line.offsetMs >= place.startMs && line.offsetMs < end);
      send(
        res,
        200,
        {
          task: 'transcribe',
          language: 'english',
          duration: place.durationMs / 1000,
          text: heard.map((line) => line.text).join(' '),
          segments: heard.map((line, id) => ({
            id,
            start: (line.offsetMs - place.startMs) / 1000,
            end: Math.min(line.offsetMs + line.durationMs - place.startMs, place.durationMs) / 1000,
            text: ` ${line.text}`,
          })),
        },
        upload,
      );
    } finally {
      inFlight--;
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    uploads,
    get maxInFlight() {
      return maxInFlight;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

const ID = {
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  cluster: 0x1f43b675,
  timecode: 0xe7,
};

/** An EBML variable-length number at `at`: its value (marker kept for ids) and its length. */
function vint(bytes: Uint8Array, at: number, keepMarker: boolean) {
  const first = bytes[at] ?? 0;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + (bytes[at + i] ?? 0);
    allOnes &&= bytes[at + i] === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** Where a WebM's audio starts (its first Cluster's Timecode) and how long Info says it is. */
function placeOf(bytes: Uint8Array): { startMs: number; durationMs: number } | undefined {
  let scale = 1_000_000;
  let duration: number | undefined;
  let at = 0;
  while (at < bytes.length) {
    const id = vint(bytes, at, true);
    const size = vint(bytes, at + id.length, false);
    const data = at + id.length + size.length;
    const end = size.unknown ? bytes.length : data + size.value;
    if (id.value === ID.segment || id.value === ID.info) {
      at = data; // step into it
      continue;
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset + data, Math.min(8, size.value));
    if (id.value === ID.timecodeScale) scale = uint(bytes, data, size.value);
    if (id.value === ID.duration) {
      duration = size.value === 8 ? view.getFloat64(0) : view.getFloat32(0);
    }
    if (id.value === ID.cluster) {
      const tc = vint(bytes, data, true);
      if (tc.value !== ID.timecode || duration === undefined) return undefined;
      const tcSize = vint(bytes, data + tc.length, false);
      const start = uint(bytes, data + tc.length + tcSize.length, tcSize.value);
      return { startMs: (start * scale) / 1e6, durationMs: (duration * scale) / 1e6 };
    }
    at = end;
  }
  return undefined;
}

function uint(bytes: Uint8Array, at: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) value = value * 256 + (bytes[at + i] ?? 0);
  return value;
}
