// Starts the real local host (route table, middy stack, handlers) in this test process against
// the run's DynamoDB Local, in a table of its own, from a Config of its own, and gives a small
// HTTP client for it.
import { randomBytes, randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Agent, fetch as undiciFetch } from 'undici';
import { inject } from 'vitest';
import { type LocalHost, startLocalHost } from '../../infra/local/host';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import { type Config, loadConfig } from '../../lib/config';
import { fetchContract } from './contract';

export interface TestHost extends LocalHost {
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Registers a user and returns their access token. */
  registerAndLogin(user?: Partial<TestUser>): Promise<{ user: TestUser; token: string }>;
  /** A client of the host's DynamoDB, for tests that look at what was stored. */
  db: DynamoDBDocumentClient;
}

export interface RequestOptions {
  /** The loopback address to send from (127.0.0.2, ...): a client elsewhere. */
  from?: string;
  json?: unknown;
  form?: Record<string, string>;
  body?: string | Buffer;
  headers?: Record<string, string>;
  token?: string;
}

/** A request's redirects are never followed: a test sees the 303 and its Location itself. */
const REDIRECT = 'manual' as const;

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  body: any;
}

export interface TestUser {
  username: string;
  email: string;
  password: string;
}

export const TEST_SECRET = randomBytes(48).toString('base64url');

/** A fresh, valid user (unique per call). */
export function newUser(overrides: Partial<TestUser> = {}): TestUser {
  const id = randomUUID().slice(0, 8);
  return {
    username: `user_${id}`,
    email: `user_${id}@example.com`,
    password: `Tr0ub4dor&3-${id}`,
    ...overrides,
  };
}

/**
 * The Config of a test: the run's DynamoDB Local, a table of its own, a test secret, a cheap
 * bcrypt cost, any free port, plus `env` (strings, as a real environment holds them).
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
    AWS_REGION: 'us-east-1',
    TABLE_NAME: `test-${randomUUID()}`,
    JWT_SECRET: TEST_SECRET,
    BCRYPT_COST: '10',
    HOST: '127.0.0.1',
    PORT: '0',
    LOCAL_DATA_DIR: 'memory',
    // Tests register many users from one address; the abuse tests set their own limits.
    REGISTER_MAX_PER_IP: '0',
    BCRYPT_MAX_PER_IP: '0',
    OAUTH_REGISTER_MAX_PER_IP: '0',
    ...env,
  });
}

/** Starts a local host with the test Config and the given settings on top of it. */
export async function startTestHost(
  env: Record<string, string> = {},
  options: { services?: Record<string, unknown> } = {},
): Promise<TestHost> {
  const host = await startLocalHost(testConfig(env), {
    log: () => undefined,
    ...(options.services ? { services: options.services } : {}),
  });
  // Tests start from a ready table (a broken endpoint fails here, not in some later request).
  await host.database;
  const db = createDocumentClient(host.config);
  // Every response a test sees must be one the OpenAPI document describes.
  const contract = await fetchContract(host.url);

  const request: TestHost['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | Buffer | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const init = { method, headers, body, redirect: REDIRECT };
    const response = await (options.from
      ? fetchFrom(options.from, host.url + path, init)
      : fetch(host.url + path, init));
    const text = await response.text();
    contract.check(method, path, { status: response.status, headers: response.headers, text });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };

  return {
    ...host,
    db,
    async close() {
      db.destroy();
      await host.close();
    },
    request,
    async registerAndLogin(overrides = {}) {
      const user = newUser(overrides);
      const registered = await request('POST', '/register', { json: user });
      if (registered.status !== 201) throw new Error(`register failed: ${registered.text}`);
      const login = await request('POST', '/token', {
        json: { username: user.username, password: user.password },
      });
      if (login.status !== 200) throw new Error(`login failed: ${login.text}`);
      return { user, token: login.body.access_token as string };
    },
  };
}

const agents = new Map<string, Agent>();

/** fetch, sent from a given local address (undici's own fetch, with an agent bound to it). */
async function fetchFrom(address: string, url: string, init: RequestInit): Promise<Response> {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ localAddress: address });
    agents.set(address, agent);
  }
  return (await undiciFetch(url, {
    ...(init as Parameters<typeof undiciFetch>[1]),
    dispatcher: agent,
  })) as unknown as Response;
}

/** A problem response without what legitimately differs between two requests (its id). */
export function comparableProblem(response: Pick<TestResponse, 'status' | 'body' | 'headers'>) {
  return {
    status: response.status,
    body: { ...response.body, request_id: undefined },
    challenge: response.headers.get('www-authenticate'),
    type: response.headers.get('content-type'),
  };
}
