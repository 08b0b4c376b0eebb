// An agent connects the way claude.ai, Claude Desktop and ChatGPT do: the official MCP SDK
// client's own OAuth flow (its OAuthClientProvider; discovery from /mcp's 401, dynamic
// registration, PKCE, finishAuth) against `npm start` in a child process, with the person in a
// real browser (Debian's chromium, driven by playwright-core) signing in on the page and pressing
// Allow; the agent then lists and calls tools. The same with Deny gives it nothing. Then the
// person disconnects the app on the page, and the agent is refused from its next request.
// Nothing leaves the machine: the app's redirect URI is answered inside the browser.
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  type OAuthClientProvider,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  RESULTS_DIR,
  skipWithoutChromium,
  type Watched,
  watchedPage,
  step as watchedStep,
} from '../support/browser';
import { FAKE_VIDEO_IDS, type FakeYouTube, startFakeYouTube } from '../support/fake-youtube';
import { newUser } from '../support/host';
import { type LocalProcess, startLocalProcess } from '../support/local-process';

const SKIPPED = skipWithoutChromium('connecting an MCP client with OAuth');
const FAILURE_SCREENSHOT = resolve(RESULTS_DIR, 'oauth-e2e-failure.png');
const UI_TIMEOUT = 45_000;
const APP_NAME = 'SDK test agent';

let youtube: FakeYouTube;
let service: LocalProcess;
let browser: Browser;
let watched: Watched;
let callback: string;
const person = newUser();

/** A port nothing listens on: the app's loopback redirect URI, answered in the browser. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address ? address.port : 0;
}

/** An MCP client's OAuth state, kept in memory as a desktop app would keep it on disk. */
class MemoryProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** Where the SDK asked to send the person (its redirectToAuthorization). */
  authorizationUrl?: URL;

  constructor(readonly expectedState: string) {}

  get redirectUrl() {
    return callback;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: APP_NAME,
      redirect_uris: [callback],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.expectedState;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.information = undefined;
  }
}

const transportFor = (provider: MemoryProvider) =>
  new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { authProvider: provider });

const step = <T>(name: string, run: () => Promise<T>) =>
  watchedStep(watched, FAILURE_SCREENSHOT, name, run);

/**
 * The person's part: the SDK's authorization URL opened in the browser, signed in if the page
 * asks, the consent screen checked, `button` pressed; the app's redirect URI the browser reached.
 */
async function personAnswers(provider: MemoryProvider, button: 'Allow' | 'Deny'): Promise<URL> {
  const { page } = watched;
  await step('open the authorization URL', () => page.goto(String(provider.authorizationUrl)));
  const signIn = page.getByRole('form', { name: 'Sign in' });
  const consent = page.getByRole('heading', { name: `Connect “${APP_NAME}” to your account?` });
  await step('sign in, or find the consent screen', async () => {
    await signIn.or(consent).first().waitFor();
    if (await signIn.isVisible()) {
      await signIn.getByLabel('Username or email').fill(person.username);
      await signIn.getByLabel('Password', { exact: true }).fill(person.password);
      await signIn.getByRole('button', { name: 'Sign in' }).click();
    }
    await consent.waitFor();
  });
  await step('read the consent screen', async () => {
    const screen = page.getByRole('region', { name: `Connect “${APP_NAME}” to your account?` });
    await expect(screen.textContent()).resolves.toContain(new URL(callback).host);
    await expect(screen.textContent()).resolves.toContain(person.username);
  });
  await step(`press ${button}`, () => page.getByRole('button', { name: button }).click());
  // Loaded, not only asked for: a navigation still under way would cut off the test's next one.
  await step('reach the app’s redirect URI', () =>
    page.waitForURL((url) => url.href.startsWith(callback)),
  );
  return new URL(page.url());
}

