// What each Lambda needs: its size and deadline, and every resource it touches. Keyed by the
// functions' names (the route table's and the worker), so a function without a profile does not compile.
import { Duration } from 'aws-cdk-lib';
import {
  ASK_MARGIN_MS,
  DEFAULT_MCP_WAIT_MS,
  DEFAULT_SUMMARIZE_WAIT_MS,
  MAX_ASK_DEADLINE_MS,
  MAX_SUMMARIZE_WAIT_MS,
  SUMMARIZE_MARGIN_MS,
  WORKER_MARGIN_MS,
} from '../lib/config/summaries';
import type { FunctionName } from '../lib/routes/route';

/**
 * DynamoDB actions a function may call: item actions on the table only, and Query on the jobs
 * index only (nothing queries the table itself; nothing scans).
 */
export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:Query';

export interface FunctionProfile {
  description: string;
  memorySize: number;
  timeout: Duration;
  /**
   * Table actions; handlers behind `auth: true` routes also get GetItem (the user and API key
   * lookups), and UpdateItem where API keys are accepted (their last use).
   */
  table: readonly TableAction[];
  /** Signs tokens without serving an auth route (verifying routes get the secret anyway). */
  signsTokens?: boolean;
  /** Reads the model catalog and the daily quota from context (settings.catalog). */
  catalog?: boolean;
  /** Fetches from YouTube: gets the YouTube settings from context (settings.youtube). */
  youtube?: boolean;
  /** May call Bedrock, limited to the models of the configured catalog (needs `catalog`). */
  bedrock?: boolean;
  /** Calls third parties: reads the operator's credentials (stack parameters) from their secret. */
  credentials?: boolean;
  /** Sends jobs to the job queue (JOB_QUEUE_URL): sqs:SendMessage on that queue only. */
  queuesJobs?: boolean;
  environment?: Record<string, string>;
}

/** The worker's timeout: Lambda's longest, as a long video on a slow model takes minutes. */
export const WORKER_TIMEOUT = Duration.minutes(15);

