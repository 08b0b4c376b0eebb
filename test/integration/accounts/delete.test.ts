// SECURITY.md, "Deleting an account: DELETE /account", over HTTP through the real local host
// (its in-process worker, the fake YouTube, a slow model stub) against DynamoDB Local, reached
// through a proxy that can drop the table half-way through a deletion.
import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { TABLE_TTL_ATTRIBUTE } from '../../../lib/aws/table';
import { type DynamoProxy, startDynamoProxy } from '../../support/dynamo-proxy';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { comparableProblem, newUser, type TestUser } from '../../support/host';
import {
  jobIdOf,
  OPENAI_MODEL_NAME,
  pollJob,
  type SummarizeEnv,
  startSummarizeEnv,
} from '../../support/summarize-env';
import { buildLongTranscript, toCaptionXml } from '../../support/transcripts';

/** A laptop's model: each call this long, one at a time. */
const CALL_MS = 600;
const VIDEO = `https://www.youtube.com/watch?v=${FAKE_VIDEO_IDS.normal}`;
const MAX_FAILURES = 5;

let env: SummarizeEnv;
let proxy: DynamoProxy;
beforeAll(async () => {
  proxy = await startDynamoProxy(inject('dynamoEndpoint'));
  env = await startSummarizeEnv({
    // The proxy drops connections on cue: the SDK's attempts fail at once, then the store's 503.
    AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
    // An hour of talk in an 8k window: four parts and a combination, one call at a time.
    OPENAI_MODELS: `${OPENAI_MODEL_NAME}@8192`,
    OPENAI_CONCURRENCY: '1',
    // Each user has a quota counter in the table (it is left to expire).
    SUMMARY_DAILY_QUOTA: '50',
    LOGIN_MAX_FAILURES: String(MAX_FAILURES),
  });
  env.youtube.setEnglishTrack(toCaptionXml(buildLongTranscript(10_000).segments));
});
afterAll(async () => {
  await env?.close();
  await proxy?.close();
});
beforeEach(() => env.openai.reset());
afterEach(() => proxy.restore());

let lengthSeed = 200;
/** A summary_length no other request used: a summary of its own. */
const freshLength = () => lengthSeed++;

interface Account {
  user: TestUser;
  token: string;
  /** The user id (the token's subject). */
  id: string;
  /** An API key made with the token. */
  key: string;
  /** The ids of the user's summary jobs. */
  jobs: string[];
}

const userIdOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub;

const summarize = (token: string, body: Record<string, unknown>, prefer?: string) =>
  env.host.request('POST', '/summarize', {
    json: { video_url: VIDEO, ...body },
    token,
    ...(prefer ? { headers: { prefer } } : {}),
  });

/** A new account with an API key and a finished summary job. */
async function populated(): Promise<Account> {
  const { user, token } = await env.host.registerAndLogin();
  const created = await env.host.request('POST', '/api-keys', { json: { name: 'laptop' }, token });
  expect(created.status).toBe(201);
  const summary = await summarize(token, {
    used_model: 'extractive',
    summary_length: freshLength(),
  });
  expect(summary.status).toBe(200);
  return { user, token, id: userIdOf(token), key: created.body.key, jobs: [jobIdOf(summary)] };
}

const deleteAccount = (token: string, json?: unknown) =>
  env.host.request('DELETE', '/account', { token, ...(json === undefined ? {} : { json }) });
const history = (credential: string) =>
  env.host.request('GET', '/summaries?limit=100', { token: credential });
const logIn = (identifier: string, password: string) =>
  env.host.request('POST', '/token', { json: { username: identifier, password } });

