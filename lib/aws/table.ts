// The single DynamoDB table's shape, shared by the code, the local host and the CDK stack.
// Items are told apart by the prefix of their partition key (USER#, USERNAME#, EMAIL#, ...).

export const TABLE_PARTITION_KEY = 'pk';
/** Epoch seconds after which DynamoDB's TTL may delete an item (caches, counters). */
export const TABLE_TTL_ATTRIBUTE = 'expiresAt';

/**
 * The one secondary index: a user's summary jobs, newest first (GET /summaries). Sparse: only job
 * items carry its keys. Projects every attribute, so a page of jobs is one Query.
 */
export const JOBS_INDEX = {
  name: 'jobs-by-user',
  /** `JOBS#<user id>` */
  partitionKey: 'jobsOf',
  /** `<created at, ISO 8601>#<job id>`: sorts by creation time. */
  sortKey: 'jobsSort',
} as const;
