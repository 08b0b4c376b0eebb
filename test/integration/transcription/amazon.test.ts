// Amazon Transcribe as the backend (TRANSCRIPTION_BACKEND=amazon-transcribe, what the stack sets
// with -c transcription=amazon-transcribe), with the real SDK clients against stubs speaking
// Transcribe's JSON protocol and S3's REST protocol: the audio goes to the bucket as downloaded,
// a job with language identification transcribes it, the worker reads the result and deletes
// both objects; a job that outlives a worker's run is picked up by its name after a redelivery.
import { createHash, randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { create } from '../../../functions/summaries/worker';
import { lambdaContext, sqsEvent } from '../../../infra/local/event';
import { ensureTable } from '../../../infra/local/table';
import { createDocumentClient } from '../../../lib/aws/dynamodb';
import type { Config } from '../../../lib/config';
import { createQuota } from '../../../lib/store/quota';
import { newJobId } from '../../../lib/summaries/store/jobs';
import { createRecordStore, summaryKey, type Work } from '../../../lib/summaries/store/records';
import { FAKE_VIDEO_IDS, type FakeYouTube, startFakeYouTube } from '../../support/fake-youtube';
import { testConfig } from '../../support/host';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';
import { startTranscribeStub, type TranscribeStub } from '../../support/transcribe-stub';

const BUCKET = 'tubesum-audio-test';
let aws: TranscribeStub;

const amazonSettings = () => ({
  TRANSCRIPTION_BACKEND: 'amazon-transcribe',
  TRANSCRIPTION_BUCKET: BUCKET,
  AWS_ENDPOINT_URL_TRANSCRIBE: aws.transcribeEndpoint,
  AWS_ENDPOINT_URL_S3: aws.s3Endpoint,
});

beforeAll(async () => {
  aws = await startTranscribeStub();
});
afterAll(() => aws?.close());

describe('over HTTP', () => {
  let env: SummarizeEnv;
  beforeAll(async () => {
    env = await startSummarizeEnv({ ...amazonSettings(), SUMMARIZE_WAIT_MS: '25000' });
  });
  afterAll(() => env?.close());
  beforeEach(() => {
    aws.reset();
    env.youtube.reset();
  });

  it('uploads the audio as downloaded, has Transcribe identify the language, and leaves nothing in the bucket', async () => {
    const answer = await env.host.request('POST', '/summarize', {
      json: { video_url: FAKE_VIDEO_IDS.disabled, summary_length: 60 },
      token: env.token,
    });

    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.metadata).toMatchObject({
      transcript_source: 'transcription',
      transcript_language: 'en-US',
    });
    const [job] = [...aws.jobs.values()];
    expect(job).toMatchObject({
      identifyLanguage: true,
      mediaFormat: 'm4a',
      outputBucket: BUCKET,
      status: 'COMPLETED',
    });
    expect(job?.name).toMatch(/^tubesum-/);
    // The whole file, as served: Transcribe takes it in one piece.
    const served =
      env.youtube.media.find((request) => request.itag === 139)?.file?.bytes ?? Buffer.alloc(0);
    expect(served.byteLength).toBeGreaterThan(1_000_000);
    expect(aws.uploads).toEqual([
      {
        key: `${BUCKET}/audio/${job?.name}`,
        bytes: served.byteLength,
        sha256: createHash('sha256').update(served).digest('hex'),
      },
    ]);
    expect(job?.media).toBe(`s3://${BUCKET}/audio/${job?.name}`);
    // The result was read, then it and the audio were deleted.
    expect(aws.s3Calls).toContain(`GET ${BUCKET}/transcripts/${job?.name}.json`);
    expect(aws.objects.size).toBe(0);
  });

  it('passes a job Transcribe failed over the audio on as a 422 with its reason, and deletes the audio', async () => {
    aws.failJobsWith = 'The media format provided does not match the detected media format.';

    const answer = await env.host.request('POST', '/summarize', {
      json: { video_url: FAKE_VIDEO_IDS['audio-refused-first'], summary_length: 60 },
      token: env.token,
    });

    expect(answer.status, answer.text).toBe(422);
    expect(answer.body).toMatchObject({
      type: 'urn:tubesum:problem:transcription-rejected',
      backend_reason: 'The media format provided does not match the detected media format.',
    });
    expect(aws.objects.size).toBe(0);
  });
});

describe('a Transcribe job that outlives a worker run', () => {
  let youtube: FakeYouTube;
  let config: Config;
  let db: DynamoDBDocumentClient;
  beforeAll(async () => {
    youtube = await startFakeYouTube();
    config = testConfig({
      ...amazonSettings(),
      YOUTUBE_BASE_URL: youtube.baseUrl,
      YOUTUBE_TIMEOUT_MS: '2000',
      // Each run has 8 s, and hands its transcription over 5 s before that.
      JOB_DEADLINE_MS: '8000',
      JOB_LEASE_SECONDS: '2',
    });
    db = createDocumentClient(config);
    await ensureTable(db as never, config.TABLE_NAME);
  });
  afterAll(async () => {
    db?.destroy();
    await youtube?.close();
  });

  /** A new run of a summary of the caption-less video, as POST /summarize leaves it. */
  async function newRun(): Promise<string> {
    const work: Work = { videoId: FAKE_VIDEO_IDS.disabled, model: 'extractive', length: 60 };
    const key = summaryKey(work);
    const records = createRecordStore(db, config.TABLE_NAME, { leaseMs: 2_000 });
    const claimed = await records.claim(key, {
      work,
      jobId: newJobId(),
      requestId: randomUUID(),
      charge: createQuota(db, config.TABLE_NAME, 0).reservation('someone'),
      userId: 'someone',
    });
    expect(claimed).toBe('claimed');
    return key;
  }

  const delivery = (key: string, receives: number): SQSEvent =>
    sqsEvent({
      id: `message-${receives}`,
      body: JSON.stringify({ key, request_id: 'req' }),
      receives,
      sentAt: Date.now(),
    });

  it('is picked up by its name after the redelivery, by a new worker, and never started twice', {
    timeout: 60_000,
  }, async () => {
    aws.reset();
    aws.pollsToFinish = Number.POSITIVE_INFINITY;
    const key = await newRun();
    // Two instances, as a restarted worker: nothing is shared but the table and the stubs.
    const first = create(config, { redeliver: async () => undefined });
    const second = create(config, { redeliver: async () => undefined });

    const handedBack = await first(delivery(key, 1), lambdaContext('worker', 'first', 900_000));
    const running = [...aws.jobs.values()];
    aws.pollsToFinish = (running[0]?.polls ?? 0) + 1;
    const mediaBefore = youtube.media.length;
    const finished = await second(delivery(key, 2), lambdaContext('worker', 'second', 900_000));

    expect(handedBack.batchItemFailures).toEqual([{ itemIdentifier: 'message-1' }]);
    expect(running).toHaveLength(1);
    expect(finished.batchItemFailures).toEqual([]);
    expect(aws.transcribeCalls.filter((call) => call === 'StartTranscriptionJob')).toHaveLength(1);
    expect(aws.jobs.get(running[0]?.name ?? '')?.status).toBe('COMPLETED');
    // The second run downloaded nothing: the job had the audio.
    expect(youtube.media.length).toBe(mediaBefore);
    const record = await createRecordStore(db, config.TABLE_NAME, { leaseMs: 2_000 }).get(key);
    expect(record?.state).toBe('done');
    expect(record?.value?.metadata.transcript_source).toBe('transcription');
    expect(aws.objects.size).toBe(0);
  });
});
