// Transcription by Amazon Transcribe (the deployed backend, `-c transcription=amazon-transcribe`):
// the audio goes to the stack's S3 bucket as it was downloaded, a batch transcription job reads
// it there (identifying the language unless the video's is known) and writes its JSON result
// beside it; the worker waits for the job within its run, reads the result and deletes both
// objects (the bucket's lifecycle removes whatever a crash leaves within a day). A job that
// outlives the run is handed over by its name (TranscribeCall.started), and the next delivery
// waits for that very job instead of starting another.
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  GetTranscriptionJobCommand,
  type LanguageCode,
  type MediaFormat,
  StartTranscriptionJobCommand,
  TranscribeClient,
  type TranscriptionJob,
} from '@aws-sdk/client-transcribe';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { randomId } from '../util/random-id';
import { sleep } from '../util/retry';
import { read, resultKey } from './amazon/result';
import {
  type AudioFile,
  containerOf,
  type Heard,
  type JobBackend,
  type TranscribeCall,
} from './backend';
import { AUDIO_PREFIX, JOB_NAME_PREFIX } from './bucket';
import { TranscriptionPendingError, transcriptionError, transcriptionRejected } from './errors';

export interface AmazonTranscriptionOptions {
  /** TRANSCRIPTION_BUCKET: where the audio and the results sit while a job runs. */
  bucket: string;
  region: string;
  /** AWS_ENDPOINT_URL_TRANSCRIBE and AWS_ENDPOINT_URL_S3 (tests' stubs). */
  transcribeEndpoint?: string;
  s3Endpoint?: string;
  /** How often a job is looked at: first after `firstMs`, then twice as long up to `maxMs`. */
  poll?: { firstMs: number; maxMs: number };
}

const DEFAULT_POLL = { firstMs: 1_000, maxMs: 15_000 };

/**
 * The locale Transcribe wants for a known language, when the video's audio track names only
 * a language: the most common variant (otherwise the job identifies the language itself).
 */
const LOCALES: Record<string, string> = {
  en: 'en-US',
  es: 'es-US',
  fr: 'fr-FR',
  de: 'de-DE',
  it: 'it-IT',
  pt: 'pt-BR',
  ja: 'ja-JP',
  ko: 'ko-KR',
  zh: 'zh-CN',
  hi: 'hi-IN',
  ar: 'ar-SA',
  ru: 'ru-RU',
  nl: 'nl-NL',
};

const audioKey = (job: string) => `${AUDIO_PREFIX}${job}`;

/** What a transcription's steps use: the clients, how often to poll, and the bucket. */
interface AmazonClients {
  s3: S3Client;
  transcribe: TranscribeClient;
  poll: NonNullable<AmazonTranscriptionOptions['poll']>;
  bucket: string;
}

/** The backend of Amazon Transcribe, with its S3 bucket. */
export function createAmazonTranscription(options: AmazonTranscriptionOptions): JobBackend {
  const handler = () => new NodeHttpHandler({ connectionTimeout: 3_000, requestTimeout: 60_000 });
  const s3 = new S3Client({
    region: options.region,
    ...(options.s3Endpoint ? { endpoint: options.s3Endpoint, forcePathStyle: true } : {}),
    requestHandler: handler(),
  });
  const transcribe = new TranscribeClient({
    region: options.region,
    ...(options.transcribeEndpoint ? { endpoint: options.transcribeEndpoint } : {}),
    requestHandler: handler(),
  });
  const aws: AmazonClients = {
    s3,
    transcribe,
    poll: options.poll ?? DEFAULT_POLL,
    bucket: options.bucket,
  };
  return {
    kind: 'job',
    name: 'amazon-transcribe',
    async transcribe(audio, call): Promise<Heard> {
      try {
        let name = call.resume;
        let done = name ? await finished(aws, name, call) : undefined;
        if (!done) {
          // Nothing to resume, or a name Transcribe never heard of: start (again).
          name = await start(aws, await audio(), call);
          done = await finished(aws, name, call);
        }
        if (!done || !name) throw transcriptionError('Amazon Transcribe lost the job');
        try {
          if (done.TranscriptionJobStatus === 'FAILED') {
            throw failureOf(done.FailureReason ?? 'no reason given');
          }
          return await read(aws, name, done.LanguageCode);
        } finally {
          await cleanUp(aws, name);
        }
      } catch (error) {
        throw asProblem(error, call.signal);
      }
    },
  };
}

