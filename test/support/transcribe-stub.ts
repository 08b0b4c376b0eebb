// A local Amazon Transcribe and the S3 it reads from, each speaking the wire protocol of the
// calls the service makes, for the real SDK clients (AWS_ENDPOINT_URL_TRANSCRIBE and
// AWS_ENDPOINT_URL_S3):
// - S3's REST protocol, path-style: PUT, GET and DELETE /<bucket>/<key>, signed requests only
//   (an Authorization header in SigV4's form), errors as S3's XML;
// - Transcribe's AWS JSON 1.1 protocol (POST /, `X-Amz-Target: Transcribe.<Action>`):
//   StartTranscriptionJob (the media must be an object of the S3 stub; a name used twice is a
//   ConflictException), GetTranscriptionJob (an unknown name is the BadRequestException
//   Transcribe answers). A job is IN_PROGRESS until it has been looked at `pollsToFinish`
//   times; then it writes its result to OutputBucketName/OutputKey as Transcribe does (the
//   `results` with `audio_segments`, from a transcript it is given) and is COMPLETED.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TranscriptSegment } from '../../lib/youtube/types';
import { loadSharedTranscript } from './transcripts';

export interface StubJob {
  name: string;
  media: string;
  mediaFormat?: string;
  identifyLanguage: boolean;
  languageCode?: string;
  outputBucket?: string;
  outputKey?: string;
  polls: number;
  status: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  failureReason?: string;
}

export interface TranscribeStub {
  transcribeEndpoint: string;
  s3Endpoint: string;
  /** Objects of the S3 stub, by `bucket/key`. */
  readonly objects: ReadonlyMap<string, Buffer>;
  /** Every S3 call, as `METHOD bucket/key`. */
  readonly s3Calls: readonly string[];
  /** What each PUT stored: its key and the SHA-256 (hex) of its bytes. */
  readonly uploads: readonly { key: string; sha256: string; bytes: number }[];
  /** Every Transcribe call's action, in order. */
  readonly transcribeCalls: readonly string[];
  readonly jobs: ReadonlyMap<string, StubJob>;
  /** How many GetTranscriptionJob calls a job takes to finish (default 1). */
  pollsToFinish: number;
  /** A reason to fail every job started from now on with (undefined: they succeed). */
  failJobsWith: string | undefined;
  reset(): void;
  close(): Promise<void>;
}

const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/[a-z0-9-]+\/(s3|transcribe)\/aws4_request/;

