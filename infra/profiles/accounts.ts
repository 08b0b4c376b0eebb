// The accounts' functions: bcrypt-bound ones get a full vCPU, the rest wait on the table.
import { Duration } from 'aws-cdk-lib';
import type { FunctionName } from '../../lib/routes/route';
import type { FunctionProfile } from './profile';

export const ACCOUNT_PROFILES = {
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
    // registrations-per-address and bcrypt-per-address counters: UpdateItem, and PutItem to
    // start a window.
    table: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
  },
  token: {
    description: 'POST /token: log in and get an access token',
    // Same bcrypt compare as /register (also for unknown users, to keep timing equal).
    memorySize: 1769,
    // bcrypt + the secret fetch on a cold start + user lookup and login-guard writes, each
    // bounded by the 2 s DynamoDB deadline with retries.
    timeout: Duration.seconds(10),
    // Login attempt and bcrypt-per-address counters: UpdateItem, and PutItem to start a window;
    // user lookup and the addresses of earlier log-ins: GetItem (and PutItem after a success).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    signsTokens: true,
  },
  account: {
    description: "DELETE /account: delete the caller's account, its API keys and its jobs",
    // One bcrypt compare, as /token (the password confirms the deletion): a full vCPU.
    memorySize: 1769,
    // bcrypt (~0.35 s), the secret on a cold start, then a few writes per API key (at most 10)
    // and one per job, 25 at a time: a history of thousands of jobs is a few seconds. 28 s, below
    // API Gateway's 30 s, leaves room for a long history on a slow day; a deletion cut off even so
    // is finished by the same request sent again.
    timeout: Duration.seconds(28),
    // The login guard's and the bcrypt budget's counters (UpdateItem, PutItem to start a
    // window), as /token. The user: GetItem (the authenticator), and one transaction (UpdateItem
    // of the record, DeleteItem of its username and email) then DeleteItem of the record. The
    // API keys: GetItem of the list, the transactions that remove each key (UpdateItem of the list,
    // DeleteItem of the lookup item), DeleteItem of the list. The jobs: Query on the jobs index,
    // DeleteItem of each; UpdateItem of a record an unfinished job is taken off.
    table: [
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:Query',
    ],
  },
  'api-keys': {
    description: "POST /api-keys, GET /api-keys, DELETE /api-keys/{id}: the caller's API keys",
    // A few small reads and writes and a SHA-256: waiting, not computing.
    memorySize: 512,
    timeout: Duration.seconds(10),
    // The user's list of keys: UpdateItem (made on first use, entries added and removed, each in
    // a transaction that IAM checks item by item) and GetItem; a key's lookup item: PutItem when
    // made, DeleteItem when deleted, GetItem for its last use.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  },
} satisfies Partial<Record<FunctionName, FunctionProfile>>;