beforeAll(async () => {
  if (SKIPPED) return;
  youtube = await startFakeYouTube();
  service = await startLocalProcess({
    YOUTUBE_BASE_URL: youtube.baseUrl,
    YOUTUBE_API_BASE_URL: youtube.baseUrl,
    SUMMARY_DAILY_QUOTA: '0',
  });
  const registered = await fetch(`${service.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  expect(registered.status).toBe(201);
  callback = `http://127.0.0.1:${await unusedPort()}/callback`;
  browser = await launchChromium();
  watched = await watchedPage(browser, new URL(service.url).origin);
  watched.page.setDefaultTimeout(UI_TIMEOUT);
  // The app's redirect URI: answered here, as the app's own listener would.
  await watched.context.route(`${callback}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' }),
  );
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await youtube?.close();
});

describe.skipIf(SKIPPED)('an MCP client connecting with OAuth', () => {
  const allowing = new MemoryProvider('state-allow');
  let client: Client;

  it('is sent to the person, who signs in and presses Allow; it then lists and calls tools', async () => {
    // Discovery, registration and PKCE: the SDK's own, from /mcp's 401.
    await expect(
      new Client({ name: 'agent', version: '1' }).connect(transportFor(allowing)),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(allowing.information?.client_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(allowing.authorizationUrl?.href).toMatch(
      new RegExp(`^${service.url}/oauth/authorize\\?`),
    );
    expect(allowing.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(allowing.authorizationUrl?.searchParams.get('resource')).toBe(`${service.url}/mcp`);

    const back = await personAnswers(allowing, 'Allow');
    expect(back.searchParams.get('state')).toBe('state-allow');
    const code = back.searchParams.get('code') ?? '';
    await transportFor(allowing).finishAuth(code);
    client = new Client({ name: 'agent', version: '1' });
    await client.connect(transportFor(allowing));
    const { tools } = await client.listTools();
    const transcript = (await client.callTool({
      name: 'get_transcript',
      arguments: { video_url: FAKE_VIDEO_IDS.normal, end_seconds: 30 },
    })) as CallToolResult & { structuredContent: { segments: unknown[] } };

    expect(tools.map((tool) => tool.name)).toContain('summarize_video');
    expect(transcript.isError).toBeFalsy();
    expect(transcript.structuredContent.segments.length).toBeGreaterThan(0);
    expect(allowing.saved?.refresh_token).toMatch(/^tsr_/);
  });

  it('gets nothing when the person presses Deny', async () => {
    const denying = new MemoryProvider('state-deny');
    await expect(
      new Client({ name: 'agent', version: '1' }).connect(transportFor(denying)),
    ).rejects.toBeInstanceOf(UnauthorizedError);

    const back = await personAnswers(denying, 'Deny');

    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-deny');
    expect(back.searchParams.get('code')).toBeNull();
    expect(denying.saved).toBeUndefined();
    await expect(
      new Client({ name: 'agent', version: '1' }).connect(transportFor(denying)),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('is refused from its next request once the person disconnects it on the page', async () => {
    const { page } = watched;
    const access = allowing.saved?.access_token ?? '';
    await step('open the page', () => page.goto(`${service.url}/`));
    const apps = page.getByRole('region', { name: 'Connected apps' });
    const item = apps.getByRole('listitem').filter({ hasText: APP_NAME });
    await step('find the app, used', () => item.getByText(/last used/).waitFor());

    await step('press Disconnect', () => item.getByRole('button', { name: /^Disconnect/ }).click());
    await step('see it gone', () =>
      apps
        .getByRole('status')
        .getByText(/Disconnected/)
        .waitFor(),
    );

    const refused = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${access}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    // The SDK's refresh is refused too (the connection ended): it would need the person again.
    await expect(client.listTools()).rejects.toThrow();
    expect(watched.pageErrors, JSON.stringify(watched.pageErrors)).toEqual([]);
    // Nothing left the machine but the page's answers to the app (its redirect URI).
    expect(
      [...watched.foreign].filter((request) => !request.startsWith(`GET ${callback}?`)),
    ).toEqual([]);
  });
});
