// What each Lambda needs: its size and deadline, and every resource it touches. Keyed by the
// route table's handler names, so a handler without a profile does not compile.
import { Duration } from 'aws-cdk-lib';
import {
  DEFAULT_SUMMARIZE_WAIT_MS,
  MAX_SUMMARIZE_WAIT_MS,
  SUMMARIZE_MARGIN_MS,
} from '../lib/config';
import type { HandlerName } from '../lib/routes';

/** DynamoDB actions a function may call on the table (item-level only: no Scan, no Query). */
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
  /** Table actions; handlers behind `auth: true` routes also get GetItem (the user lookup). */
  table: readonly TableAction[];
  /** Signs tokens without serving an auth route (verifying routes get the secret anyway). */
  signsTokens?: boolean;
  /** May call Bedrock, limited to the models of the configured catalog. */
  bedrock?: boolean;
  /** Calls third parties: reads the operator's credentials (stack parameters) from their secret. */
  credentials?: boolean;
  environment?: Record<string, string>;
}

// Lambda gives CPU in proportion to memory: 1,769 MB is one full vCPU, 128 MB about 1/14.
// Work that is pure CPU costs about the same GB-seconds at any size up to one vCPU, so
// CPU-bound functions get a full vCPU (same bill, lower latency); waiting functions stay small.
// Timeouts are all below API Gateway's 30 s integration limit, after which the client already
// has a 503 and any further work is paid for nothing.
export const PROFILES: Readonly<Record<HandlerName, FunctionProfile>> = {
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
    // registrations-per-address counter: UpdateItem, and PutItem to start a window.
    table: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
  },
  token: {
    description: 'POST /token: log in and get an access token',
    // Same bcrypt compare as /register (also for unknown users, to keep timing equal).
    memorySize: 1769,
    // bcrypt + the secret fetch on a cold start + user lookup and login-guard writes, each
    // bounded by the 2 s DynamoDB deadline with retries.
    timeout: Duration.seconds(10),
    // Login attempt counters: UpdateItem, and PutItem to start a window; user lookup: GetItem.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    signsTokens: true,
  },
  summarize: {
    description: 'POST /summarize: summarize a YouTube video',
    // Mostly waiting on YouTube and Bedrock, but the bundle is the largest (SDK, wink-nlp and
    // its model) and the extractive summarizer splits sentences on the CPU: 1 GB (~0.6 vCPU)
    // keeps the cold start and the offline summarizer short without paying for an idle vCPU.
    memorySize: 1024,
    // It waits at most MAX_SUMMARIZE_WAIT_MS (25 s) for the summary, then answers 202; the
    // margin (SUMMARIZE_MARGIN_MS, 3 s) is for that answer. 28 s stays below API Gateway's 30 s.
    timeout: Duration.millis(MAX_SUMMARIZE_WAIT_MS + SUMMARIZE_MARGIN_MS),
    // Summary cache and daily quota items (get, put, counter updates).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    bedrock: true,
    credentials: true,
    environment: { SUMMARIZE_WAIT_MS: String(DEFAULT_SUMMARIZE_WAIT_MS) },
  },
  summaries: {
    description: 'GET /summaries, GET/DELETE /summaries/{id}: the caller\'s summary jobs',
    // Reads and small writes to the table: waiting, not computing.
    memorySize: 512,
    timeout: Duration.seconds(10),
    table: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query'],
  },
  docs: {
    description: 'GET /docs, /docs/{file}, /openapi.json: interactive documentation',
    // Builds the OpenAPI document and gzips the 1.7 MB Swagger UI bundle once per cold start:
    // 512 MB (~0.3 vCPU) makes that a few hundred ms instead of over a second at 128 MB.
    memorySize: 512,
    // Only the first request of a cold start does real work (read + gzip), well under 10 s.
    timeout: Duration.seconds(10),
    table: [],
  },
};
