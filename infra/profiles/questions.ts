// What answers a question about videos while the client waits: /ask, a collection's ask, and
// /mcp (whose ask_video does as /ask does). Each indexes transcript passages, so 1 GB.
import { Duration } from 'aws-cdk-lib';
import {
  ASK_MARGIN_MS,
  DEFAULT_MCP_WAIT_MS,
  MAX_ASK_DEADLINE_MS,
  MAX_SUMMARIZE_WAIT_MS,
  SUMMARIZE_MARGIN_MS,
} from '../../lib/config/summaries';
import type { FunctionName } from '../../lib/routes/route';
import type { FunctionProfile } from './profile';

export const QUESTION_PROFILES = {
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
} satisfies Partial<Record<FunctionName, FunctionProfile>>;