/** Uploads the audio and starts a job on it; the job's name. */
async function start(aws: AmazonClients, file: AudioFile, call: TranscribeCall): Promise<string> {
  const { s3, transcribe, bucket } = aws;
  const name = `${JOB_NAME_PREFIX}${file.videoId}-${randomId()}`;
  // Named before it exists: a run that dies between the two calls leaves a name a later run
  // finds unknown, and starts again.
  await call.started(name);
  const signal = { abortSignal: call.signal };
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: audioKey(name),
      Body: file.bytes,
      ContentType: file.mimeType,
    }),
    signal,
  );
  const locale =
    call.language && (LOCALES[call.language] ?? /^[a-z]{2}-[A-Z]{2}$/.exec(call.language)?.[0]);
  await transcribe.send(
    new StartTranscriptionJobCommand({
      TranscriptionJobName: name,
      Media: { MediaFileUri: `s3://${bucket}/${audioKey(name)}` },
      MediaFormat: containerOf(file.mimeType) as MediaFormat,
      ...(locale ? { LanguageCode: locale as LanguageCode } : { IdentifyLanguage: true }),
      OutputBucketName: bucket,
      OutputKey: resultKey(name),
    }),
    signal,
  );
  return name;
}

/** The job, or undefined when Transcribe does not know it. */
async function job(
  aws: AmazonClients,
  name: string,
  signal: AbortSignal,
): Promise<TranscriptionJob | undefined> {
  const { transcribe } = aws;
  try {
    const output = await transcribe.send(
      new GetTranscriptionJobCommand({ TranscriptionJobName: name }),
      { abortSignal: signal },
    );
    return output.TranscriptionJob;
  } catch (error) {
    // Transcribe answers an unknown job name with a BadRequest ("couldn't be found").
    if (error instanceof Error && /couldn.t be found|not found/i.test(error.message)) {
      return undefined;
    }
    throw error;
  }
}

/** Waits for the job to end, until the run must hand over. */
async function finished(
  aws: AmazonClients,
  name: string,
  call: TranscribeCall,
): Promise<TranscriptionJob | undefined> {
  const { poll } = aws;
  let pause = poll.firstMs;
  for (;;) {
    const current = await job(aws, name, call.signal);
    const status = current?.TranscriptionJobStatus;
    if (!current || status === 'COMPLETED' || status === 'FAILED') return current;
    if (Date.now() + pause >= call.handOverAt) {
      throw new TranscriptionPendingError(`Transcribe job ${name} is still ${status}`);
    }
    if (!(await sleep(pause, call.signal))) throw call.signal.reason;
    pause = Math.min(poll.maxMs, pause * 2);
  }
}

/** Deletes what a job left in the bucket; the lifecycle rule catches what this misses. */
async function cleanUp(aws: AmazonClients, name: string): Promise<void> {
  const { s3, bucket } = aws;
  await Promise.all(
    [audioKey(name), resultKey(name)].map((Key) =>
      s3.send(new DeleteObjectCommand({ Bucket: bucket, Key })).catch(() => undefined),
    ),
  );
}

/** A failed job: the audio refused (its format, size or length) is the client's 422. */
function failureOf(reason: string) {
  return /media|format|file size|duration|sample rate|corrupt|invalid|unsupported/i.test(reason)
    ? transcriptionRejected(reason)
    : transcriptionError(`Amazon Transcribe failed the job (${reason.slice(0, 200)})`);
}

/** An SDK failure as the problem the client sees (a 502), the run's stop as it is. */
function asProblem(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof TranscriptionPendingError) return error;
  if (error instanceof Error && 'status' in error && typeof error.status === 'number') return error;
  return transcriptionError(
    `Amazon Transcribe or its bucket failed (${error instanceof Error ? error.name : 'unknown error'})`,
    error,
  );
}
