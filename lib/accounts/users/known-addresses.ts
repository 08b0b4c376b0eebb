// The addresses each account logged in from lately, so that its owner still gets in from them
// while the account as a whole is locked. One item per account and address,
// with hashed keys (the table never holds an address), kept for KNOWN_ADDRESS_DAYS after the
// last successful log-in from it.
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { storeError } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';

export const KNOWN_ADDRESS_DAYS = 30;
const KNOWN_SECONDS = KNOWN_ADDRESS_DAYS * 86_400;

export interface KnownAddresses {
  /**
   * Records a successful log-in to `account` (a hashed key) from `client` (a hashed source).
   * @throws ServiceUnavailableError when DynamoDB is unavailable.
   */
  remember(account: string, client: string): Promise<void>;
  /** True when `account` was logged in to from `client` in the last KNOWN_ADDRESS_DAYS. */
  knows(account: string, client: string): Promise<boolean>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Known addresses as items of one table. */
export function createKnownAddresses(db: DynamoDBDocumentClient, table: string): KnownAddresses {
  const pk = (account: string, client: string) => `LOGINOK#${account}#${client}`;
  return {
    async remember(account, client) {
      try {
        await db.send(
          new PutCommand({
            TableName: table,
            Item: { pk: pk(account, client), [TABLE_TTL_ATTRIBUTE]: nowSeconds() + KNOWN_SECONDS },
          }),
        );
      } catch (error) {
        throw storeError(error);
      }
    },
    async knows(account, client) {
      try {
        const { Item } = await db.send(
          new GetCommand({
            TableName: table,
            Key: { pk: pk(account, client) },
            ConsistentRead: true,
          }),
        );
        // DynamoDB deletes expired items late (within days): the time decides, not the item.
        return Number(Item?.[TABLE_TTL_ATTRIBUTE] ?? 0) > nowSeconds();
      } catch (error) {
        throw storeError(error);
      }
    },
  };
}
