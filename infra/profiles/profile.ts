// What a function's profile says: its size and deadline, and every resource it touches.
import type { Duration } from 'aws-cdk-lib';

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
