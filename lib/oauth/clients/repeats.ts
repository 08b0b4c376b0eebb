// Registrations made lately, so that one repeated costs nothing: an item per
// source address and metadata, OAUTHREGDEDUP#<address key>#<metadata hash>, naming the client
// the first registration made, for REGISTRATION_REPEAT_WINDOW_MS (its TTL an hour later).
// Claimed with a conditional put, so registrations that arrive together (claude.ai registers
// twice per attempt, at the same time) find one claim between them: one makes the client, the
// others are its repeats. A repeat of a confidential client is counted on the item, so that the
// free ones are bounded too (MAX_FREE_REPEATS_PER_HOUR).
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, storeCall } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import { REGISTRATION_REPEAT_WINDOW_MS } from '../limits';

/**
 * The registrations of one table made lately, by key (registration.ts makes the keys).
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createRepeatLedger(db: DynamoDBDocumentClient, table: string) {
  return {
    /** The client the registration of `key` made within the window, if there was one. */
    async findRegistration(key: string, now: number): Promise<{ clientId: string } | undefined> {
      const { Item } = await storeCall(() =>
        db.send(new GetCommand({ TableName: table, Key: { pk: key }, ConsistentRead: true })),
      );
      if (!Item || !(Number(Item.repeatsUntil) > now) || typeof Item.clientId !== 'string') {
        return undefined;
      }
      return { clientId: Item.clientId };
    },

    /**
     * Claims `key` for a new client: false when a registration made within the window holds it
     * (one that is not `stale`, a claim whose client never came to be).
     */
    async claimRegistration(
      key: string,
      clientId: string,
      now: number,
      stale?: string,
    ): Promise<boolean> {
      const until = now + REGISTRATION_REPEAT_WINDOW_MS;
      return conditionalWrite(
        db,
        new PutCommand({
          TableName: table,
          Item: {
            pk: key,
            clientId,
            repeatsUntil: until,
            repeats: 0,
            [TABLE_TTL_ATTRIBUTE]: Math.ceil(until / 1000),
          },
          ConditionExpression: `attribute_not_exists(pk) OR repeatsUntil <= :now${stale === undefined ? '' : ' OR clientId = :stale'}`,
          ExpressionAttributeValues: {
            ':now': now,
            ...(stale === undefined ? {} : { ':stale': stale }),
          },
        }),
      );
    },

    /** Takes one of `max` free repeats of the registration of `key`: false when none is left. */
    async takeRepeat(key: string, now: number, max: number): Promise<boolean> {
      return conditionalWrite(
        db,
        new UpdateCommand({
          TableName: table,
          Key: { pk: key },
          UpdateExpression: 'ADD repeats :one',
          ConditionExpression: 'repeatsUntil > :now AND repeats < :max',
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':max': max },
        }),
      );
    },

    /** Gives up a claim whose client was not made (the address's budget refused it). */
    async releaseRegistration(key: string, clientId: string): Promise<void> {
      await conditionalWrite(
        db,
        new UpdateCommand({
          TableName: table,
          Key: { pk: key },
          UpdateExpression: 'SET repeatsUntil = :gone',
          ConditionExpression: 'clientId = :mine',
          ExpressionAttributeValues: { ':gone': 0, ':mine': clientId },
        }),
      );
    },
  };
}