/** Every item of the table (DynamoDB Local's pages followed). */
async function allItems(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await env.host.db.send(
      new ScanCommand({
        TableName: env.host.config.TABLE_NAME,
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** An item as text: sets (a summary's jobs) as lists; packed summaries are bytes naming no one. */
const itemText = (item: unknown) =>
  JSON.stringify(item, (_key, value) =>
    value instanceof Set ? [...value] : value instanceof Uint8Array ? '' : value,
  );

/** The items in which any of `needles` is written (in a key or any value, in any case). */
async function itemsWith(needles: string[]): Promise<Record<string, unknown>[]> {
  return (await allItems()).filter((item) => {
    const written = itemText(item);
    return needles.some(
      (needle) => written.includes(needle) || written.toLowerCase().includes(needle),
    );
  });
}

/** What names the account itself: its id, its username or email, the ids of its jobs. */
const namesOf = (account: Account) => [
  account.id,
  account.user.username.toLowerCase(),
  account.user.email.toLowerCase(),
  ...account.jobs,
];
/** The hash the login counters key the account by. */
const guardHashOf = (account: Account) =>
  createHash('sha256').update(`user:${account.id}`).digest('base64url');

/**
 * The items that name the account anywhere (a key or any value): its id, the hash the login
 * counters key it by, its username or email, the ids of its jobs.
 */
const itemsNaming = (account: Account) => itemsWith([...namesOf(account), guardHashOf(account)]);

/** What may outlive an account: the login counters, keyed by a hash of its id, with a TTL. */
const LEFT_TO_EXPIRE = /^(LOGINFAIL#|LOGINOK#)/;

describe('DELETE /account', () => {
  it('answers 204, and then the token, the API key and the password are refused', async () => {
    const account = await populated();
    const forged = await history('not.a.token');

    const deleted = await deleteAccount(account.token, { password: account.user.password });
    const withToken = await history(account.token);
    const withKey = await history(account.key);
    const byName = await logIn(account.user.username, account.user.password);
    const byEmail = await logIn(account.user.email, account.user.password);
    const again = await deleteAccount(account.token, { password: account.user.password });

    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(withToken.status).toBe(401);
    expect(comparableProblem(withToken)).toEqual(comparableProblem(forged));
    expect(withKey.status).toBe(401);
    expect(comparableProblem(withKey)).toEqual(comparableProblem(forged));
    expect(byName.status).toBe(401);
    expect(byName.body.type).toBe('urn:tubesum:problem:invalid-credentials');
    expect(byEmail.status).toBe(401);
    expect(again.status).toBe(401);
  });

  it('frees the username and the email: a new account takes them, and owns nothing of the old', async () => {
    const account = await populated();
    expect((await deleteAccount(account.token, { password: account.user.password })).status).toBe(
      204,
    );

    const reborn = newUser({
      username: account.user.username.toUpperCase(),
      email: account.user.email.toUpperCase(),
    });
    const registered = await env.host.request('POST', '/register', { json: reborn });
    const login = await logIn(reborn.username, reborn.password);
    const token = login.body.access_token as string;

    expect(registered.status).toBe(201);
    expect(login.status).toBe(200);
    expect(userIdOf(token)).not.toBe(account.id);
    expect((await history(token)).body.items).toEqual([]);
    expect((await env.host.request('GET', '/api-keys', { token })).body.items).toEqual([]);
    expect((await env.host.request('GET', `/summaries/${account.jobs[0]}`, { token })).status).toBe(
      404,
    );
  });

  it('leaves nothing in the table that names the account (a full scan), but login counters keyed by a hash, left to expire', async () => {
    const account = await populated();
    // What the account holds before: its record and names, its key and list, its job, its
    // quota counter and the address it logged in from.
    const before = (await itemsNaming(account)).map((item) => String(item.pk).split('#')[0]);
    expect(new Set(before)).toEqual(
      new Set([
        'USER',
        'USERNAME',
        'EMAIL',
        'APIKEY',
        'APIKEYS',
        'JOB',
        'QUOTA',
        'LOGINOK',
        'LOGINFAIL',
        'SUMMARY',
      ]),
    );

    // A summary they paid for and whose job they removed: the record still named them.
    const removed = await summarize(account.token, {
      used_model: 'extractive',
      summary_length: freshLength(),
    });
    const removedJob = jobIdOf(removed);
    expect(
      (await env.host.request('DELETE', `/summaries/${removedJob}`, { token: account.token }))
        .status,
    ).toBe(204);

    expect((await deleteAccount(account.token, { password: account.user.password })).status).toBe(
      204,
    );
    const named = await itemsWith([...namesOf(account), removedJob]);
    const hashed = await itemsWith([guardHashOf(account)]);

    // No item at all: no summary record charged to them, no quota counter, no job id of theirs.
    expect(named).toEqual([]);
    expect(hashed.filter((item) => !LEFT_TO_EXPIRE.test(String(item.pk)))).toEqual([]);
    for (const item of hashed) {
      expect(Number(item[TABLE_TTL_ATTRIBUTE]), String(item.pk)).toBeGreaterThan(0);
    }
  });

  it('deletes what a user removed from their history names of them: the record of its summary no longer does', async () => {
    const account = await populated();
    const [job] = account.jobs;

    const removed = await env.host.request('DELETE', `/summaries/${job}`, {
      token: account.token,
    });
    const records = (await itemsWith([account.id, job ?? '-'])).filter((item) =>
      String(item.pk).startsWith('SUMMARY#'),
    );

    expect(removed.status).toBe(204);
    expect(records).toEqual([]);
  });

  it('stops charging a user deleted while a run they paid for goes on for another: its failure gives nothing back to anyone, and breaks nothing', async () => {
    // The first call answers after the deletion; every call after it fails (503).
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: 4 * CALL_MS }, 'unavailable']);
    const account = await populated();
    const other = await populated();
    const shared = { used_model: OPENAI_MODEL_NAME, summary_length: freshLength() };
    const paid = await summarize(account.token, shared, 'respond-async');
    const waits = await summarize(other.token, shared, 'respond-async');
    account.jobs.push(jobIdOf(paid));

    const deleted = await deleteAccount(account.token, { password: account.user.password });
    const { last } = await pollJob(env.host, other.token, jobIdOf(waits), { timeoutMs: 60_000 });
    const left = await itemsWith(namesOf(account));
    // The worker goes on: the next summary is made.
    const next = await summarize(other.token, {
      used_model: 'extractive',
      summary_length: freshLength(),
    });

    expect(deleted.status).toBe(204);
    expect(last.body.status).toBe('failed');
    expect(last.body.error.status).toBe(503);
    // No counter made anew for them by a unit given back, no record still charging them.
    expect(left).toEqual([]);
    expect(next.status).toBe(200);
  });

  it('takes an unfinished job off its run: no model call starts for it afterwards', async () => {
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: CALL_MS }]);
    const { user, token } = await env.host.registerAndLogin();
    const started = await summarize(
      token,
      { used_model: OPENAI_MODEL_NAME, summary_length: freshLength() },
      'respond-async',
    );
    await pollJob(env.host, token, jobIdOf(started), {
      until: (job) => job.progress.parts_done >= 1,
    });

    const deleted = await deleteAccount(token, { password: user.password });
    const callsAtDeletion = env.openai.requests.length;
    // Longer than two calls take: a run that went on would have started another.
    await new Promise((resolve) => setTimeout(resolve, 3 * CALL_MS));

    expect(deleted.status).toBe(204);
    expect(env.openai.requests).toHaveLength(callsAtDeletion);
    // Four parts and a combination were never all asked for.
    expect(callsAtDeletion).toBeLessThan(5);
  });

  it("leaves another user's account, keys and jobs as they were, and a summary they wait for is made", async () => {
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: CALL_MS }]);
    const account = await populated();
    const other = await populated();
    const shared = { used_model: OPENAI_MODEL_NAME, summary_length: freshLength() };
    await summarize(account.token, shared, 'respond-async');
    const theirs = await summarize(other.token, shared, 'respond-async');
    const historyBefore = (await history(other.token)).body.items.map(
      (job: { id: string }) => job.id,
    );

    const deleted = await deleteAccount(account.token, { password: account.user.password });
    const { last } = await pollJob(env.host, other.token, jobIdOf(theirs), { timeoutMs: 60_000 });

    expect(deleted.status).toBe(204);
    expect(last.body.status).toBe('done');
    expect((await history(other.token)).body.items.map((job: { id: string }) => job.id)).toEqual(
      historyBefore,
    );
    expect((await history(other.key)).status).toBe(200);
    expect(
      (await env.host.request('GET', '/api-keys', { token: other.token })).body.items,
    ).toHaveLength(1);
    expect((await logIn(other.user.email, other.user.password)).status).toBe(200);
  });

  it('refuses an API key with 403 login-token-required, and deletes nothing', async () => {
    const account = await populated();

    const refused = await deleteAccount(account.key, { password: account.user.password });

    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      type: 'urn:tubesum:problem:login-token-required',
      detail: expect.stringContaining('Deleting an account needs an access token'),
    });
    expect((await history(account.key)).body.items.map((job: { id: string }) => job.id)).toEqual(
      account.jobs,
    );
    expect((await logIn(account.user.username, account.user.password)).status).toBe(200);
  });

  it('refuses a wrong password with 403 wrong-password, and deletes nothing', async () => {
    const account = await populated();

    const refused = await deleteAccount(account.token, { password: 'not-the-password' });
    // bcrypt sees 72 bytes at most: the password and more is wrong, not truncated.
    const longer = await deleteAccount(account.token, {
      password: `${account.user.password}${'x'.repeat(80)}`,
    });

    for (const answer of [refused, longer]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({
        type: 'urn:tubesum:problem:wrong-password',
        detail: expect.stringContaining('nothing was deleted'),
      });
      // Not a 401: the token is good, and a client must not sign the person out for it.
      expect(answer.headers.get('www-authenticate')).toBeNull();
    }
    expect((await history(account.token)).status).toBe(200);
    expect((await history(account.key)).body.items).toHaveLength(1);
    expect((await logIn(account.user.username, account.user.password)).status).toBe(200);
  });

  it('counts a wrong password as a failed login: after LOGIN_MAX_FAILURES, 429 here and at /token', async () => {
    const account = await populated();
    const from = '127.0.0.31';
    const confirm = (password: string) =>
      env.host.request('DELETE', '/account', { token: account.token, json: { password }, from });

    const wrong = [];
    for (let i = 0; i < MAX_FAILURES; i++) wrong.push((await confirm('not-the-password')).status);
    const rightNow = await confirm(account.user.password);
    const login = await env.host.request('POST', '/token', {
      json: { username: account.user.username, password: account.user.password },
      from,
    });

    expect(wrong).toEqual(Array(MAX_FAILURES).fill(403));
    expect(rightNow.status).toBe(429);
    expect(rightNow.body.type).toBe('urn:tubesum:problem:too-many-login-attempts');
    expect(Number(rightNow.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(login.status).toBe(429);
    // Nothing was deleted, and the owner deletes it from another address.
    expect((await history(account.token)).status).toBe(200);
    expect((await deleteAccount(account.token, { password: account.user.password })).status).toBe(
      204,
    );
  });

  it.each([
    ['an empty object', {}],
    ['a password that is a number', { password: 12345678 }],
    ['an empty password', { password: '' }],
  ])('answers %s with 422 naming the password, and deletes nothing', async (_case, body) => {
    const account = await populated();

    const refused = await deleteAccount(account.token, body);

    expect(refused.status).toBe(422);
    expect(refused.body.type).toBe('urn:tubesum:problem:validation-error');
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'password' })]);
    expect((await history(account.token)).body.items).toHaveLength(1);
  });

  it('answers no body as every route with a body does (415, then 400), and deletes nothing', async () => {
    const account = await populated();

    const untyped = await deleteAccount(account.token);
    const empty = await env.host.request('DELETE', '/account', {
      token: account.token,
      headers: { 'content-type': 'application/json' },
    });

    expect(untyped.status).toBe(415);
    expect(empty.status).toBe(400);
    expect((await history(account.token)).status).toBe(200);
  });

  it('answers 401 without a token, before reading the body', async () => {
    const refused = await env.host.request('DELETE', '/account', { json: { password: 'x' } });

    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="tubesum"');
  });
});