/** Transcribe's result file for a transcript: a line per audio segment, times as strings. */
export function transcribeResult(jobName: string, segments: readonly TranscriptSegment[]) {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  return {
    jobName,
    accountId: '123456789012',
    status: 'COMPLETED',
    results: {
      language_code: 'en-US',
      transcripts: [{ transcript: segments.map((segment) => segment.text).join(' ') }],
      items: [],
      audio_segments: segments.map((segment, id) => ({
        id,
        transcript: segment.text,
        start_time: seconds(segment.offsetMs),
        end_time: seconds(segment.offsetMs + segment.durationMs),
        items: [],
      })),
    },
  };
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function s3Error(response: ServerResponse, status: number, code: string, message: string) {
  response.writeHead(status, { 'Content-Type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>stub</RequestId></Error>`,
  );
}

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
  response.end(JSON.stringify(body));
}

/** Starts both stubs on free ports of 127.0.0.1. */
export async function startTranscribeStub(
  segments: readonly TranscriptSegment[] = loadSharedTranscript().segments,
): Promise<TranscribeStub> {
  const objects = new Map<string, Buffer>();
  const jobs = new Map<string, StubJob>();
  const s3Calls: string[] = [];
  const uploads: { key: string; sha256: string; bytes: number }[] = [];
  const transcribeCalls: string[] = [];

  const s3 = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const path = decodeURIComponent(
        new URL(request.url ?? '/', 'http://s3.invalid').pathname,
      ).slice(1);
      s3Calls.push(`${request.method} ${path}`);
      if (!SIGV4.test(String(request.headers.authorization ?? ''))) {
        return s3Error(response, 403, 'AccessDenied', 'Access Denied');
      }
      if (request.method === 'PUT') {
        objects.set(path, body);
        uploads.push({
          key: path,
          sha256: createHash('sha256').update(body).digest('hex'),
          bytes: body.byteLength,
        });
        response.writeHead(200, { ETag: '"stub"' });
        return response.end();
      }
      if (request.method === 'GET') {
        const object = objects.get(path);
        if (!object)
          return s3Error(response, 404, 'NoSuchKey', 'The specified key does not exist.');
        response.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Length': String(object.byteLength),
        });
        return response.end(object);
      }
      if (request.method === 'DELETE') {
        objects.delete(path);
        response.writeHead(204);
        return response.end();
      }
      s3Error(response, 405, 'MethodNotAllowed', 'The specified method is not allowed.');
    })();
  });

  const transcribe = createServer((request, response) => {
    void (async () => {
      const input = JSON.parse((await bodyOf(request)).toString('utf8') || '{}') as {
        TranscriptionJobName?: string;
        Media?: { MediaFileUri?: string };
        MediaFormat?: string;
        IdentifyLanguage?: boolean;
        LanguageCode?: string;
        OutputBucketName?: string;
        OutputKey?: string;
      };
      const action = String(request.headers['x-amz-target'] ?? '').replace(/^Transcribe\./, '');
      transcribeCalls.push(action);
      if (!SIGV4.test(String(request.headers.authorization ?? ''))) {
        return json(response, 403, {
          __type: 'UnrecognizedClientException',
          message: 'The security token included in the request is invalid.',
        });
      }
      if (action === 'StartTranscriptionJob') {
        const name = String(input.TranscriptionJobName);
        if (jobs.has(name)) {
          return json(response, 400, {
            __type: 'ConflictException',
            Message: 'The requested job name already exists. Use a different job name.',
          });
        }
        const media = String(input.Media?.MediaFileUri ?? '');
        if (!objects.has(media.replace(/^s3:\/\//, ''))) {
          return json(response, 400, {
            __type: 'BadRequestException',
            Message:
              "The URI that you provided doesn't point to an S3 object. Make sure that the object exists and try your request again.",
          });
        }
        const job: StubJob = {
          name,
          media,
          mediaFormat: input.MediaFormat,
          identifyLanguage: input.IdentifyLanguage === true,
          languageCode: input.LanguageCode,
          outputBucket: input.OutputBucketName,
          outputKey: input.OutputKey,
          polls: 0,
          status: 'IN_PROGRESS',
          ...(stub.failJobsWith ? { failureReason: stub.failJobsWith } : {}),
        };
        jobs.set(name, job);
        return json(response, 200, { TranscriptionJob: view(job) });
      }
      if (action === 'GetTranscriptionJob') {
        const job = jobs.get(String(input.TranscriptionJobName));
        if (!job) {
          return json(response, 400, {
            __type: 'BadRequestException',
            Message: "The requested job couldn't be found. Check the job name and try again.",
          });
        }
        job.polls++;
        if (job.status === 'IN_PROGRESS' && job.polls >= stub.pollsToFinish) finish(job);
        return json(response, 200, { TranscriptionJob: view(job) });
      }
      json(response, 400, { __type: 'UnknownOperationException' });
    })();
  });

  function finish(job: StubJob) {
    if (job.failureReason) {
      job.status = 'FAILED';
      return;
    }
    job.status = 'COMPLETED';
    objects.set(
      `${job.outputBucket}/${job.outputKey}`,
      Buffer.from(JSON.stringify(transcribeResult(job.name, segments))),
    );
  }

  function view(job: StubJob) {
    return {
      TranscriptionJobName: job.name,
      TranscriptionJobStatus: job.status,
      CreationTime: Date.now() / 1000,
      Media: { MediaFileUri: job.media },
      ...(job.mediaFormat ? { MediaFormat: job.mediaFormat } : {}),
      IdentifyLanguage: job.identifyLanguage,
      ...(job.status === 'COMPLETED'
        ? {
            LanguageCode: job.languageCode ?? 'en-US',
            Transcript: {
              TranscriptFileUri: `https://s3.us-east-1.amazonaws.com/${job.outputBucket}/${job.outputKey}`,
            },
          }
        : {}),
      ...(job.status === 'FAILED' ? { FailureReason: job.failureReason } : {}),
    };
  }

  const listen = async (server: ReturnType<typeof createServer>) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const stub: TranscribeStub = {
    transcribeEndpoint: await listen(transcribe),
    s3Endpoint: await listen(s3),
    objects,
    s3Calls,
    uploads,
    transcribeCalls,
    jobs,
    pollsToFinish: 1,
    failJobsWith: undefined,
    reset() {
      objects.clear();
      jobs.clear();
      s3Calls.length = 0;
      uploads.length = 0;
      transcribeCalls.length = 0;
      stub.pollsToFinish = 1;
      stub.failJobsWith = undefined;
    },
    async close() {
      for (const server of [s3, transcribe]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
  return stub;
}