// Lambda gives CPU in proportion to memory: 1,769 MB is one full vCPU, 128 MB about 1/14.
// Work that is pure CPU costs about the same GB-seconds at any size up to one vCPU, so
// CPU-bound functions get a full vCPU (same bill, lower latency); waiting functions stay small.
// Route timeouts are all below API Gateway's 30 s integration limit, after which the client
// already has a 503 and any further work is paid for nothing; only the worker, which no client
// waits on, runs longer.
export const PROFILES: Readonly<Record<FunctionName, FunctionProfile>> = {
  health: {
    description: 'GET /health: liveness, touches nothing',
    // Returns a constant; the smallest size is plenty and the bundle is a few KB.
    memorySize: 128,
    // Nothing to wait for: a health check that takes longer than 3 s is a failed one.
    timeout: Duration.seconds(3),
    table: [],
  },
  register: {
    description: 'POST /register: create an account',
    // bcrypt at cost 12 is ~340 ms of pure CPU on a full vCPU (1,769 MB) and ~4.7 s at 128 MB.
    // A second vCPU (above 1,769 MB) would sit idle: bcryptjs is single-threaded.
    memorySize: 1769,
    // bcrypt (~0.35 s) + a cold-start (~1 s) + a transaction with up to 3 attempts of at most
    // 2 s each (DYNAMODB_TIMEOUT_MS): 10 s covers the worst case with room to spare.
    timeout: Duration.seconds(10),
    // One TransactWriteItems of three conditional Puts (username, email, user). IAM checks each
    // Put as a PutItem; ConditionCheckItem would only be needed for ConditionCheck items, which
    // the store does not use, and it never reads (the conditions do the duplicate check). The
    // registrations-per-address and bcrypt-per-address counters: UpdateItem, and PutItem to
    // start a window.
    table: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
  },
  token: {
    description: 'POST /token: log in and get an access token',
    // Same bcrypt compare as /register (also for unknown users, to keep timing equal).
    memorySize: 1769,
    // bcrypt + the secret fetch on a cold start + user lookup and login-guard writes, each
    // bounded by the 2 s DynamoDB deadline with retries.
    timeout: Duration.seconds(10),
    // Login attempt and bcrypt-per-address counters: UpdateItem, and PutItem to start a window;
    // user lookup and the addresses of earlier log-ins: GetItem (and PutItem after a success).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    signsTokens: true,
  },
  account: {
    description: "DELETE /account: delete the caller's account, its API keys and its jobs",
    // One bcrypt compare, as /token (the password confirms the deletion): a full vCPU.
    memorySize: 1769,
    // bcrypt (~0.35 s), the secret on a cold start, then a few writes per API key (at most 10)
    // and one per job, 25 at a time: a history of thousands of jobs is a few seconds. 28 s, below
    // API Gateway's 30 s, leaves room for a long history on a slow day; a deletion cut off even so
    // is finished by the same request sent again.
    timeout: Duration.seconds(28),
    // The login guard's and the bcrypt budget's counters (UpdateItem, PutItem to start a
    // window), as /token. The user: GetItem (the authenticator), and one transaction (UpdateItem
    // of the record, DeleteItem of its username and email) then DeleteItem of the record. The
    // API keys: GetItem of the list, the transactions that remove each key (UpdateItem of the list,
    // DeleteItem of the lookup item), DeleteItem of the list. The jobs: Query on the jobs index,
    // DeleteItem of each; UpdateItem of a record an unfinished job is taken off.
    table: [
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:Query',
    ],
  },
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
  'collection-ask': {
    description:
      "POST /collections/{id}/ask: a question across a collection's videos, with citations of their moments",
    // As /ask: indexes the passages of many transcripts (BM25) while the client waits.
    memorySize: 1024,
    timeout: Duration.millis(MAX_ASK_DEADLINE_MS + ASK_MARGIN_MS),
    // The collection and its jobs (get), the transcript cache and the answer cache (get, put),
    // the daily quota (a counter's update, given back on our failures).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    catalog: true,
    youtube: true,
    bedrock: true,
    credentials: true,
    environment: { ASK_DEADLINE_MS: String(MAX_ASK_DEADLINE_MS) },
  },
  'api-keys': {
    description: "POST /api-keys, GET /api-keys, DELETE /api-keys/{id}: the caller's API keys",
    // A few small reads and writes and a SHA-256: waiting, not computing.
    memorySize: 512,
    timeout: Duration.seconds(10),
    // The user's list of keys: UpdateItem (made on first use, entries added and removed, each in
    // a transaction that IAM checks item by item) and GetItem; a key's lookup item: PutItem when
    // made, DeleteItem when deleted, GetItem for its last use.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  },
  ask: {
    description: 'POST /ask: answer a question about a video, with citations of its moments',
    // Waits on YouTube and one model call, but also parses the caption track and indexes a long
    // transcript's passages (BM25) while the client waits: 1 GB (~0.6 vCPU, as the worker)
    // keeps that to milliseconds.
    memorySize: 1024,
    // It answers within MAX_ASK_DEADLINE_MS (25 s) or gives up with a 504; the margin
    // (ASK_MARGIN_MS) is for caching and sending that. 27 s stays below API Gateway's 30 s.
    timeout: Duration.millis(MAX_ASK_DEADLINE_MS + ASK_MARGIN_MS),
    // The answer cache and the transcript cache (get, put), the daily quota (a counter's
    // update, given back on our failures). No job, no record, no queue: an ask never becomes
    // a job.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    // What the worker needs to read a video and call a model, and nothing of the job pipeline.
    catalog: true,
    youtube: true,
    bedrock: true,
    credentials: true,
    environment: { ASK_DEADLINE_MS: String(MAX_ASK_DEADLINE_MS) },
  },
  mcp: {
    description:
      'POST /mcp: the MCP endpoint (summarize_video, get_summary, get_transcript, ask_video)',
    // It mostly waits (the table, the queue, YouTube, a model), but ask_video indexes a long
    // transcript's passages while the client waits, as /ask does: 1 GB, as /ask.
    memorySize: 1024,
    // summarize_video waits MCP_WAIT_MS (8 s by default, at most MAX_SUMMARIZE_WAIT_MS), then hands
    // back the job, and get_transcript's YouTube lookup must end within the longest wait: 28 s,
    // below API Gateway's 30.
    timeout: Duration.millis(MAX_SUMMARIZE_WAIT_MS + SUMMARIZE_MARGIN_MS),
    // /summarize's items (jobs, records, the quota) and /summaries' (get_summary settles a job it
    // finds ended), and the transcript cache (get, put).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    catalog: true,
    queuesJobs: true,
    // get_transcript and ask_video ask YouTube themselves (a cache miss), through the
    // operator's proxy; ask_video calls a model, as /ask does.
    youtube: true,
    bedrock: true,
    credentials: true,
    environment: { MCP_WAIT_MS: String(DEFAULT_MCP_WAIT_MS) },
  },
  'oauth-metadata': {
    description:
      'GET /.well-known/oauth-protected-resource(/mcp), /.well-known/oauth-authorization-server: OAuth discovery',
    // Two small JSON documents made from the request's origin: the smallest size is plenty.
    memorySize: 128,
    timeout: Duration.seconds(3),
    table: [],
  },
  'oauth-clients': {
    description:
      'POST /oauth/register, GET /oauth/authorize: OAuth client registration and authorization requests',
    // Small reads and writes, and at most one fetch of a client ID metadata document: waiting.
    memorySize: 256,
    // A metadata document's fetch is cut off after 5 s (CLIENT_METADATA_TIMEOUT_MS); the table's
    // calls after it take at most a few seconds more.
    timeout: Duration.seconds(10),
    // Registrations: PutItem (the client), and the registrations-per-address counter (UpdateItem,
    // PutItem to start a window). Authorization requests: GetItem (the client, a cached metadata
    // document), PutItem (the pending request, a metadata document's cache entry). No secret: it
    // signs and verifies nothing, and it is the function that fetches URLs clients name.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  },
  'oauth-token': {
    description:
      'POST /oauth/token, POST /oauth/revoke: OAuth tokens for /mcp, and their revocation',
    memorySize: 256,
    timeout: Duration.seconds(10),
    // Codes, grants and refresh tokens: GetItem (each, and the user), the transactions that make a
    // grant or rotate a refresh token (UpdateItem of the code, the refresh token, the grant and
    // the person's list; PutItem of the new grant and refresh token; UpdateItem of a registered
    // client's life on each refresh), DeleteItem (a grant ended by a reused code or refresh
    // token, or revoked).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    // Signs access tokens (and verifies one a client revokes).
    signsTokens: true,
  },
  'connected-apps': {
    description:
      'GET/POST /oauth/requests/{id}, GET /connected-apps, DELETE /connected-apps/{id}: the person connects and disconnects apps',
    memorySize: 256,
    timeout: Duration.seconds(10),
    // The pending request: GetItem, and DeleteItem when answered; the code: PutItem; the client's
    // life: UpdateItem. Connected apps: GetItem (the list, each grant), DeleteItem (a grant
    // ended), UpdateItem (its entry off the list).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  },
  site: {
    description:
      'GET /, /app/{file}, /docs, /docs/{file}, /openapi.json and $default: the page, the docs and the 404/405 of unrouted requests',
    // Builds the OpenAPI document and gzips the 1.7 MB Swagger UI bundle once per cold start:
    // 512 MB (~0.3 vCPU) makes that a few hundred ms instead of over a second at 128 MB.
    memorySize: 512,
    // Only the first request of a cold start does real work (read + gzip), well under 10 s.
    timeout: Duration.seconds(10),
    table: [],
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
    // -c transcription=amazon-transcribe (infra/constructs/audio-bucket.ts). Collections: their
    // item (get, conditional updates) and their videos' jobs, started as /summarize starts them.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    catalog: true,
    youtube: true,
    bedrock: true,
    credentials: true,
    // A collection's videos are sent to the queue, and its driver woken when one is settled.
    queuesJobs: true,
  },
};
