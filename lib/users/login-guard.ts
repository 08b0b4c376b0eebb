// Counts failed logins per identifier in DynamoDB (Lambda instances share no memory) and
// refuses further attempts for the rest of the window once there were too many. The key is
// the normalised identifier, so real and unknown accounts behave exactly alike.
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { storeError } from '../aws/dynamodb';
import { TooManyRequestsError } from '../errors';
import { loginKey } from './identity';

export interface LoginGuardSettings {
  maxFailures: number;
  windowSeconds: number;
}

export interface LoginGuard {
  /** @throws TooManyRequestsError (429 + Retry-After) while the identifier is locked out. */
  assertAllowed(identifier: string): Promise<void>;
  /** Counts one failed attempt for the identifier. */
  recordFailure(identifier: string): Promise<void>;
}

// Hashed so that the table never holds the raw identifiers people typed (often emails).
const guardPk = (identifier: string) =>
  `LOGINFAIL#${createHash('sha256').update(loginKey(identifier).key).digest('base64url')}`;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A login guard over one DynamoDB table. */
export function createLoginGuard(
  db: DynamoDBDocumentClient,
  table: string,
  settings: LoginGuardSettings,
): LoginGuard {
  return {
    async assertAllowed(identifier) {
      let item: Record<string, unknown> | undefined;
      try {
        ({ Item: item } = await db.send(
          new GetCommand({
            TableName: table,
            Key: { pk: guardPk(identifier) },
            ConsistentRead: true,
          }),
        ));
      } catch (error) {
        throw storeError(error);
      }
      const windowEnd = Number(item?.windowStart ?? 0) + settings.windowSeconds;
      const now = nowSeconds();
      if (Number(item?.failures ?? 0) >= settings.maxFailures && windowEnd > now) {
        throw new TooManyRequestsError(
          windowEnd - now,
          'Too many failed logins for this account; try again later.',
          'too-many-login-attempts',
        );
      }
    },

    async recordFailure(identifier) {
      const pk = guardPk(identifier);
      const now = nowSeconds();
      try {
        // Count within the current window; the condition fails when there is none yet.
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk },
            UpdateExpression: 'ADD failures :one',
            ConditionExpression: 'windowStart > :cutoff',
            ExpressionAttributeValues: { ':one': 1, ':cutoff': now - settings.windowSeconds },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw storeError(error);
        try {
          await db.send(
            new PutCommand({
              TableName: table,
              Item: {
                pk,
                failures: 1,
                windowStart: now,
                expiresAt: now + settings.windowSeconds * 2,
              },
            }),
          );
        } catch (putError) {
          throw storeError(putError);
        }
      }
    },
  };
}
