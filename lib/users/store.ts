// Users in DynamoDB. Three items per user, written in one transaction:
//   USER#<id>            the record (username, email, bcrypt hash, created time)
//   USERNAME#<key>       claims the lower-cased, NFKC username
//   EMAIL#<key>          claims the lower-cased email
// The claims make uniqueness atomic: the transaction fails as a whole if either is taken.
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { storeError, writeTransaction } from '../aws/dynamodb';
import { ConflictError, ValidationError } from '../errors';
import { emailKey, isPossibleKey, loginKey, usernameKey } from './identity';

export interface User {
  id: string;
  username: string;
  email: string;
  passwordHash: string;
  createdAt: string;
}

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
}

export interface UserStore {
  /**
   * Creates a user, or fails as a whole.
   * @throws ConflictError when the username or email is taken; ValidationError when either
   * normalises to something longer than a stored key may be; ServiceUnavailableError when
   * DynamoDB is throttled or down.
   */
  create(user: NewUser): Promise<User>;
  /** The user with this id, or undefined. */
  getById(id: string): Promise<User | undefined>;
  /**
   * The user a login identifier (username or email, any case) names, or undefined (also,
   * without asking DynamoDB, when it normalises to something longer than any stored key).
   */
  findByLogin(identifier: string): Promise<User | undefined>;
  /**
   * Replaces a user's hash, only if it is still `previous` (a concurrent change wins).
   * @throws ServiceUnavailableError when DynamoDB is unavailable.
   */
  replacePasswordHash(id: string, previous: string, next: string): Promise<void>;
}

const userPk = (id: string) => `USER#${id}`;
const usernamePk = (key: string) => `USERNAME#${key}`;
const emailPk = (key: string) => `EMAIL#${key}`;

/** A user store over one DynamoDB table. */
export function createUserStore(db: DynamoDBDocumentClient, table: string): UserStore {
  async function getUser(id: string): Promise<User | undefined> {
    const { Item } = await db.send(
      new GetCommand({ TableName: table, Key: { pk: userPk(id) }, ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      id: Item.id,
      username: Item.username,
      email: Item.email,
      passwordHash: Item.passwordHash,
      createdAt: Item.createdAt,
    };
  }

  return {
    async create(input) {
      const user: User = { id: randomUUID(), ...input, createdAt: new Date().toISOString() };
      // The schemas bound both already; this keeps what is stored bounded whatever calls us.
      const keys = { username: usernameKey(user.username), email: emailKey(user.email) };
      for (const field of ['username', 'email'] as const) {
        if (!isPossibleKey(field, keys[field])) {
          throw new ValidationError([{ field, message: 'is too long once normalised' }]);
        }
      }
      const claim = (pk: string) => ({
        Put: {
          TableName: table,
          Item: { pk, userId: user.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      const command = new TransactWriteCommand({
        TransactItems: [
          claim(usernamePk(keys.username)),
          claim(emailPk(keys.email)),
          {
            Put: {
              TableName: table,
              Item: { pk: userPk(user.id), ...user },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      });

      const refused = await writeTransaction(db, command);
      if (refused?.[0] === 'ConditionalCheckFailed') {
        throw new ConflictError('That username is already taken.');
      }
      if (refused?.[1] === 'ConditionalCheckFailed') {
        throw new ConflictError('An account with that email already exists.');
      }
      // The user's own item: a random UUID that already exists (never, in practice).
      if (refused) throw new Error(`a new user's id is taken: ${refused.join(', ')}`);
      return user;
    },

    async getById(id) {
      try {
        return await getUser(id);
      } catch (error) {
        throw storeError(error);
      }
    },

    async replacePasswordHash(id, previous, next) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: userPk(id) },
            UpdateExpression: 'SET passwordHash = :next',
            ConditionExpression: 'passwordHash = :previous',
            ExpressionAttributeValues: { ':next': next, ':previous': previous },
          }),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return;
        throw storeError(error);
      }
    },

    async findByLogin(identifier) {
      const { kind, key } = loginKey(identifier);
      if (!isPossibleKey(kind, key)) return undefined;
      try {
        const { Item } = await db.send(
          new GetCommand({
            TableName: table,
            Key: { pk: kind === 'email' ? emailPk(key) : usernamePk(key) },
            ConsistentRead: true,
          }),
        );
        return typeof Item?.userId === 'string' ? await getUser(Item.userId) : undefined;
      } catch (error) {
        throw storeError(error);
      }
    },
  };
}
