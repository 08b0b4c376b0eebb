// Users in DynamoDB. Three items per user, written in one transaction:
//   USER#<id>            the record (username, email, bcrypt hash, created time)
//   USERNAME#<key>       claims the lower-cased, NFKC username
//   EMAIL#<key>          claims the lower-cased email
// The claims make uniqueness atomic: the transaction fails as a whole if either is taken.
// A deletion first marks the record (`deletingSince`) and frees the claims, in one transaction:
// from then on the user is not found (no log-in, token or API key works), but the record stays
// until everything else is removed, so an interrupted deletion can be finished by sending it again.
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  conditionalWrite,
  type DocumentTable,
  storeError,
  writeTransaction,
} from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import { ConflictError, ValidationError } from '../../errors';
import { bound } from '../../util/bound';
import { emailKey, isPossibleKey, loginKey, usernameKey } from './identity';

/**
 * How long the record of an unfinished deletion stays before DynamoDB's TTL removes it (with its
 * email and hash): the longest an access token lives (TOKEN_TTL_SECONDS, at most a day), plus a
 * day, so no token that could finish the deletion is still valid.
 */
export const UNFINISHED_DELETION_SECONDS = 2 * 86_400;

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
  /** The user with this id, or undefined (also once the user's deletion has begun). */
  getById(id: string): Promise<User | undefined>;
  /**
   * The user with this id, also when their deletion has begun but is not finished, or
   * undefined. Only for DELETE /account, which must be able to finish what it began.
   */
  getForDeletion(id: string): Promise<User | undefined>;
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
  /**
   * Begins a user's deletion, in one transaction: the record is marked (every lookup but
   * getForDeletion() then misses it, and DynamoDB's TTL removes it after
   * UNFINISHED_DELETION_SECONDS should the deletion never finish) and the username and email
   * are freed. Does nothing when the deletion had begun already (the names may be someone
   * else's by now) or the user is gone.
   * @throws ServiceUnavailableError when DynamoDB is unavailable.
   */
  beginDeletion(user: User): Promise<void>;
  /**
   * Removes the record of a user whose deletion began: the last step of a deletion. Does
   * nothing when it is gone already.
   * @throws ServiceUnavailableError when DynamoDB is unavailable.
   */
  finishDeletion(id: string): Promise<void>;
}

const userPk = (id: string) => `USER#${id}`;
const usernamePk = (key: string) => `USERNAME#${key}`;
const emailPk = (key: string) => `EMAIL#${key}`;

/** A user store over one DynamoDB table. */
export function createUserStore(db: DynamoDBDocumentClient, table: string): UserStore {
  const users: DocumentTable = { db, table };
  return {
    create: bound(users, createUser),
    getById: bound(users, getUserById),
    getForDeletion: bound(users, getUserForDeletion),
    beginDeletion: bound(users, beginUserDeletion),
    finishDeletion: bound(users, finishUserDeletion),
    replacePasswordHash: bound(users, replacePasswordHash),
    findByLogin: bound(users, findUserByLogin),
  };
}

/** The user's record, read consistently; one whose deletion has begun only when `deleting`. */
async function getUser(
  { db, table }: DocumentTable,
  id: string,
  deleting = false,
): Promise<User | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table, Key: { pk: userPk(id) }, ConsistentRead: true }),
  );
  if (!Item || (Item.deletingSince !== undefined && !deleting)) return undefined;
  return {
    id: Item.id,
    username: Item.username,
    email: Item.email,
    passwordHash: Item.passwordHash,
    createdAt: Item.createdAt,
  };
}

const TOO_LONG = 'Use a shorter value: this one is too long once normalised.';

/** Claims the user's names and writes the user, in one transaction. @throws ConflictError */
export async function createUser(users: DocumentTable, input: NewUser): Promise<User> {
  const { db, table } = users;
  const user: User = { id: randomUUID(), ...input, createdAt: new Date().toISOString() };
  // The schemas bound both already; this keeps what is stored bounded whatever calls us.
  const keys = { username: usernameKey(user.username), email: emailKey(user.email) };
  for (const field of ['username', 'email'] as const) {
    if (!isPossibleKey(field, keys[field])) {
      throw new ValidationError([{ field, message: TOO_LONG }]);
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
}

/** The user, unless there is none or their deletion has begun. */
export async function getUserById(users: DocumentTable, id: string): Promise<User | undefined> {
  try {
    return await getUser(users, id);
  } catch (error) {
    throw storeError(error);
  }
}

/** The user, also when their deletion has begun (to finish it). */
export async function getUserForDeletion(
  users: DocumentTable,
  id: string,
): Promise<User | undefined> {
  try {
    return await getUser(users, id, true);
  } catch (error) {
    throw storeError(error);
  }
}

/** Marks the user and frees their names, in one transaction; begun already: nothing. */
export async function beginUserDeletion(users: DocumentTable, user: User): Promise<void> {
  const { db, table } = users;
  const now = Date.now();
  // A name is freed only while it is this user's: a condition, never a blind delete.
  const free = (pk: string) => ({
    Delete: {
      TableName: table,
      Key: { pk },
      ConditionExpression: 'attribute_not_exists(pk) OR userId = :id',
      ExpressionAttributeValues: { ':id': user.id },
    },
  });
  const refused = await writeTransaction(
    db,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: table,
            Key: { pk: userPk(user.id) },
            UpdateExpression: 'SET deletingSince = :now, #expires = :expires',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletingSince)',
            ExpressionAttributeNames: { '#expires': TABLE_TTL_ATTRIBUTE },
            ExpressionAttributeValues: {
              ':now': now,
              ':expires': Math.floor(now / 1000) + UNFINISHED_DELETION_SECONDS,
            },
          },
        },
        free(usernamePk(usernameKey(user.username))),
        free(emailPk(emailKey(user.email))),
      ],
    }),
  );
  // Begun by an earlier (or a concurrent) request, or finished: nothing to do here.
  if (refused?.[0] === 'ConditionalCheckFailed') return;
  // A name of a user whose deletion had not begun held by another user: never, unless the
  // table was edited by hand. Not the client's fault, and nothing was written.
  if (refused) throw new Error(`a user's names are not theirs: ${refused.join(', ')}`);
}

/** Deletes the marked user's record, the deletion's last step. */
export async function finishUserDeletion(users: DocumentTable, id: string): Promise<void> {
  const { db, table } = users;
  try {
    await db.send(
      new DeleteCommand({
        TableName: table,
        Key: { pk: userPk(id) },
        // Never a user whose names were not freed first (that would leave them taken).
        ConditionExpression: 'attribute_not_exists(pk) OR attribute_exists(deletingSince)',
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw new Error('finishDeletion() of a user whose deletion has not begun', {
        cause: error,
      });
    }
    throw storeError(error);
  }
}

/** Replaces the hash while it is still `previous` (a concurrent change wins). */
export async function replacePasswordHash(
  users: DocumentTable,
  id: string,
  previous: string,
  next: string,
): Promise<void> {
  const { db, table } = users;
  await conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: { pk: userPk(id) },
      UpdateExpression: 'SET passwordHash = :next',
      ConditionExpression: 'passwordHash = :previous',
      ExpressionAttributeValues: { ':next': next, ':previous': previous },
    }),
  );
}

/** The user a username or an email names. */
export async function findUserByLogin(
  users: DocumentTable,
  identifier: string,
): Promise<User | undefined> {
  const { db, table } = users;
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
    return typeof Item?.userId === 'string' ? await getUser(users, Item.userId) : undefined;
  } catch (error) {
    throw storeError(error);
  }
}