describe('a deletion interrupted half-way', () => {
  it('leaves an account nobody can use, whose names are free, and the same request finishes it', async () => {
    const account = await populated();
    // The table goes away right after the transaction that begins the deletion.
    proxy.failAfter('TransactWriteItems');
    const interrupted = await deleteAccount(account.token, { password: account.user.password });
    proxy.restore();

    // Begun: no log-in, no token and no key of the account gets in anywhere ...
    const withToken = await history(account.token);
    const withKey = await history(account.key);
    const login = await logIn(account.user.username, account.user.password);
    // ... and its username is free, for whoever registers it meanwhile.
    const newcomer = newUser({ username: account.user.username });
    const registered = await env.host.request('POST', '/register', { json: newcomer });
    // The same request, sent again, finishes the deletion.
    const finished = await deleteAccount(account.token, { password: account.user.password });
    const theirs = await logIn(newcomer.username, newcomer.password);
    const newcomerId = userIdOf(theirs.body.access_token);
    const left = await itemsNaming(account);

    expect(interrupted.status).toBe(503);
    expect(interrupted.body.type).toBe('urn:tubesum:problem:storage-unavailable');
    expect(withToken.status).toBe(401);
    expect(withKey.status).toBe(401);
    expect(login.status).toBe(401);
    expect(registered.status).toBe(201);
    expect(finished.status).toBe(204);
    // The newcomer keeps the name (their record and claim name it), and logs in.
    expect(theirs.status).toBe(200);
    expect(newcomerId).not.toBe(account.id);
    // Nothing else names the old account but what expires.
    expect(
      left.filter(
        (item) => !LEFT_TO_EXPIRE.test(String(item.pk)) && !itemText(item).includes(newcomerId),
      ),
    ).toEqual([]);
    expect(left.map((item) => item.pk)).toEqual(
      expect.arrayContaining([`USERNAME#${account.user.username.toLowerCase()}`]),
    );
  });

  it('is finished by the same request also when it stopped after the API keys', async () => {
    const account = await populated();
    // Through the marking, the key's removal and the lookup of the jobs; then the table goes.
    proxy.failAfter('Query');
    const interrupted = await deleteAccount(account.token, { password: account.user.password });
    proxy.restore();

    const finished = await deleteAccount(account.token, { password: account.user.password });
    const left = await itemsNaming(account);

    expect(interrupted.status).toBe(503);
    expect(finished.status).toBe(204);
    expect(left.filter((item) => !LEFT_TO_EXPIRE.test(String(item.pk)))).toEqual([]);
  });
});
