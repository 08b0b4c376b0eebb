// The single DynamoDB table's shape, shared by the code, the local host and the CDK stack.
// Items are told apart by the prefix of their partition key (USER#, USERNAME#, EMAIL#, ...).

export const TABLE_PARTITION_KEY = 'pk';
/** Epoch seconds after which DynamoDB's TTL may delete an item (caches, counters). */
export const TABLE_TTL_ATTRIBUTE = 'expiresAt';
