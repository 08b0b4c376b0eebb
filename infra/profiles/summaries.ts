// The job pipeline: queueing summaries and collections, reading them, and the worker that
// makes them.
import { Duration } from 'aws-cdk-lib';
import {
  DEFAULT_SUMMARIZE_WAIT_MS,
  MAX_SUMMARIZE_WAIT_MS,
  SUMMARIZE_MARGIN_MS,
  WORKER_MARGIN_MS,
} from '../../lib/config/summaries';
import type { FunctionName } from '../../lib/routes/route';
import type { FunctionProfile } from './profile';

/** The worker's timeout: Lambda's longest, as a long video on a slow model takes minutes. */
export const WORKER_TIMEOUT = Duration.minutes(15);

export const SUMMARY_PROFILES = {
  summarize: {
    description: 'POST /summarize: queue a summary and wait a little for it',
    // Validates, writes a few items, sends one message and polls the table: waiting, not
    // computing. The bundle no longer holds YouTube or the models (the worker does).
    memorySize: 512,
    // It waits at most MAX_SUMMARIZE_WAIT_MS (25 s) for the summary, then answers 202; the
    // margin (SUMMARIZE_MARGIN_MS, 3 s) is for that answer. 28 s stays below API Gateway's 30 s.
    timeout: Duration.millis(MAX_SUMMARIZE_WAIT_MS + SUMMARIZE_MARGIN_MS),
    // Job and record items, the daily quota's reservation (get, put, counter updates).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    // It checks `used_model` against the catalog and reserves quota; the worker does the rest.
    catalog: true,
    queuesJobs: true,
    environment: { SUMMARIZE_WAIT_MS: String(DEFAULT_SUMMARIZE_WAIT_MS) },
  },
  summaries: {
    description: "GET /summaries, GET/DELETE /summaries/{id}: the caller's summary jobs",
    // Reads and small writes to the table: waiting, not computing.
    memorySize: 512,
    timeout: Duration.seconds(10),
    // A job by id (get, cancel, remove); the caller's history is a Query on the jobs index.
    table: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query'],
  },
  collections: {
    description:
      'POST /collections, GET /collections, GET/DELETE /collections/{id}: playlists and channels summarized as one',
    // Reads a playlist or channel from YouTube (a few pages of JSON), looks up its videos'
    // summary records and writes one item: waiting, not computing.
    memorySize: 512,
    // A 200-video playlist is two to five browse pages of YOUTUBE_TIMEOUT_MS at most each, then
    // up to 200 record lookups 16 at a time: 28 s, below API Gateway's 30 s.
    timeout: Duration.seconds(28),
    // The collection item (put, get, conditional updates, delete); records (get) to count new
    // summaries; the quota's counter (update, get); jobs (get) of its running videos; the
    // caller's collections: a Query on the jobs index.
    table: [
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:Query',
    ],
    catalog: true,
    youtube: true,
    credentials: true,
    // The collection's first advance, and a poll that finds a video settled: one message each.
    queuesJobs: true,
  },
  worker: {
    description:
      'Makes the summaries of the job queue (YouTube, Bedrock, the offline model, transcriptions) and advances collections',
    // Mostly waiting on YouTube and the models, but the offline summarizer splits sentences and
    // ranks them on the CPU, and its language model (3.5 MB) loads on a cold start: 1 GB (~0.6
    // vCPU) keeps both short without paying for a vCPU that idles while a model answers.
    memorySize: 1024,
    timeout: WORKER_TIMEOUT,
    // The job's budget ends WORKER_MARGIN_MS before the Lambda does: time to store a failure and
    // settle the jobs instead of being cut off mid-write.
    environment: { JOB_DEADLINE_MS: String(WORKER_TIMEOUT.toMilliseconds() - WORKER_MARGIN_MS) },
    // Records (lease, checkpoints, outcome), jobs (settle), the transcript cache and the quota
    // (units given back on failures), transcription claims and minutes: reads, puts and
    // conditional updates of single items. The audio bucket and Transcribe come with
    // -c transcription=amazon-transcribe. Collections: their
    // item (get, conditional updates) and their videos' jobs, started as /summarize starts them.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    catalog: true,
    youtube: true,
    bedrock: true,
    credentials: true,
    // A collection's videos are sent to the queue, and its driver woken when one is settled.
    queuesJobs: true,
  },
} satisfies Partial<Record<FunctionName, FunctionProfile>>;
